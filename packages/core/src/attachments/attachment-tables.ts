/** The table of blobs: one row per stored file (key, filename, content type, byte size, checksum). */
export const BLOBS_TABLE = 'panel_blobs';

/** The table of attachments: which blob a record's file field holds, at which position. */
export const ATTACHMENTS_TABLE = 'panel_attachments';

/** A blob row: what the panel knows of one stored file. The bytes are in the storage service, under `key`. */
export interface BlobRecord {
  readonly id: number;
  readonly key: string;
  readonly filename: string;
  readonly content_type: string;
  readonly byte_size: number;
  /** MD5 of the bytes, base64. */
  readonly checksum: string;
  readonly created_at: Date;
}

/** A file as the API serializes it (`file` and `files` fields): `url` is the permanent standard attachment URL. */
export interface AttachedFile {
  readonly filename: string;
  readonly content_type: string;
  readonly byte_size: number;
  readonly url: string;
}
