import { createHmac, timingSafeEqual } from 'node:crypto';
import { secretKeyObject } from '@panel/core';
import { randomBase62, uint32ToBase62 } from './base62.js';
import { crc32 } from './crc32.js';

/** What every Panel API token starts with, so that secret scanners can find a leaked one. */
export const TOKEN_PREFIX = 'pat';

/** Characters of the token's public id: the lookup key, stored in clear. */
export const PUBLIC_ID_LENGTH = 16;

/** Characters of the secret part: 43 base62 characters carry 256 bits. */
export const SECRET_LENGTH = 43;

const TOKEN_PATTERN = new RegExp(`^${TOKEN_PREFIX}_([0-9A-Za-z]{${PUBLIC_ID_LENGTH}})_([0-9A-Za-z]{${SECRET_LENGTH}})_([0-9A-Za-z]{6})$`);

/** A freshly minted token: the whole secret (shown once) and its public id. */
export interface MintedToken {
  readonly secret: string;
  readonly publicId: string;
}

function checksum(body: string): string {
  return uint32ToBase62(crc32(body));
}

/**
 * Mints a token: `pat_<public id>_<256 random bits>_<CRC-32>`. The public id finds the row;
 * the random part is the secret; the checksum lets a scanner (or the server, before any query)
 * tell a real token from a typo.
 *
 * @example
 * mintToken().secret; // 'pat_3kT9…_Qm7x…_0b1ZcD'
 */
export function mintToken(): MintedToken {
  const publicId = randomBase62(PUBLIC_ID_LENGTH);
  const body = `${TOKEN_PREFIX}_${publicId}_${randomBase62(SECRET_LENGTH)}`;
  return { secret: `${body}_${checksum(body)}`, publicId };
}

/**
 * The public id of a well-formed token whose checksum holds; undefined for anything else, so a
 * malformed or mistyped token is refused without a database query.
 */
export function parseToken(secret: string): string | undefined {
  const match = TOKEN_PATTERN.exec(secret);
  if (!match) return undefined;
  const body = secret.slice(0, secret.length - 7);
  return checksum(body) === match[3] ? match[1] : undefined;
}

/** The stored form of a token: HMAC-SHA256 keyed with the pepper, as 64 hex characters. */
export function tokenDigest(secret: string, pepper: string): string {
  return createHmac('sha256', secretKeyObject(pepper)).update(secret, 'utf8').digest('hex');
}

/** Compares two hex digests in constant time (same length by construction). */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
