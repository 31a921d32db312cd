import { describe, expect, it } from 'vitest';
import { PASSWORD_SCRYPT_COST, SESSION_FORMAT_VERSION, createSessionCodec, hashPassword, verifyPassword } from '@panel/core';

const SECRET = 'codec-test-secret-of-at-least-32-chars';

describe('the session cookie codec', () => {
  const clock = { now: Date.parse('2026-11-22T08:00:00Z') };
  const codec = createSessionCodec(SECRET, { lifetime: 3600, idleTimeout: 600, now: () => clock.now });

  it('round-trips nested data, unicode and numbers exactly', () => {
    const data = { userId: 'a1b2', prefs: { locale: 'fr-CA', tabs: [1, 2, 3] }, name: 'Zoë 🙂', ratio: 0.5 };
    expect(codec.open(codec.seal(data))).toEqual(data);
  });

  it('a cookie is base64url text starting with the format version, and reveals nothing of the data', () => {
    const cookie = codec.seal({ userId: 42, email: 'ada@example.com' });
    expect(cookie).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(cookie, 'base64url')[0]).toBe(SESSION_FORMAT_VERSION);
    expect(Buffer.from(cookie, 'base64url').toString('latin1')).not.toContain('ada@example.com');
  });

  it('two seals of the same data differ (a fresh IV and session id each time)', () => {
    const a = codec.seal({ userId: 1 });
    const b = codec.seal({ userId: 1 });
    expect(a).not.toBe(b);
    expect(codec.read(a)!.sessionId).not.toBe(codec.read(b)!.sessionId);
  });

  it('refuses a cookie longer than a browser keeps (4096 characters) without trying to open it', () => {
    expect(codec.read('A'.repeat(4097))).toBeNull();
  });

  it('another secret cannot open it, and a cookie cut short or padded is refused', () => {
    const cookie = codec.seal({ userId: 1 });
    expect(createSessionCodec('another-secret-of-at-least-32-characters').read(cookie)).toBeNull();
    expect(codec.read(cookie.slice(0, 30))).toBeNull();
    expect(codec.read(`${cookie}AAAA`)).toBeNull();
  });

  it('the idle timeout counts from the last seal; the lifetime from sign-in', () => {
    const cookie = codec.seal({ userId: 1 });
    clock.now += 599_000;
    const seen = codec.read(cookie)!;
    expect(seen).not.toBeNull();
    const resealed = codec.seal(seen.data, { sessionId: seen.sessionId, issuedAt: seen.issuedAt });
    clock.now += 2_000;
    expect(codec.read(cookie)).toBeNull();
    expect(codec.read(resealed)).not.toBeNull();
  });

  it('stamps a sealed session with generation 0 and no confirmation unless told', () => {
    const opened = codec.read(codec.seal({}))!;
    expect(opened).toMatchObject({ generation: 0, confirmedAt: null, sealedWithOlderSecret: false, data: {} });
  });
});

describe('password digests', () => {
  it('use scrypt with N=16384, r=8, p=1', () => {
    expect(PASSWORD_SCRYPT_COST).toEqual({ N: 16_384, r: 8, p: 1 });
    expect(Object.isFrozen(PASSWORD_SCRYPT_COST)).toBe(true);
  });

  it('hash any string, empty and very long ones included, and verify only that string', async () => {
    for (const password of ['', ' ', 'p'.repeat(1024), 'pässwörd 🙂']) {
      const digest = await hashPassword(password);
      expect(await verifyPassword(password, digest), JSON.stringify(password.slice(0, 10))).toBe(true);
      expect(await verifyPassword(`${password}x`, digest)).toBe(false);
    }
  });

  it('are case and whitespace sensitive', async () => {
    const digest = await hashPassword('Secret');
    expect(await verifyPassword('secret', digest)).toBe(false);
    expect(await verifyPassword('Secret ', digest)).toBe(false);
  });

  it('refuse to hash what is not a string', async () => {
    await expect(hashPassword(12345 as never)).rejects.toThrow('hashPassword: the password must be a string.');
  });

  it('a digest whose salt or hash was changed by one character never verifies', async () => {
    const digest = await hashPassword('right');
    const parts = digest.split('$');
    // A middle character: the last one of a base64url string may only carry padding bits.
    const flip = (text: string) => `${text.slice(0, 5)}${text[5] === 'A' ? 'B' : 'A'}${text.slice(6)}`;
    expect(await verifyPassword('right', [...parts.slice(0, 4), flip(parts[4]!), parts[5]].join('$'))).toBe(false);
    expect(await verifyPassword('right', [...parts.slice(0, 5), flip(parts[5]!)].join('$'))).toBe(false);
    expect(await verifyPassword('right', digest)).toBe(true);
  });
});
