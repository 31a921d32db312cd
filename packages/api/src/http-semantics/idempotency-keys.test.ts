import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { requestFingerprint } from './idempotency-keys.js';

describe('requestFingerprint ("the same key with another method, path or body → 422")', () => {
  const fingerprint = (body: unknown) => requestFingerprint('POST', '/api/resources/v1/products', body);

  it('tells apart bodies that parse to different values, which JSON.stringify writes alike: null, ±Infinity (from 1e400), NaN, -0 and 0', () => {
    const bodies = [{ price: null }, { price: JSON.parse('1e400') }, { price: JSON.parse('-1e400') }, { price: Number.NaN }, { price: -0 }, { price: 0 }];
    const prints = bodies.map(fingerprint);
    expect(new Set(prints).size).toBe(bodies.length);
  });

  it('never confuses a number JSON cannot write with a string or an object a client may send', () => {
    const infinite = fingerprint({ price: JSON.parse('1e400') });
    for (const other of [{ price: 'Infinity' }, { price: '\u0000Infinity' }, { price: 'nInfinity' }, { price: { Infinity: true } }, { price: ['Infinity'] }]) expect(fingerprint(other), JSON.stringify(other)).not.toBe(infinite);
    // Within a body that holds one, strings stay apart from the numbers' encoding.
    expect(fingerprint({ a: JSON.parse('1e400'), b: 'nInfinity' })).not.toBe(fingerprint({ a: 'nInfinity', b: JSON.parse('1e400') }));
    expect(fingerprint({ a: JSON.parse('1e400'), b: 'sx' })).not.toBe(fingerprint({ a: JSON.parse('1e400'), b: 'x' }));
  });

  it('the same value gives the same fingerprint, a body of ordinary values the one it always had (keys stored before keep replaying)', () => {
    const body = { product: { name: 'Lamp', price: 12.5, tags: ['a'], specs: { size: 'l' }, in_stock: true, released_on: null } };
    expect(fingerprint(body)).toBe(fingerprint(JSON.parse(JSON.stringify(body))));
    expect(fingerprint(body)).toBe(createHash('sha256').update(`POST\n/api/resources/v1/products\n${JSON.stringify(body)}`).digest('hex'));
    expect(fingerprint({ price: JSON.parse('1e400') })).toBe(fingerprint({ price: JSON.parse('2e400') }));
    expect(fingerprint(undefined)).toBe(fingerprint(null));
  });
});
