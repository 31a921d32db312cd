import { createHash } from 'node:crypto';

/**
 * The checksum a blob row keeps of its bytes: MD5, base64, as Active Storage keeps it and as
 * S3 checks it in `Content-MD5`. It guards against corruption in transit, not against forgery.
 */
export function blobChecksum(bytes: Uint8Array): string {
  return createHash('md5').update(bytes).digest('base64');
}
