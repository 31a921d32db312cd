import { sql, type Kysely } from 'kysely';
import { BLOBS_TABLE } from '../attachments/attachment-tables.js';
import { uploadDigest } from './upload-id.js';
import { UPLOADS_TABLE } from './upload-tables.js';

/** A file of a batch whose bytes are stored and whose blob and pending upload are not recorded yet. */
export interface StagedUpload {
  readonly id: string;
  readonly key: string;
  readonly filename: string;
  readonly contentType: string;
  readonly byteSize: number;
  readonly checksum: string;
}

/** What an `UploadBatch` is built from: how a file is stored, how the staged files are recorded, and how stored bytes are removed. */
export interface UploadBatchRun<File, Recorded> {
  readonly store: (file: File) => Promise<StagedUpload>;
  readonly record: (staged: readonly StagedUpload[]) => Promise<Recorded[]>;
  readonly removeBytes: (keys: readonly string[]) => Promise<void>;
}

/**
 * Several uploads of one request (a form's file parts), recorded together: `receive` stores
 * each file's bytes as its part arrives and answers its upload id; `record` then records every
 * blob and pending upload in one statement (and purges expired uploads once), so that a form
 * costs the same statements for one file or twenty. Until `record`, an id names nothing;
 * `discard` removes the bytes of the files not recorded (a form that failed meanwhile).
 */
export class UploadBatch<File, Recorded> {
  readonly #run: UploadBatchRun<File, Recorded>;
  #staged: StagedUpload[] = [];
  #recorded = false;

  constructor(run: UploadBatchRun<File, Recorded>) {
    this.#run = run;
  }

  /** Stores one file's bytes (as `PanelUploads.receive` does, nothing recorded yet) and answers its upload id. */
  async receive(file: File): Promise<string> {
    if (this.#recorded) throw new Error('This upload batch is recorded already: start another one (panel.uploads.batch).');
    const staged = await this.#run.store(file);
    this.#staged.push(staged);
    return staged.id;
  }

  /** Records every file received, in one statement; their ids then name live pending uploads. */
  async record(): Promise<Recorded[]> {
    if (this.#recorded) throw new Error('This upload batch is recorded already.');
    const recorded = this.#staged.length === 0 ? [] : await this.#run.record(this.#staged);
    this.#recorded = true;
    return recorded;
  }

  /** Removes the bytes of the files received and not recorded; never throws (an orphan blob's bytes are only space). */
  async discard(): Promise<void> {
    if (this.#recorded) return;
    const keys = this.#staged.map((staged) => staged.key);
    this.#staged = [];
    if (keys.length > 0) await this.#run.removeBytes(keys).catch(() => undefined);
  }
}

/**
 * Records staged files' blobs and pending uploads (owned by `owner`, verified) in one
 * statement, whatever their number: the files as arrays unnested, the blobs inserted, and each
 * pending upload joined to its blob by key. Answers each file's expiry by upload digest.
 */
export async function recordStagedUploads(db: Kysely<any>, owner: string, staged: readonly StagedUpload[], expiresInSeconds: number): Promise<Map<string, Date | string>> {
  const column = <T>(pick: (file: StagedUpload) => T) => staged.map(pick);
  const { rows } = await sql<{ digest: string; expires_at: Date | string }>`with file as (
      select * from unnest(cast(${column((f) => f.key)} as text[]), cast(${column((f) => f.filename)} as text[]), cast(${column((f) => f.contentType)} as text[]),
        cast(${column((f) => f.byteSize)} as bigint[]), cast(${column((f) => f.checksum)} as text[]), cast(${column((f) => uploadDigest(f.id))} as text[]))
        as f (key, filename, content_type, byte_size, checksum, digest)),
    blob as (
      insert into ${sql.table(BLOBS_TABLE)} (key, filename, content_type, byte_size, checksum) select key, filename, content_type, byte_size, checksum from file returning id, key)
    insert into ${sql.table(UPLOADS_TABLE)} (digest, blob_id, owner, expires_at, verified)
    select file.digest, blob.id, ${owner}, now() + make_interval(secs => ${expiresInSeconds}), true from file join blob on blob.key = file.key
    returning digest, expires_at`.execute(db);
  return new Map(rows.map((row) => [row.digest, row.expires_at]));
}
