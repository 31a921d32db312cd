import { randomBytes } from 'node:crypto';

/** The 62 characters of a token's random parts: no separators, so a double-click selects a whole token. */
export const BASE62_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * `length` characters drawn uniformly from the base62 alphabet with the system's CSPRNG.
 * Bytes of 248 or more are dropped (rejection sampling), so no character is likelier than another.
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= 248) continue;
      out += BASE62_ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** An unsigned 32-bit number as exactly six base62 characters (62^6 > 2^32), most significant first. */
export function uint32ToBase62(value: number): string {
  let rest = value >>> 0;
  let out = '';
  for (let i = 0; i < 6; i++) {
    out = BASE62_ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}
