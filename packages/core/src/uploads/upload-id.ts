import { createHash, randomBytes } from 'node:crypto';

/** Upload ids: `up_` and 43 base64url characters (256 random bits). */
const UPLOAD_ID = /^up_[A-Za-z0-9_-]{43}$/;

/**
 * A new upload id: 256 bits from the system's cryptographic random source. It is a bearer
 * capability (whoever holds it may attach the upload, if they are its owner), stored only as
 * its digest, so the table never holds a usable id.
 */
export function newUploadId(): string {
  return `up_${randomBytes(32).toString('base64url')}`;
}

/** Whether a value has the form of an upload id (then its digest is looked up; else it names nothing). */
export function isUploadId(value: unknown): value is string {
  return typeof value === 'string' && UPLOAD_ID.test(value);
}

/** The digest an upload id is stored and looked up under: SHA-256, hex. */
export function uploadDigest(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}
