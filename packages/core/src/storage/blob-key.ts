import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Keys are lower-case letters and digits: safe as a file name, an S3 object name and a URL segment. */
export const BLOB_KEY_PATTERN = /^[a-z0-9]{16,64}$/;

/** The length of the keys `newBlobKey` makes (Active Storage's): 28 base-36 characters, about 144 bits. */
export const BLOB_KEY_LENGTH = 28;

/**
 * A new random blob key. The key is the secret part of a file's permanent URL, so it comes
 * from the system's cryptographic random source and is long enough never to be guessed.
 */
export function newBlobKey(): string {
  // 36 * 7 = 252 of 256 byte values map evenly onto the alphabet; the rest are drawn again.
  let key = '';
  while (key.length < BLOB_KEY_LENGTH) {
    for (const byte of randomBytes(BLOB_KEY_LENGTH)) {
      if (byte < 252 && key.length < BLOB_KEY_LENGTH) key += ALPHABET[byte % 36];
    }
  }
  return key;
}

/** Whether a string can be a blob key (16 to 64 lower-case letters and digits). */
export function isBlobKey(value: unknown): value is string {
  return typeof value === 'string' && BLOB_KEY_PATTERN.test(value);
}
