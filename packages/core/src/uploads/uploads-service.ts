// Over 250 lines: one service whose receive, batch, direct, resolve and purge paths share its private recording, pending-row select and removal of uploads with their blobs and bytes.
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import { BLOBS_TABLE } from '../attachments/attachment-tables.js';
import { deleteUnattachedBlobs } from '../attachments/unattached-blobs.js';
import { UploadRefusedError, UploadTooLargeError } from '../errors/panel-errors.js';
import { isBlobKey, newBlobKey } from '../storage/blob-key.js';
import type { DirectUploadTarget, StorageService } from '../storage/storage-service.js';
import { receiveFile } from './received-file.js';
import { markVerified, pendingOf, readBackDirectUpload, type PendingUpload } from './direct-upload-check.js';
import { sniffContentType } from './sniff-content-type.js';
import { isUploadId, newUploadId, uploadDigest } from './upload-id.js';
import type { UploadOptions } from './upload-options.js';
import { UPLOADS_TABLE } from './upload-tables.js';
import { recordStagedUploads, UploadBatch, type StagedUpload } from './upload-batch.js';
import { uploadContentType, uploadFilename } from './upload-names.js';

/** An upload as the API answers it: its id (to name in a write), the file, and until when the id works. */
export interface Upload {
  readonly id: string;
  readonly filename: string;
  readonly content_type: string;
  readonly byte_size: number;
  /** ISO 8601. */
  readonly expires_at: string;
}

/** A direct upload: the upload, and where the client sends its bytes. */
export interface DirectUploadAnswer {
  readonly upload: Upload;
  readonly direct_upload: DirectUploadTarget;
}

/** What `receive` takes: the file as a stream, who uploads it, and the most bytes it may have. */
export interface ReceiveUploadInput {
  /** Who may attach it: a stable key of the uploader (`user:7`, `token:3`). */
  readonly owner: string;
  readonly filename: string;
  /** What the client declared; the stored type is judged from the bytes (`sniffContentType`). */
  readonly contentType?: string | undefined;
  /** What a refusal of `contentType` calls it: `contentType` by default; a multipart part's reader gives `FILE_PART_CONTENT_TYPE`. */
  readonly contentTypeName?: string | undefined;
  /** The bytes, read once to their end (a multipart part); never held whole in memory. */
  readonly stream: Readable;
  /** Over this many bytes: `UploadTooLargeError` (413), and nothing is kept. See `uploadLimit`. */
  readonly maxBytes: number;
  /** The blob key; by default a new random one. Pass one only for fixed data such as seeds (as `attach` takes it): it must be unused. */
  readonly key?: string | undefined;
  /**
   * Told the bytes read so far as they arrive (a rate limit that counts them, for a body that
   * declared no length); the read waits for the promise it returns, and an error it throws or
   * rejects with stops the read: nothing is kept, and `receive` rejects with that error.
   */
  readonly onBytes?: ((byteSize: number) => Promise<void> | void) | undefined;
}

/** What `direct` takes: the file as the client describes it before sending it to the store. */
export interface DirectUploadInput {
  readonly owner: string;
  readonly filename: string;
  readonly contentType: string;
  readonly byteSize: number;
  /** MD5 of the bytes, base64 (Active Storage's and S3's `Content-MD5`). */
  readonly checksum: string;
  readonly maxBytes: number;
}

export type { PendingUpload } from './direct-upload-check.js';

/** What `PanelUploads` is built from; `createPanel` builds it. */
export interface PanelUploadsOptions {
  readonly db: Kysely<any>;
  readonly storage: StorageService;
  readonly options: UploadOptions;
  /** Deletes the bytes of purged blobs (never throws): `panel.attachments.purge`. */
  readonly purgeBytes: (keys: readonly string[]) => Promise<void>;
}

/** How many expired uploads each new upload purges, at most: the table stays small without a cron. */
const PURGE_BATCH = 20;

/**
 * Uploads: files received before the write that attaches them (`panel.uploads`), one service
 * for the API's `POST <mount>/uploads` and the panel's forms. An upload stores its bytes and
 * its blob row at once, and answers an **upload id**: 256 random bits, bound to its owner (the
 * uploader's key), single-use (an attach deletes its row, in the write's transaction) and
 * expiring (`uploads.expiresInSeconds`, one hour by default). Only the id's digest is stored.
 * A write names the id under a file field (`{ "cover": "<id>" }`); expired uploads are purged
 * with their blobs and bytes.
 *
 * @example
 * const upload = await panel.uploads.receive({ owner: 'user:7', filename: 'cover.png', contentType: 'image/png', stream, maxBytes: 10 * 1024 * 1024 });
 * await operations.update({ panel, resource: 'BlogPost', actor, uploader: 'user:7', id: 3, attributes: { cover: upload.id } });
 */
export class PanelUploads {
  readonly #db: Kysely<any>;
  readonly #storage: StorageService;
  readonly #options: UploadOptions;
  readonly #purgeBytes: (keys: readonly string[]) => Promise<void>;

  constructor(options: PanelUploadsOptions) {
    this.#db = options.db;
    this.#storage = options.storage;
    this.#options = options.options;
    this.#purgeBytes = options.purgeBytes;
  }

  /** Seconds an upload id works. */
  get expiresInSeconds(): number {
    return this.#options.expiresInSeconds;
  }

  /** Whether the storage can take direct uploads (an S3-compatible store). */
  get offersDirectUploads(): boolean {
    return typeof this.#storage.directUpload === 'function';
  }

  /**
   * Receives a file from a stream: writes it to a temporary file (counting, digesting, keeping
   * its first bytes), judges its type from its bytes, stores it, and records its blob and its
   * pending upload. Over `maxBytes` the read stops and nothing is kept (`UploadTooLargeError`).
   */
  async receive(input: ReceiveUploadInput): Promise<Upload> {
    const { key, filename, contentType, byteSize, checksum } = await this.#store(input);
    try {
      return await this.#record({ owner: input.owner, key, filename, contentType, byteSize, checksum, verified: true });
    } catch (error) {
      // No row names the stored bytes (the database went away meanwhile): no purge would ever find them.
      await this.#purgeBytes([key]).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Several uploads of `owner` in one request (a form's file parts): the batch's `receive` stores
   * each file as `receive` does, and its `record` records them all in one statement and purges
   * once, so a form costs the same statements for one file or twenty (`UploadBatch`).
   *
   * @example
   * const batch = panel.uploads.batch({ owner: 'user:7' });
   * const id = await batch.receive({ filename: 'page-1.png', contentType: 'image/png', stream, maxBytes });
   * await batch.record(); // or batch.discard() when the form failed meanwhile
   */
  batch(input: { readonly owner: string }): UploadBatch<Omit<ReceiveUploadInput, 'owner'>, Upload> {
    return new UploadBatch({
      store: (file) => this.#store(file),
      removeBytes: (keys) => this.#purgeBytes(keys),
      record: async (staged) => {
        const expiries = await recordStagedUploads(this.#db, input.owner, staged, this.#options.expiresInSeconds);
        await this.purge({ limit: PURGE_BATCH }).catch(() => undefined);
        return staged.map(({ id, filename, contentType, byteSize }) => ({ id, filename, content_type: contentType, byte_size: byteSize, expires_at: new Date(expiries.get(uploadDigest(id))!).toISOString() }));
      },
    });
  }

  /** Reads a file to a temporary file, judges its type from its bytes and stores it: what a receive does before its rows. */
  async #store(input: Omit<ReceiveUploadInput, 'owner'>): Promise<StagedUpload> {
    const filename = uploadFilename(input.filename);
    const declared = uploadContentType(input.contentType, input.contentTypeName ?? 'contentType');
    const received = await receiveFile({ stream: input.stream, maxBytes: input.maxBytes, directory: this.#options.directory, onBytes: input.onBytes });
    try {
      const contentType = await sniffContentType(received.head, declared);
      const key = input.key ?? newBlobKey();
      if (!isBlobKey(key)) throw new UploadRefusedError(`key must be 16 to 64 lower-case letters and digits, instead got ${JSON.stringify(key)}.`);
      await this.#storage.upload({ key, body: createReadStream(received.path), byteSize: received.byteSize, contentType, checksum: received.checksum });
      return { id: newUploadId(), key, filename, contentType, byteSize: received.byteSize, checksum: received.checksum };
    } finally {
      await received.discard();
    }
  }

  /**
   * A direct upload (S3-compatible storage only): records the blob as the client describes it
   * and answers a presigned `PUT` for exactly those bytes (the store refuses another length or
   * checksum). The bytes are read back once, when a write first names the upload, to judge
   * their type and check them (`resolve`).
   */
  async direct(input: DirectUploadInput): Promise<DirectUploadAnswer> {
    if (!this.#storage.directUpload) {
      throw new UploadRefusedError(`This storage (${this.#storage.name}) takes no direct uploads: send the file itself, as multipart/form-data with a part named "file".`);
    }
    const filename = uploadFilename(input.filename);
    const contentType = uploadContentType(input.contentType, 'content_type');
    const { byteSize, checksum } = input;
    if (typeof byteSize !== 'number' || !Number.isSafeInteger(byteSize) || byteSize < 0) throw new UploadRefusedError(`byte_size must be the file's size in bytes (a whole number), instead got ${JSON.stringify(byteSize)}.`);
    if (byteSize > input.maxBytes) throw new UploadTooLargeError(input.maxBytes);
    if (typeof checksum !== 'string' || !/^[A-Za-z0-9+/]{22}==$/.test(checksum)) throw new UploadRefusedError(`checksum must be the MD5 of the file, base64 (24 characters), instead got ${JSON.stringify(checksum)}.`);
    const key = newBlobKey();
    const upload = await this.#record({ owner: input.owner, key, filename, contentType, byteSize, checksum, verified: false });
    const target = this.#storage.directUpload({ key, contentType, checksum, byteSize, expiresInSeconds: this.#options.expiresInSeconds });
    return { upload, direct_upload: target };
  }

  /**
   * The pending upload of an id, if it is live and `owner`'s (for a form that keeps a file
   * chosen before a 422: it shows the file's name again); undefined otherwise, whichever the
   * reason.
   */
  async describe(input: { readonly owner: string; readonly id: string }): Promise<Upload | undefined> {
    return (await this.describeAll({ owner: input.owner, ids: [input.id] })).get(input.id);
  }

  /** `describe` for several ids in one statement (a form that keeps several files): the live pending uploads of `owner` among `ids`, by id. */
  async describeAll(input: { readonly owner: string; readonly ids: readonly string[] }): Promise<Map<string, Upload>> {
    const byDigest = new Map(input.ids.filter(isUploadId).map((id) => [uploadDigest(id), id]));
    const found = new Map<string, Upload>();
    if (byDigest.size === 0) return found;
    for (const row of await this.#pending(this.#db, [...byDigest.keys()], input.owner).execute()) {
      const id = byDigest.get(row.digest)!;
      found.set(id, { id, filename: row.filename, content_type: row.content_type, byte_size: Number(row.byte_size), expires_at: new Date(row.expires_at).toISOString() });
    }
    return found;
  }

  /**
   * The live uploads of `owner` among `ids`, by id (one statement); an id missing from the
   * answer is unknown, expired, used, or another owner's, alike. A direct upload named for the
   * first time is read back from the store once: missing bytes, or bytes that are not what was
   * declared, leave it out; its type is then judged from its bytes, and the uploads read back
   * are marked verified together (one statement more, whatever their number).
   */
  async resolve(input: { readonly owner: string; readonly ids: readonly string[] }): Promise<Map<string, PendingUpload>> {
    const byDigest = new Map(input.ids.filter(isUploadId).map((id) => [uploadDigest(id), id]));
    const found = new Map<string, PendingUpload>();
    if (byDigest.size === 0) return found;
    const rows = await this.#pending(this.#db, [...byDigest.keys()], input.owner).execute();
    const readBack: PendingUpload[] = [];
    for (const row of rows) {
      const pending = row.verified ? pendingOf(row) : await readBackDirectUpload(this.#storage, row);
      if (!pending) continue;
      if (!row.verified) readBack.push(pending);
      found.set(byDigest.get(row.digest)!, pending);
    }
    // The direct uploads read back for the first time, marked verified together (one statement, whatever their number).
    await markVerified(this.#db, readBack);
    return found;
  }

  /**
   * Purges expired uploads (at most `limit`, default all): their rows, their blobs unless
   * attached meanwhile, then their bytes once the rows are gone. Returns how many uploads it
   * removed. Each new upload purges a few on its own, so that no cron is needed.
   */
  async purge(options: { readonly limit?: number } = {}): Promise<number> {
    const limit = options.limit ?? 2 ** 31 - 1;
    return this.#remove((trx) =>
      trx
        .deleteFrom(UPLOADS_TABLE)
        .where('digest', 'in', (qb: Kysely<any>) => qb.selectFrom(UPLOADS_TABLE).select('digest').where('expires_at', '<=', sql<Date>`now()`).orderBy('expires_at').limit(limit).forUpdate().skipLocked())
        .returning('blob_id')
        .execute(),
    );
  }

  /**
   * Removes `owner`'s pending uploads among `ids` now, as their expiry would (rows, blobs unless
   * attached, then bytes): the files of a form whose write was refused, so that it keeps nothing.
   * An unknown, used or another owner's id is left alone. Returns how many uploads it removed.
   */
  async discard(input: { readonly owner: string; readonly ids: readonly string[] }): Promise<number> {
    const digests = input.ids.filter(isUploadId).map(uploadDigest);
    if (digests.length === 0) return 0;
    return this.#remove((trx) => trx.deleteFrom(UPLOADS_TABLE).where('digest', 'in', digests).where('owner', '=', input.owner).returning('blob_id').execute());
  }

  /** Deletes the upload rows `rows` deletes, their blobs unless attached, in one transaction; then their bytes. */
  async #remove(rows: (trx: Kysely<any>) => Promise<{ blob_id: unknown }[]>): Promise<number> {
    const { removed, keys } = await this.#db.transaction().execute(async (trx) => {
      const deleted = await rows(trx);
      if (deleted.length === 0) return { removed: 0, keys: [] as string[] };
      return { removed: deleted.length, keys: await deleteUnattachedBlobs(trx, deleted.map((row) => row.blob_id)) };
    });
    await this.#purgeBytes(keys);
    return removed;
  }

  /** Records a blob and its pending upload in one statement, then purges a few expired uploads. */
  async #record(input: { owner: string; key: string; filename: string; contentType: string; byteSize: number; checksum: string; verified: boolean }): Promise<Upload> {
    const { owner, key, filename, contentType, byteSize, checksum, verified } = input;
    const id = newUploadId();
    const { rows } = await sql<{ expires_at: Date | string }>`with blob as (
        insert into ${sql.table(BLOBS_TABLE)} (key, filename, content_type, byte_size, checksum) values (${key}, ${filename}, ${contentType}, ${byteSize}, ${checksum}) returning id)
      insert into ${sql.table(UPLOADS_TABLE)} (digest, blob_id, owner, expires_at, verified)
      select ${uploadDigest(id)}, blob.id, ${owner}, now() + make_interval(secs => ${this.#options.expiresInSeconds}), ${verified} from blob
      returning expires_at`.execute(this.#db);
    await this.purge({ limit: PURGE_BATCH }).catch(() => undefined);
    return { id, filename, content_type: contentType, byte_size: byteSize, expires_at: new Date(rows[0]!.expires_at).toISOString() };
  }

  /** The live pending uploads of `owner` among `digests`, with their blobs. */
  #pending(db: Kysely<any>, digests: readonly string[], owner: string) {
    return db
      .selectFrom(`${UPLOADS_TABLE} as u`)
      .innerJoin(`${BLOBS_TABLE} as b`, 'b.id', 'u.blob_id')
      .select(['u.digest', 'u.blob_id', 'u.verified', 'u.expires_at', 'b.key', 'b.filename', 'b.content_type', 'b.byte_size', 'b.checksum'])
      .where('u.digest', 'in', digests)
      .where('u.owner', '=', owner)
      .where('u.expires_at', '>', sql<Date>`now()`);
  }
}
