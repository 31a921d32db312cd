// Over 250 lines: attaching from code, detaching, and applying a write's file changes share the private removal of attachments and their blobs, which keeps rows and bytes in step.
import type { Kysely, Transaction } from 'kysely';
import type { CompiledResource } from '../resources/compiled-resource.js';
import type { StorageService } from '../storage/storage-service.js';
import { blobChecksum } from '../storage/blob-checksum.js';
import { isBlobKey, newBlobKey } from '../storage/blob-key.js';
import { PanelConfigError, RecordInvalidError, RecordNotFoundError } from '../errors/panel-errors.js';
import { sentRemoveName, type FileChange } from '../uploads/file-changes.js';
import { INVALID_UPLOAD_MESSAGE } from '../uploads/file-rules.js';
import { takeUploads } from '../uploads/take-uploads.js';
import { uploadDigest } from '../uploads/upload-id.js';
import { ATTACHMENTS_TABLE, BLOBS_TABLE, type AttachedFile, type BlobRecord } from './attachment-tables.js';
import { deleteUnattachedBlobs } from './unattached-blobs.js';
import { ATTACHMENTS_SEGMENT, attachmentUrl } from './attachment-url.js';
import { checkedContentType, sanitizeFilename } from './sanitize-filename.js';
import { isFileField } from './attachment-select.js';
import { retryAfterStalePlan } from '../database/stale-plan.js';
import type { RecordId } from '../resources/record-key.js';

/** What `attach` takes: the record's field, and the file. */
export interface AttachInput {
  /** The resource name, such as `BlogPost`. */
  readonly resource: string;
  readonly id: number;
  /** A `file` or `files` field of the resource. */
  readonly field: string;
  /** The file's name, as the URL and `Content-Disposition` give it (made safe by `sanitizeFilename`). */
  readonly filename: string;
  /** Its media type; default `application/octet-stream`. */
  readonly contentType?: string;
  /** The bytes; a string is stored as UTF-8. */
  readonly bytes: Uint8Array | string;
  /**
   * The blob key; by default a new random one. Pass one only for fixed data such as seeds:
   * it must be 16 to 64 lower-case letters and digits and not in use.
   */
  readonly key?: string;
}

/** Names one field of one record: what `detach` takes. */
export interface FieldOfRecord {
  readonly resource: string;
  readonly id: number;
  readonly field: string;
}

/** Told when the bytes of a removed blob could not be deleted from storage (after its rows were). */
export type PurgeErrorHandler = (failure: { key: string; error: unknown }) => void;

/** What `PanelAttachments` is built from; `createPanel` builds it. */
export interface PanelAttachmentsOptions {
  readonly db: Kysely<any>;
  readonly resources: ReadonlyMap<string, CompiledResource>;
  readonly storage: StorageService;
  /** The panel's root path; URLs are `<rootPath>/attachments/<key>/<filename>`. */
  readonly rootPath: string;
  /** Default: a process warning with code `PANEL_WARN_PURGE_FAILED`. */
  readonly onPurgeError?: PurgeErrorHandler;
}

const warnPurgeFailed: PurgeErrorHandler = ({ key, error }) =>
  process.emitWarning(`Panel could not delete the stored bytes of blob "${key}": ${(error as Error)?.message ?? String(error)}`, { code: 'PANEL_WARN_PURGE_FAILED' });

/**
 * Files attached to records (Active Storage's attach / purge), as `panel.attachments`.
 * Bytes go to the storage service, rows to the blobs and attachments tables. Bytes are stored
 * before the rows are written and deleted only after the rows' removal has committed, so a
 * row never names bytes that are gone.
 *
 * @example
 * await panel.attachments.attach({ resource: 'BlogPost', id: 1, field: 'cover', filename: 'cover.png', contentType: 'image/png', bytes });
 */
export class PanelAttachments {
  /** Where the bytes live. */
  readonly storage: StorageService;
  readonly #db: Kysely<any>;
  readonly #resources: ReadonlyMap<string, CompiledResource>;
  readonly #rootPath: string;
  readonly #onPurgeError: PurgeErrorHandler;

  constructor(options: PanelAttachmentsOptions) {
    this.storage = options.storage;
    this.#db = options.db;
    this.#resources = options.resources;
    this.#rootPath = options.rootPath;
    this.#onPurgeError = options.onPurgeError ?? warnPurgeFailed;
  }

  /** The standard attachment URL of a blob (a path; see `attachmentUrl`). */
  url(blob: { readonly key: string; readonly filename: string }): string {
    return attachmentUrl(this.#rootPath, blob);
  }

  /**
   * Stores the bytes and attaches them to a record's field: for a `file` field the new file
   * replaces the one attached (whose bytes are purged after the commit); for a `files` field
   * it is appended. Returns the file as the API shows it.
   */
  async attach(input: AttachInput): Promise<AttachedFile> {
    const { resource, keeps } = this.#fileField(input);
    const id = recordId(input.id, resource);
    const filename = sanitizeFilename(input.filename);
    const contentType = checkedContentType(input.contentType);
    const bytes = typeof input.bytes === 'string' ? new TextEncoder().encode(input.bytes) : input.bytes;
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`attach: bytes must be a Uint8Array (a Buffer) or a string, instead got ${typeof input.bytes}.`);
    const key = input.key ?? newBlobKey();
    if (!isBlobKey(key)) throw new TypeError(`attach: key must be 16 to 64 lower-case letters and digits, instead got ${JSON.stringify(key)}.`);
    if (input.key !== undefined && (await this.blob(key))) throw new TypeError(`attach: the key "${key}" is in use by another blob. Fix: leave key out for a new random one.`);
    const checksum = blobChecksum(bytes);

    await this.storage.upload({ key, body: bytes, contentType, checksum });
    let replaced: string[];
    try {
      // A plan refused in the transaction (a migration meanwhile) rolled it back: attached once more.
      replaced = await retryAfterStalePlan(() => this.#db.transaction().execute(async (trx) => {
        // Locks the record, so that concurrent attaches to one record take positions in turn.
        const row = await trx.selectFrom(resource.table).select(resource.primaryKey).where(resource.primaryKey, '=', id).forUpdate().executeTakeFirst();
        if (!row) throw new RecordNotFoundError(resource.name, id);
        const removed = keeps === 'one' ? await this.#detach(trx, resource.name, id, input.field) : [];
        const { position } = keeps === 'one'
          ? { position: 0 }
          : await trx
              .selectFrom(ATTACHMENTS_TABLE)
              .select((eb) => eb.fn.coalesce(eb(eb.fn.max('position'), '+', 1), eb.lit(0)).as('position'))
              .where('record_type', '=', resource.name)
              .where('record_id', '=', id)
              .where('name', '=', input.field)
              .executeTakeFirstOrThrow();
        const blob = await trx
          .insertInto(BLOBS_TABLE)
          .values({ key, filename, content_type: contentType, byte_size: bytes.byteLength, checksum })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.insertInto(ATTACHMENTS_TABLE).values({ record_type: resource.name, record_id: id, name: input.field, blob_id: blob.id, position: Number(position) }).execute();
        return removed;
      }));
    } catch (error) {
      await this.storage.delete(key).catch(() => undefined);
      throw error;
    }
    await this.purge(replaced);
    return { filename, content_type: contentType, byte_size: bytes.byteLength, url: this.url({ key, filename }) };
  }

  /** Removes every file of a record's field and purges their bytes after the commit; returns how many were removed. */
  async detach(input: FieldOfRecord): Promise<number> {
    const { resource } = this.#fileField(input);
    const id = recordId(input.id, resource);
    const keys = await retryAfterStalePlan(() => this.#db.transaction().execute((trx) => this.#detach(trx, resource.name, id, input.field)));
    await this.purge(keys);
    return keys.length;
  }

  /** The blob row with that key, or undefined. */
  async blob(key: string): Promise<BlobRecord | undefined> {
    if (!isBlobKey(key)) return undefined;
    const row = await this.#db.selectFrom(BLOBS_TABLE).selectAll().where('key', '=', key).executeTakeFirst();
    return row ? ({ ...row, id: Number(row.id), byte_size: Number(row.byte_size) } as BlobRecord) : undefined;
  }

  /**
   * Inside a transaction that deletes a record: removes the record's attachments and their
   * blob rows, and returns the blob keys whose bytes to purge once the transaction has
   * committed (`purge`). The records layer calls it from `destroy`.
   */
  detachRecord(trx: Transaction<any>, resource: CompiledResource, id: RecordId): Promise<string[]> {
    return this.#detach(trx, resource.name, id, undefined);
  }

  /**
   * `detachRecord` for several records at once, in two statements whatever their number (a
   * batch's deletes): their attachments, then the blob rows no other attachment names; the
   * keys whose bytes to purge after the commit.
   */
  async detachRecords(trx: Kysely<any>, resource: CompiledResource, ids: readonly unknown[]): Promise<string[]> {
    const removed = await trx.deleteFrom(ATTACHMENTS_TABLE).where('record_type', '=', resource.name).where('record_id', 'in', ids).returning('blob_id').execute();
    if (removed.length === 0) return [];
    return deleteUnattachedBlobs(trx, removed.map((r) => r.blob_id));
  }

  /**
   * Inside a write's transaction, once the record's row is written (and so locked): applies what
   * the write does to its file fields. Removes the files named (`all`, or by URL or filename:
   * a name that matches no attached file refuses the write), then takes the uploads named
   * (single-use: an upload another write took meanwhile, or that expired, refuses the write with
   * the one message of an unusable upload) and attaches them: on a `file` field in place of the
   * file, on a `files` field after the others. Returns the keys of the blobs removed, whose
   * bytes to `purge` once the transaction has committed.
   */
  async applyChanges(trx: Transaction<any>, input: { readonly resource: CompiledResource; readonly id: RecordId; readonly owner: string | undefined; readonly changes: readonly FileChange[] }): Promise<string[]> {
    const { resource, id, owner, changes } = input;
    const purge: string[] = [];
    for (const { field, attach, remove } of changes) {
      if (remove === 'all') purge.push(...(await this.#detach(trx, resource.name, id, field.name)));
      else if (remove.length > 0) purge.push(...(await this.#detachNamed(trx, resource.name, id, field.name, remove)));
      if (attach.length === 0) continue;
      const digests = attach.map(uploadDigest);
      const taken = owner === undefined ? new Map<string, number>() : await takeUploads(trx, owner, digests);
      if (taken.size !== digests.length) throw new RecordInvalidError({ [field.name]: [INVALID_UPLOAD_MESSAGE] });
      const { position } = await trx
        .selectFrom(ATTACHMENTS_TABLE)
        .select((eb) => eb.fn.coalesce(eb(eb.fn.max('position'), '+', 1), eb.lit(0)).as('position'))
        .where('record_type', '=', resource.name)
        .where('record_id', '=', id)
        .where('name', '=', field.name)
        .executeTakeFirstOrThrow();
      await trx
        .insertInto(ATTACHMENTS_TABLE)
        .values(digests.map((digest, i) => ({ record_type: resource.name, record_id: id, name: field.name, blob_id: taken.get(digest)!, position: Number(position) + i })))
        .execute();
    }
    return purge;
  }

  /**
   * Deletes the bytes of removed blobs from storage. Call it only after the transaction that
   * removed their rows has committed. It never throws: a failure goes to `onPurgeError`,
   * since the rows are gone already and the bytes are merely left over.
   */
  async purge(keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      try {
        await this.storage.delete(key);
      } catch (error) {
        this.#onPurgeError({ key, error });
      }
    }
  }

  async #detach(trx: Transaction<any>, recordType: string, id: RecordId, name: string | undefined): Promise<string[]> {
    const removed = await trx
      .deleteFrom(ATTACHMENTS_TABLE)
      .where('record_type', '=', recordType)
      .where('record_id', '=', id)
      .$if(name !== undefined, (query) => query.where('name', '=', name!))
      .returning('blob_id')
      .execute();
    if (removed.length === 0) return [];
    return deleteUnattachedBlobs(trx, removed.map((r) => r.blob_id));
  }

  /** Removes the files of a field named by URL (its key) or filename; a name that matches none refuses the write. */
  async #detachNamed(trx: Transaction<any>, recordType: string, id: RecordId, name: string, names: readonly string[]): Promise<string[]> {
    const keys = names.map(keyInUrl).filter((key): key is string => key !== undefined);
    const removed = await trx
      .deleteFrom(`${ATTACHMENTS_TABLE} as a`)
      .using(`${BLOBS_TABLE} as b`)
      .whereRef('a.blob_id', '=', 'b.id')
      .where('a.record_type', '=', recordType)
      .where('a.record_id', '=', id)
      .where('a.name', '=', name)
      .where((eb) => eb.or([eb('b.filename', 'in', names), ...(keys.length > 0 ? [eb('b.key', 'in', keys)] : [])]))
      .returning(['a.blob_id', 'b.filename', 'b.key'])
      .execute();
    // Named as the client sent them: a name the API turned into a stored one (a signed URL's key) is never echoed as that.
    const missing = names.flatMap((named, i) => (removed.some((row) => row.filename === named || row.key === keyInUrl(named)) ? [] : [sentRemoveName(names, i)]));
    if (missing.length > 0) throw new RecordInvalidError({ [name]: [`has no attached file named ${missing.map((m) => JSON.stringify(m)).join(', ')}`] });
    return deleteUnattachedBlobs(trx, removed.map((r) => r.blob_id));
  }

  #fileField(input: { resource: string; field: string }): { resource: CompiledResource; keeps: 'one' | 'many' } {
    const resource = this.#resources.get(input?.resource);
    if (!resource) {
      throw new PanelConfigError(`No resource named "${input?.resource}". Known resources: ${[...this.#resources.keys()].join(', ') || 'none'}.`);
    }
    const field = resource.fieldsByName.get(input.field);
    if (!field?.kind.attachments) {
      const fileFields = resource.fields.filter(isFileField).map((f) => f.name);
      throw new PanelConfigError(
        `Resource ${resource.name} has no file field named "${input.field}". Its file fields: ${fileFields.join(', ') || 'none'}. Fix: declare field.file('${input.field}') or field.files('${input.field}').`,
      );
    }
    return { resource, keeps: field.kind.attachments };
  }
}

/** The blob key of an attachment URL (`…/attachments/<key>/<filename>`, with or without a query), or undefined. */
function keyInUrl(name: string): string | undefined {
  const segments = name.split('?')[0]!.split('/');
  const key = segments.length >= 3 && segments[segments.length - 3] === ATTACHMENTS_SEGMENT ? segments[segments.length - 2] : undefined;
  return isBlobKey(key) ? key : undefined;
}

function recordId(id: unknown, resource: CompiledResource): RecordId {
  const key = resource.key.fromJson(id);
  if (key === undefined) throw new TypeError(`id must be a record id of ${resource.name} (${resource.key.expected}), instead got ${JSON.stringify(id)}.`);
  return key;
}
