import type { Readable } from 'node:stream';

/** What a storage service is given to store: the bytes and what the blob row says of them. */
export interface UploadInput {
  /** The blob key, the object's name in the store (see `isBlobKey`). */
  readonly key: string;
  readonly body: Uint8Array;
  readonly contentType: string;
  /** The MD5 digest of `body`, base64 (`blobChecksum`); the store refuses bytes that do not match it. */
  readonly checksum: string;
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
}
