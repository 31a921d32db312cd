import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { PanelConfigError } from '../errors/panel-errors.js';

/** What the panel keeps in its session cookie. */
export type SessionData = Record<string, unknown>;

/** Seals session data into a cookie value and opens it again. */
export interface SessionCodec {
  /** The cookie value for `data`: encrypted and authenticated (AES-256-GCM). */
  seal(data: SessionData): string;
  /** The data of a cookie value, or null when it is missing, altered or sealed with another secret. */
  open(value: string | undefined): SessionData | null;
}

/** The shortest session secret accepted. */
export const MIN_SECRET_LENGTH = 32;

/**
 * The session cookie codec: AES-256-GCM with a key derived from the secret, so a client can
 * neither read nor alter its session. Changing the secret signs everybody out.
 */
export function createSessionCodec(secret: string): SessionCodec {
  if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) {
    throw new PanelConfigError(`Panel config: sessionSecret must be a string of at least ${MIN_SECRET_LENGTH} characters. Fix: generate one with \`node -e "console.log(require('crypto').randomBytes(32).toString('hex'))"\` and keep it in your environment.`);
  }
  const key = createHash('sha256').update(secret).digest();
  return {
    seal(data) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(data), 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(value) {
      if (typeof value !== 'string' || value.length < 40 || value.length > 8192) return null;
      try {
        const raw = Buffer.from(value, 'base64url');
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        const json = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
        const data: unknown = JSON.parse(json);
        return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as SessionData) : null;
      } catch {
        return null;
      }
    },
  };
}

/** Compares two secrets in constant time (for equal-length digests of each). */
export function secretsEqual(a: string, b: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** A fresh CSRF token for a session. */
export function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}
