import type { Readable } from 'node:stream';

/** What a storage service is given to store: the bytes and what the blob row says of them. */
export interface UploadInput {
  /** The blob key, the object's name in the store (see `isBlobKey`). */
  readonly key: string;
  /**
   * The bytes: in memory, or a stream read once to its end (an upload received from a client,
   * never held whole in memory); a stream needs `byteSize`.
   */
  readonly body: Uint8Array | Readable;
  /** How many bytes `body` holds; required for a stream (an object store wants `Content-Length` before the bytes). */
  readonly byteSize?: number;
  readonly contentType: string;
  /** The MD5 digest of `body`, base64 (`blobChecksum`); the store refuses bytes that do not match it. */
  readonly checksum: string;
}

/** What a direct upload's URL is presigned for: the bytes a client will send, as the blob row declares them. */
export interface DirectUploadInput {
  readonly key: string;
  readonly contentType: string;
  /** MD5 of the bytes, base64: the store refuses other bytes. */
  readonly checksum: string;
  /** The exact length: the store refuses a body of another length. */
  readonly byteSize: number;
  /** Seconds the URL works. */
  readonly expiresInSeconds: number;
}

/** Where and how a client sends a direct upload's bytes: a `PUT` to `url` with exactly these `headers`. */
export interface DirectUploadTarget {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Where attachment bytes live (Active Storage's `Service`). Blob rows in the database name
 * the bytes by key; a service stores, streams and deletes them. Every implementation passes
 * one contract suite (`packages/core/test/storage/storage-contract.ts`).
 *
 * @example
 * const panel = await createPanel({ database, storage: diskStorage({ root: './storage' }) });
 */
export interface StorageService {
  /** A short name for messages and diagnostics (`disk`, `s3`). */
  readonly name: string;
  /** Stores the bytes under `key`, replacing any; a `StorageError` when they do not match `checksum`. */
  upload(input: UploadInput): Promise<void>;
  /** The bytes under `key` as a stream; a `FileNotFoundError` when there are none. */
  download(key: string): Promise<Readable>;
  /** Deletes the bytes under `key`; deleting a key that holds nothing is not an error. */
  delete(key: string): Promise<void>;
  /** Whether bytes are stored under `key`. */
  exists(key: string): Promise<boolean>;
  /**
   * A presigned `PUT` that lets a client send the bytes to the store itself, without passing
   * through the app (Active Storage's direct uploads). Only services that can offer it have it
   * (S3-compatible stores); the disk service has none.
   */
  directUpload?(input: DirectUploadInput): DirectUploadTarget;
}
