import { describe, expect, it } from 'vitest';
import { checkFileSignature, signFile, signedUrl, signingKey } from './signed-file-url.js';

const key = signingKey('p'.repeat(32));
const now = new Date('2026-11-22T10:00:00Z');

describe('signed file URLs', () => {
  it('"signed and expiring": valid until the expiry, expired from then on', () => {
    const signed = signFile(key, 'abc', 'cover.png', 300, now);
    expect(signed.expires).toBe(now.getTime() / 1000 + 300);
    const check = (at: Date) => checkFileSignature(key, 'abc', 'cover.png', String(signed.expires), signed.signature, at);
    expect(check(now)).toBe('valid');
    expect(check(new Date(now.getTime() + 299_999))).toBe('valid');
    expect(check(new Date(now.getTime() + 300_000))).toBe('expired');
  });

  it('refuses a tampered key, file name, expiry or signature, and another pepper\'s signature', () => {
    const { expires, signature } = signFile(key, 'abc', 'cover.png', 300, now);
    const e = String(expires);
    expect(checkFileSignature(key, 'abd', 'cover.png', e, signature, now)).toBe('invalid');
    expect(checkFileSignature(key, 'abc', 'cover.jpg', e, signature, now)).toBe('invalid');
    expect(checkFileSignature(key, 'abc', 'cover.png', String(expires + 3600), signature, now)).toBe('invalid');
    expect(checkFileSignature(key, 'abc', 'cover.png', e, `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`, now)).toBe('invalid');
    expect(checkFileSignature(signingKey('q'.repeat(32)), 'abc', 'cover.png', e, signature, now)).toBe('invalid');
  });

  it('refuses missing or malformed query values without throwing', () => {
    for (const [expires, signature] of [[undefined, undefined], ['x', 'y'], [['1'], 'y'], ['1', 'a'.repeat(44)], ['-1', 'a'.repeat(43)]]) {
      expect(checkFileSignature(key, 'abc', 'cover.png', expires, signature, now)).toBe('invalid');
    }
  });

  it('appends the signature as a query to the standard path', () => {
    expect(signedUrl('/panel/attachments/abc/cover.png', { expires: 5, signature: 's' })).toBe('/panel/attachments/abc/cover.png?expires=5&signature=s');
  });
});

describe('the canonical expiry', () => {
  it('refuses an expiry with leading zeros: one signature, one URL', () => {
    const key = signingKey('p'.repeat(32));
    const now = new Date('2026-11-22T10:00:00Z');
    const { expires, signature } = signFile(key, 'abc', 'cover.png', 300, now);
    expect(checkFileSignature(key, 'abc', 'cover.png', String(expires), signature, now)).toBe('valid');
    for (const padded of [`0${expires}`, `00${expires}`]) expect(checkFileSignature(key, 'abc', 'cover.png', padded, signature, now)).toBe('invalid');
  });
});
