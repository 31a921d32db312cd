import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSessionCodec, checkSessionSecrets, SESSION_FORMAT_VERSION } from './session-codec.js';

const OLD = 'an-old-session-secret-of-32-characters';
const NEW = 'a-new-session-secret-of-32-characters!';
const HOUR = 3600 * 1000;

function clockAt(iso = '2026-11-22T08:00:00Z') {
  const clock = { now: Date.parse(iso) };
  return { clock, now: () => clock.now };
}

describe('createSessionCodec', () => {
  it('seals data that only the codec can read, and opens it again', () => {
    const codec = createSessionCodec(NEW);
    const cookie = codec.seal({ userId: 1, csrfToken: 'token' });
    expect(cookie).not.toContain('token');
    expect(codec.open(cookie)).toEqual({ userId: 1, csrfToken: 'token' });
  });

  it('starts the cookie with the format version, so a later format can tell this one apart', () => {
    const raw = Buffer.from(createSessionCodec(NEW).seal({}), 'base64url');
    expect(raw[0]).toBe(SESSION_FORMAT_VERSION);
  });

  it('refuses a cookie of another format version, one altered anywhere, and the format of before (no version byte)', () => {
    const codec = createSessionCodec(NEW);
    const raw = Buffer.from(codec.seal({ userId: 1 }), 'base64url');
    for (const index of [0, 1, 6, 20, raw.length - 1]) {
      const altered = Buffer.from(raw);
      altered[index] = altered[index]! ^ 1;
      expect(codec.open(altered.toString('base64url')), `byte ${index}`).toBeNull();
    }
    const key = createHash('sha256').update(NEW).digest();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify({ userId: 1 })), cipher.final()]);
    expect(codec.open(Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url'))).toBeNull();
    expect(codec.open(undefined)).toBeNull();
    expect(codec.open('')).toBeNull();
    expect(codec.open('x'.repeat(5000))).toBeNull();
  });

  it('"rotation by a list of secrets (first seals, all open)": a listed older secret opens, and says so; a retired one does not', () => {
    const old = createSessionCodec(OLD).seal({ userId: 7 });
    const rotated = createSessionCodec([NEW, OLD]);
    expect(rotated.read(old)).toMatchObject({ data: { userId: 7 }, sealedWithOlderSecret: true });
    expect(rotated.read(rotated.seal({ userId: 7 }))).toMatchObject({ sealedWithOlderSecret: false });
    expect(createSessionCodec(NEW).open(old)).toBeNull();
    expect(createSessionCodec(NEW).open(rotated.seal({ userId: 7 }))).toEqual({ userId: 7 });
  });

  it('"an absolute lifetime": refuses a cookie once `lifetime` has passed since sign-in, even when sealed again since', () => {
    const { clock, now } = clockAt();
    const codec = createSessionCodec(NEW, { lifetime: 12 * 3600, idleTimeout: 2 * 3600, now });
    const first = codec.seal({ userId: 1 });
    const issuedAt = codec.read(first)!.issuedAt;
    clock.now += 11 * HOUR;
    const resealed = codec.seal({ userId: 1 }, { issuedAt });
    clock.now += HOUR - 1000;
    expect(codec.open(resealed)).toEqual({ userId: 1 });
    clock.now += 1000;
    expect(codec.open(resealed)).toBeNull();
  });

  it('"an idle timeout": refuses a cookie not sealed again for `idleTimeout` seconds', () => {
    const { clock, now } = clockAt();
    const codec = createSessionCodec(NEW, { lifetime: 12 * 3600, idleTimeout: 2 * 3600, now });
    const cookie = codec.seal({ userId: 1 });
    clock.now += 2 * HOUR - 1000;
    expect(codec.open(cookie)).not.toBeNull();
    clock.now += 1000;
    expect(codec.open(cookie)).toBeNull();
  });

  it('refuses a cookie stamped more than a minute in the future (a clock set back)', () => {
    const { clock, now } = clockAt();
    const codec = createSessionCodec(NEW, { now });
    const cookie = codec.seal({});
    clock.now -= 2 * 60 * 1000;
    expect(codec.open(cookie)).toBeNull();
  });

  it('keeps the stamps it is given: session id, sign-in time, generation, confirmation', () => {
    const { now } = clockAt();
    const codec = createSessionCodec(NEW, { now });
    const cookie = codec.seal({ userId: 3 }, { sessionId: 'abc', issuedAt: now() / 1000 - 60, generation: 4, confirmedAt: now() / 1000 - 30 });
    expect(codec.read(cookie)).toEqual({
      data: { userId: 3 },
      sessionId: 'abc',
      issuedAt: now() / 1000 - 60,
      seenAt: now() / 1000,
      generation: 4,
      confirmedAt: now() / 1000 - 30,
      sealedWithOlderSecret: false,
    });
    expect(codec.read(codec.seal({}))!.sessionId).toMatch(/^[\w-]{22}$/);
  });
});

describe('checkSessionSecrets ("Config validation fails fast on a missing/short secret")', () => {
  it('names the option, and the entry of a list, and the fix', () => {
    expect(() => checkSessionSecrets('short')).toThrow(/^Panel config: sessionSecret must be a string of at least 32 characters\. Fix: generate one/);
    expect(() => checkSessionSecrets([NEW, 'short'])).toThrow(/^Panel config: sessionSecret\[1\] must be a string of at least 32 characters/);
    expect(() => checkSessionSecrets([])).toThrow(/sessionSecret must be a string of at least 32 characters or a non-empty list of them/);
    expect(() => checkSessionSecrets([NEW, NEW])).toThrow(/sessionSecret lists the same secret twice/);
    expect(checkSessionSecrets([NEW, OLD])).toEqual([NEW, OLD]);
  });
});
