import { describe, expect, it } from 'vitest';
import { addressKey } from './address-key.js';

describe('addressKey', () => {
  it('counts an IPv4 address whole, also written IPv4-mapped', () => {
    expect(addressKey('192.0.2.10')).toBe('192.0.2.10');
    expect(addressKey('::ffff:192.0.2.10')).toBe('192.0.2.10');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('keeps anything else as given, shortened', () => {
    expect(addressKey('unknown')).toBe('unknown');
    expect(addressKey('x'.repeat(100))).toHaveLength(64);
  });
});
