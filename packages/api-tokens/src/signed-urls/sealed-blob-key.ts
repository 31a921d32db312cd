import { createCipheriv, createDecipheriv, createHmac, createSecretKey, type KeyObject } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The longest sealed value accepted: a 64-character blob key sealed, with room to spare. */
const MAX_SEALED_LENGTH = 256;

/** What seals blob keys under one signing key: the cipher's key, the nonces' key, and the seals made. */
interface Sealer {
  /** Made `KeyObject`s once (core's `secretKeyObject` says why). */
  readonly cipherKey: KeyObject;
  readonly nonceKey: KeyObject;
  /** Blob key → its sealed form, oldest first (at most `MAX_KEPT_SEALS`; a dropped one is sealed again, to the same value). */
  readonly seals: Map<string, string>;
}

/** How many seals a signing key keeps (a sealed value is about 120 characters: some 2 MB at most). */
const MAX_KEPT_SEALS = 8_192;

/** By signing key: the mount keeps one signing key per pepper, so the keys are derived once, not per file URL. */
const sealers = new WeakMap<Buffer, Sealer>();

/** The keys that seal blob keys, derived from the signing key (one secret to manage: the pepper). */
function sealerOf(signingKey: Buffer): Sealer {
  let sealer = sealers.get(signingKey);
  if (sealer === undefined) {
    sealer = {
      cipherKey: createSecretKey(createHmac('sha256', signingKey).update('panel-api sealed blob keys v1').digest()),
      nonceKey: createSecretKey(createHmac('sha256', signingKey).update('panel-api sealed blob key nonces v1').digest()),
      seals: new Map(),
    };
    sealers.set(signingKey, sealer);
  }
  return sealer;
}

/**
 * A blob key sealed for a signed file URL's path (AES-256-GCM, base64url): the signed URL then
 * says nothing of the key, which is what opens the file's permanent URL, so the signature's
 * expiry means something.
 *
 * The seal is deterministic: its nonce is an HMAC of the blob key under a key of its own (a
 * synthetic nonce, as SIV modes make theirs), so a file's signed URL keeps the same path from
 * one answer to the next and in every process that shares the pepper, and only its query
 * (`?expires=…&signature=…`) changes. An answer's ETag leaves that query out, so a record with
 * a file keeps its ETag until the record changes. Two different blob keys get the same nonce
 * with probability 2^-96; the same blob key always gets the same sealed value, which tells
 * nothing but that it is the same file. Seals are kept (bounded), so a page that lists the
 * same files again seals nothing.
 *
 * @example
 * sealBlobKey(signingKey(pepper), 'k3y…'); // 'q5a…' (the same for the same key and pepper)
 */
export function sealBlobKey(signingKey: Buffer, blobKey: string): string {
  const sealer = sealerOf(signingKey);
  const kept = sealer.seals.get(blobKey);
  if (kept !== undefined) return kept;
  const iv = createHmac('sha256', sealer.nonceKey).update(blobKey, 'utf8').digest().subarray(0, IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealer.cipherKey, iv);
  const sealed = Buffer.concat([iv, cipher.update(blobKey, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64url');
  sealer.seals.set(blobKey, sealed);
  if (sealer.seals.size > MAX_KEPT_SEALS) sealer.seals.delete(sealer.seals.keys().next().value!);
  return sealed;
}

/** The blob key a sealed value holds, or undefined when it was not sealed with this key (or was altered). */
export function openBlobKey(signingKey: Buffer, sealed: string): string | undefined {
  if (sealed.length > MAX_SEALED_LENGTH || !/^[A-Za-z0-9_-]+$/.test(sealed)) return undefined;
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealerOf(signingKey).cipherKey, bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
