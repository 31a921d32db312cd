import { createCipheriv, createDecipheriv, createHmac, randomFillSync } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The longest sealed value accepted: a 64-character blob key sealed, with room to spare. */
const MAX_SEALED_LENGTH = 256;

/** Sealing keys by signing key: the mount keeps one signing key per pepper, so this is derived once, not per file URL. */
const sealingKeys = new WeakMap<Buffer, Buffer>();

/** The AES-256-GCM key that seals blob keys, derived from the signing key (one secret to manage: the pepper). */
function sealingKey(signingKey: Buffer): Buffer {
  let key = sealingKeys.get(signingKey);
  if (key === undefined) {
    key = createHmac('sha256', signingKey).update('panel-api sealed blob keys v1').digest();
    sealingKeys.set(signingKey, key);
  }
  return key;
}

/**
 * Random nonces, drawn from the CSPRNG 256 at a time: a page of an index signs a URL per file,
 * and one `randomBytes(12)` call cost more than the rest of a seal but the cipher. Each nonce is
 * handed out once (the offset only moves forward; the pool is refilled when spent), and it is
 * copied by the cipher and into the sealed value before the pool can be refilled.
 */
const nonces = Buffer.alloc(IV_BYTES * 256);
let nextNonce = nonces.length;

function freshNonce(): Buffer {
  if (nextNonce === nonces.length) {
    randomFillSync(nonces);
    nextNonce = 0;
  }
  const nonce = nonces.subarray(nextNonce, nextNonce + IV_BYTES);
  nextNonce += IV_BYTES;
  return nonce;
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
  const iv = freshNonce();
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
