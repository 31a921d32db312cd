import { describe, expect, it } from 'vitest';
import { crc32 } from './crc32.js';
import { BASE62_ALPHABET, randomBase62, uint32ToBase62 } from './base62.js';
import { digestsEqual, mintToken, parseToken, tokenDigest } from './token-secret.js';

describe('the token secret format', () => {
  it('computes the standard CRC-32 check value', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
    expect(crc32('')).toBe(0);
  });

  it('writes a 32-bit number as six base62 characters, zero-padded and order-preserving', () => {
    expect(uint32ToBase62(0)).toBe('000000');
    expect(uint32ToBase62(61)).toBe('00000z');
    expect(uint32ToBase62(62)).toBe('000010');
    expect(uint32ToBase62(0xffffffff)).toHaveLength(6);
  });

  it('draws every base62 character, and only those', () => {
    const sample = randomBase62(20_000);
    expect(new Set(sample).size).toBe(62);
    expect([...sample].every((c) => BASE62_ALPHABET.includes(c))).toBe(true);
  });

  it('mints pat_<16-char public id>_<43 random characters, 256 bits>_<6-char CRC-32>, a new one each time', () => {
    const { secret, publicId } = mintToken();
    expect(secret).toMatch(/^pat_[0-9A-Za-z]{16}_[0-9A-Za-z]{43}_[0-9A-Za-z]{6}$/);
    expect(secret.split('_')[1]).toBe(publicId);
    expect(43 * Math.log2(62)).toBeGreaterThanOrEqual(256);
    expect(mintToken().secret).not.toBe(secret);
  });

  it('parses a minted token back to its public id, and refuses one with a typo before any lookup', () => {
    const { secret, publicId } = mintToken();
    expect(parseToken(secret)).toBe(publicId);
    const last = secret.at(-10)!;
    const typo = `${secret.slice(0, -10)}${last === 'a' ? 'b' : 'a'}${secret.slice(-9)}`;
    expect(parseToken(typo)).toBeUndefined();
    for (const bad of ['', 'pat_', `${secret} `, secret.replace('pat_', 'tap_'), secret.slice(0, -1), `Bearer ${secret}`]) {
      expect(parseToken(bad), bad).toBeUndefined();
    }
  });

  it('digests with HMAC-SHA256 keyed by the pepper, so another pepper gives another digest', () => {
    const { secret } = mintToken();
    const digest = tokenDigest(secret, 'p'.repeat(32));
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digestsEqual(digest, tokenDigest(secret, 'p'.repeat(32)))).toBe(true);
    expect(digestsEqual(digest, tokenDigest(secret, 'q'.repeat(32)))).toBe(false);
  });
});
