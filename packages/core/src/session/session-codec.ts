import { createCipheriv, createDecipheriv, createHash, createSecretKey, hkdfSync, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { PanelConfigError } from '../errors/panel-errors.js';

/** What the panel keeps in its session cookie. */
export type SessionData = Record<string, unknown>;

/** What the framework seals beside the data: times (Unix seconds) and the revocation generation. */
export interface SessionStamps {
  /** A random id per sign-in, kept when the cookie is sealed again; signing out revokes it. */
  readonly sessionId: string;
  /** When the session began (sign-in); the absolute lifetime counts from here. */
  readonly issuedAt: number;
  /** The last time the cookie was sealed for activity; the idle timeout counts from here. */
  readonly seenAt: number;
  /** The user's session generation at sign-in; a later "sign out everywhere" raises it. */
  readonly generation: number;
  /** When the user last typed their password (sign-in or confirmation), or null. */
  readonly confirmedAt: number | null;
}

/** A session cookie opened: its data, its stamps, and whether an older secret sealed it. */
export interface OpenedSession extends SessionStamps {
  readonly data: SessionData;
  /** True when a secret other than the first opened it: reseal it so that the old secret can be retired. */
  readonly sealedWithOlderSecret: boolean;
}

/** Seals session data into a cookie value and opens it again. */
export interface SessionCodec {
  /** The cookie value for `data`: encrypted and authenticated (AES-256-GCM) with the first secret. */
  seal(data: SessionData, stamps?: Partial<SessionStamps>): string;
  /**
   * The data of a cookie value, or null when it is missing, altered, of another format version,
   * sealed with a secret no longer listed, past its lifetime or idle for too long.
   */
  open(value: string | undefined): SessionData | null;
  /** Like `open`, with the stamps. */
  read(value: string | undefined): OpenedSession | null;
}

/** The codec's timing: lifetimes in seconds and the clock (milliseconds since the epoch). */
export interface SessionCodecOptions {
  /** Seconds a session lives after sign-in, whatever its activity. Default 12 hours. */
  readonly lifetime?: number;
  /** Seconds a session may go unused. Default 2 hours. */
  readonly idleTimeout?: number;
  /** The clock; default `Date.now`. Tests pass a controllable one. */
  readonly now?: () => number;
}

/** The shortest session secret accepted. */
export const MIN_SECRET_LENGTH = 32;
/** The format version, the cookie's first byte: a later format can tell this one apart. */
export const SESSION_FORMAT_VERSION = 1;
/** Default absolute lifetime: 12 hours. */
export const DEFAULT_SESSION_LIFETIME = 12 * 60 * 60;
/** Default idle timeout: 2 hours. */
export const DEFAULT_SESSION_IDLE_TIMEOUT = 2 * 60 * 60;

const KEY_ID_BYTES = 4;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + KEY_ID_BYTES;
const MAX_COOKIE_LENGTH = 4096;

interface SealingKey {
  /** Made a `KeyObject` once (`secretKeyObject` says why). */
  readonly key: KeyObject;
  readonly id: Buffer;
}

/** Derives the cipher key and its public id from a secret (HKDF-SHA256, one label per use). */
function sealingKey(secret: string): SealingKey {
  const derive = (label: string, length: number) => Buffer.from(hkdfSync('sha256', secret, 'panel-session', `panel-session v${SESSION_FORMAT_VERSION} ${label}`, length));
  return { key: createSecretKey(derive('aes-256-gcm key', 32)), id: derive('key id', KEY_ID_BYTES) };
}

/**
 * Checks the session secrets: one string or a non-empty list, each of 32 characters or more,
 * no repeats. Throws a `PanelConfigError` naming the option and the fix.
 */
export function checkSessionSecrets(secrets: unknown): readonly string[] {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  const fix = `Fix: generate one with \`node -e "console.log(require('crypto').randomBytes(32).toString('hex'))"\` and keep it in your environment.`;
  if (!Array.isArray(list) || list.length === 0) {
    throw new PanelConfigError(`Panel config: sessionSecret must be a string of at least ${MIN_SECRET_LENGTH} characters or a non-empty list of them (the first seals, all open). ${fix}`);
  }
  list.forEach((secret: unknown, index) => {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) {
      const which = typeof secrets === 'string' ? 'sessionSecret' : `sessionSecret[${index}]`;
      throw new PanelConfigError(`Panel config: ${which} must be a string of at least ${MIN_SECRET_LENGTH} characters. ${fix}`);
    }
  });
  if (new Set(list).size !== list.length) {
    throw new PanelConfigError('Panel config: sessionSecret lists the same secret twice. Fix: list each secret once, the newest first.');
  }
  return Object.freeze([...(list as string[])]);
}

/**
 * The session cookie codec. The cookie is `version ‖ key id ‖ IV ‖ tag ‖ ciphertext`
 * (base64url), AES-256-GCM with the header as additional data, under a key derived (HKDF)
 * from the first secret; every listed secret opens, so secrets rotate without signing
 * anybody out. The sealed payload carries the sign-in time and the last activity, so a copied
 * cookie stops working after `lifetime`, or after `idleTimeout` unused.
 *
 * @example
 * const codec = createSessionCodec([process.env.NEW_SECRET!, process.env.OLD_SECRET!]);
 * const cookie = codec.seal({ userId: 1 });
 * codec.open(cookie); // { userId: 1 }
 */
export function createSessionCodec(secrets: string | readonly string[], options: SessionCodecOptions = {}): SessionCodec {
  const keys = checkSessionSecrets(secrets).map(sealingKey);
  const lifetime = options.lifetime ?? DEFAULT_SESSION_LIFETIME;
  const idleTimeout = options.idleTimeout ?? DEFAULT_SESSION_IDLE_TIMEOUT;
  const clock = options.now ?? Date.now;
  const nowSeconds = () => Math.floor(clock() / 1000);

  const read = (value: string | undefined): OpenedSession | null => {
    if (typeof value !== 'string' || value.length > MAX_COOKIE_LENGTH) return null;
    const raw = Buffer.from(value, 'base64url');
    if (raw.length < HEADER_BYTES + IV_BYTES + TAG_BYTES || raw[0] !== SESSION_FORMAT_VERSION) return null;
    const id = raw.subarray(1, HEADER_BYTES);
    const index = keys.findIndex((k) => timingSafeEqual(k.id, id));
    if (index < 0) return null;
    let payload: unknown;
    try {
      const decipher = createDecipheriv('aes-256-gcm', keys[index]!.key, raw.subarray(HEADER_BYTES, HEADER_BYTES + IV_BYTES));
      decipher.setAAD(raw.subarray(0, HEADER_BYTES));
      decipher.setAuthTag(raw.subarray(HEADER_BYTES + IV_BYTES, HEADER_BYTES + IV_BYTES + TAG_BYTES));
      payload = JSON.parse(Buffer.concat([decipher.update(raw.subarray(HEADER_BYTES + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8'));
    } catch {
      return null;
    }
    const { sid, iat, seen, gen, cfm, data } = (payload ?? {}) as Record<string, unknown>;
    if (typeof sid !== 'string' || sid.length === 0 || sid.length > 64) return null;
    if (!Number.isInteger(iat) || !Number.isInteger(seen) || !Number.isInteger(gen) || (cfm !== null && !Number.isInteger(cfm))) return null;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
    const now = nowSeconds();
    // A clock set back, or a cookie stamped in the future, is refused too.
    if ((iat as number) > now + 60 || now - (iat as number) >= lifetime || now - (seen as number) >= idleTimeout) return null;
    return Object.freeze({
      data: data as SessionData,
      sessionId: sid,
      issuedAt: iat as number,
      seenAt: seen as number,
      generation: gen as number,
      confirmedAt: cfm as number | null,
      sealedWithOlderSecret: index > 0,
    });
  };

  return {
    seal(data, stamps = {}) {
      const now = nowSeconds();
      const payload = { sid: stamps.sessionId ?? newSessionId(), iat: stamps.issuedAt ?? now, seen: stamps.seenAt ?? now, gen: stamps.generation ?? 0, cfm: stamps.confirmedAt ?? null, data };
      const { key, id } = keys[0]!;
      const header = Buffer.concat([Buffer.from([SESSION_FORMAT_VERSION]), id]);
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(header);
      const body = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
      return Buffer.concat([header, iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open: (value) => read(value)?.data ?? null,
    read,
  };
}

/** Compares two secrets in constant time (for equal-length digests of each). */
export function secretsEqual(a: string, b: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** A fresh session id: 128 random bits. */
function newSessionId(): string {
  return randomBytes(16).toString('base64url');
}

/** A fresh CSRF token for a session. */
export function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}
