import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import { BLOBS_TABLE } from '../attachments/attachment-tables.js';
import { FileNotFoundError } from '../errors/panel-errors.js';
import type { StorageService } from '../storage/storage-service.js';
import { SNIFF_BYTES, sniffContentType } from './sniff-content-type.js';
import { UPLOADS_TABLE } from './upload-tables.js';

/** A pending upload, once its id was found live and owned (see `resolve`): its blob, as its bytes say it is. */
export interface PendingUpload {
  readonly digest: string;
  readonly blobId: number;
  readonly filename: string;
  readonly contentType: string;
  readonly byteSize: number;
}

/** A pending upload's row with its blob, as `#pending` selects it. */
export interface PendingRow {
  readonly digest: string;
  readonly blob_id: number | string;
  readonly verified: boolean;
  readonly expires_at: Date | string;
  readonly key: string;
  readonly filename: string;
  readonly content_type: string;
  readonly byte_size: number | string;
  readonly checksum: string;
}

export function pendingOf(row: PendingRow): PendingUpload {
  return { digest: row.digest, blobId: Number(row.blob_id), filename: row.filename, contentType: row.content_type, byteSize: Number(row.byte_size) };
}


/**
 * Reads a direct upload's bytes back once: they must all be there, with the declared size and
 * checksum (a store that ignores the presigned headers is caught here); the type is judged from
 * them. Answers the upload with that type, or undefined when the bytes are missing or other than
 * declared. It sends no statement: `markVerified` records every upload read back, at once.
 */
export async function readBackDirectUpload(storage: StorageService, row: PendingRow): Promise<PendingUpload | undefined> {
  let stream: Readable;
  try {
    stream = await storage.download(row.key);
  } catch (error) {
    if (error instanceof FileNotFoundError || (error as { code?: unknown })?.code === 'PANEL_ERR_FILE_NOT_FOUND') return undefined;
    throw error;
  }
  const md5 = createHash('md5');
  const head: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    if (size < SNIFF_BYTES) head.push(bytes.subarray(0, SNIFF_BYTES - size));
    size += bytes.length;
    md5.update(bytes);
  }
  if (size !== Number(row.byte_size) || md5.digest('base64') !== row.checksum) return undefined;
  const contentType = await sniffContentType(Buffer.concat(head), row.content_type);
  return pendingOf({ ...row, content_type: contentType });
}

/** Marks direct uploads read back as verified, each blob with the type its bytes say, in one statement whatever their number. */
export async function markVerified(db: Kysely<any>, uploads: readonly PendingUpload[]): Promise<void> {
  if (uploads.length === 0) return;
  await sql`with blob as (update ${sql.table(BLOBS_TABLE)} as b set content_type = v.content_type
      from unnest(cast(${uploads.map((upload) => upload.blobId)} as bigint[]), cast(${uploads.map((upload) => upload.contentType)} as text[])) as v (id, content_type) where b.id = v.id)
    update ${sql.table(UPLOADS_TABLE)} set verified = true where digest = any(cast(${uploads.map((upload) => upload.digest)} as text[]))`.execute(db);
}
