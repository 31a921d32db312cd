import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The longest sealed value accepted: a 64-character blob key sealed, with room to spare. */
const MAX_SEALED_LENGTH = 256;

/** The AES-256-GCM key that seals blob keys, derived from the signing key (one secret to manage: the pepper). */
function sealingKey(signingKey: Buffer): Buffer {
  return createHmac('sha256', signingKey).update('panel-api sealed blob keys v1').digest();
}

/**
 * A blob key sealed for a signed file URL's path (AES-256-GCM, a fresh nonce each time,
 * base64url): the signed URL then says nothing of the key, which is what opens the file's
 * permanent URL, so the signature's expiry means something.
 *
 * @example
 * sealBlobKey(signingKey(pepper), 'k3y…'); // 'q5a…' (different every call)
 */
export function sealBlobKey(signingKey: Buffer, blobKey: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(signingKey), iv);
  const sealed = Buffer.concat([cipher.update(blobKey, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
}

/** The blob key a sealed value holds, or undefined when it was not sealed with this key (or was altered). */
export function openBlobKey(signingKey: Buffer, sealed: string): string | undefined {
  if (sealed.length > MAX_SEALED_LENGTH || !/^[A-Za-z0-9_-]+$/.test(sealed)) return undefined;
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(signingKey), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
