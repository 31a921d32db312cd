import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { secretKeyObject } from '@panel/core';

/** What a signed file URL carries besides its path: when it expires and the signature. */
export interface FileSignature {
  /** Expiry as whole seconds since the epoch. */
  readonly expires: number;
  /** HMAC-SHA256 over the blob key, file name and expiry, base64url. */
  readonly signature: string;
}

/** Why a signed file URL is refused, or that it holds. */
export type SignatureCheck = 'valid' | 'expired' | 'invalid';

/**
 * The key signed URLs are made with: derived from the token pepper with HKDF, so there is no
 * second secret to manage, and changing the pepper ends every signed URL with every token.
 */
export function signingKey(pepper: string): Buffer {
  return Buffer.from(hkdfSync('sha256', pepper, 'panel-api', 'signed file urls v1', 32));
}

/**
 * The key that seals a new token's secret while it waits for its one-time reveal screen (in
 * the database, `OneTimeReveals`): derived from the pepper with HKDF, like the signing key, so
 * there is no second secret to manage.
 */
export function revealKey(pepper: string): Buffer {
  return Buffer.from(hkdfSync('sha256', pepper, 'panel-api', 'token reveals v1', 32));
}

function mac(key: Buffer, blobKey: string, filename: string, expires: number): Buffer {
  return createHmac('sha256', secretKeyObject(key)).update(`${blobKey}\n${filename}\n${expires}`, 'utf8').digest();
}

/**
 * Signs a file for `ttlSeconds` from `now` (Edition B: "for token actors, file `url` values are
 * signed and expiring").
 *
 * @example
 * signFile(signingKey(pepper), 'k3y', 'cover.png', 300, new Date()); // { expires: 1795000000, signature: '…' }
 */
export function signFile(key: Buffer, blobKey: string, filename: string, ttlSeconds: number, now: Date): FileSignature {
  const expires = Math.floor(now.getTime() / 1000) + ttlSeconds;
  return { expires, signature: mac(key, blobKey, filename, expires).toString('base64url') };
}

/**
 * Checks a signed file URL's query values against the blob key and file name of its path, in
 * constant time; `expires` in canonical form only (no leading zeros); a URL whose expiry has passed is `expired` even when its signature holds.
 */
export function checkFileSignature(key: Buffer, blobKey: string, filename: string, expires: unknown, signature: unknown, now: Date): SignatureCheck {
  // Only the canonical form (no leading zeros) is accepted: one URL per signature.
  if (typeof expires !== 'string' || !/^[1-9]\d{0,11}$/.test(expires) || typeof signature !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(signature)) return 'invalid';
  const expected = mac(key, blobKey, filename, Number(expires));
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return Number(expires) * 1000 <= now.getTime() ? 'expired' : 'valid';
}

/** A path with its signature appended as the query `?expires=…&signature=…`. */
export function signedUrl(path: string, signed: FileSignature): string {
  return `${path}?expires=${signed.expires}&signature=${signed.signature}`;
}
