import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password-hash.js';

describe('hashPassword / verifyPassword (scrypt from node:crypto, self-describing format)', () => {
  it('makes a salted digest in the format scrypt$N$r$p$salt$hash that verifies the password and nothing else', async () => {
    const digest = await hashPassword('demo-password');
    expect(digest).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(digest).not.toContain('demo-password');
    expect(await hashPassword('demo-password')).not.toBe(digest);
    expect(await verifyPassword('demo-password', digest)).toBe(true);
    expect(await verifyPassword('demo-passwore', digest)).toBe(false);
    expect(await verifyPassword('', digest)).toBe(false);
  });

  it('verifies a digest made with another cost, read from the digest itself', async () => {
    // scrypt$4$1$1: the same format with a tiny cost, as an older or a test digest could carry.
    const { scryptSync } = await import('node:crypto');
    const salt = Buffer.from('0123456789abcdef');
    const digest = `scrypt$4$1$1$${salt.toString('base64url')}$${scryptSync('s3cret', salt, 32, { N: 4, r: 1, p: 1 }).toString('base64url')}`;
    expect(await verifyPassword('s3cret', digest)).toBe(true);
  });

  it('never matches (and never throws on) a malformed digest, a non-string or an unreasonable cost', async () => {
    const digest = await hashPassword('x');
    for (const bad of [null, undefined, '', 'plain-text', digest.replace('scrypt', 'bcrypt'), digest.replace('$16384$', '$3$'), digest.replace('$16384$', '$2147483648$'), digest.replace('$8$1$', '$99$1$'), 42]) {
      expect(await verifyPassword('x', bad)).toBe(false);
    }
    expect(await verifyPassword(42, digest)).toBe(false);
  });

  it('normalizes the password to NFC, so one password typed two ways verifies', async () => {
    expect(await verifyPassword('cafe\u0301', await hashPassword('caf\u00e9'))).toBe(true);
  });
});
