/** The table of pending uploads: a blob received (or promised, for a direct upload) and not yet attached. */
export const UPLOADS_TABLE = 'panel_uploads';

/** A pending upload's row: whose it is, until when, and its blob. The upload id itself is never stored, only its digest. */
export interface UploadRow {
  /** SHA-256 of the upload id, hex. */
  readonly digest: string;
  readonly blob_id: number;
  /** Who may attach it (the uploader's key, such as `user:7` or `token:3`). */
  readonly owner: string;
  readonly expires_at: Date;
  /** Whether the blob's bytes were checked (received by the app, or a direct upload read back once). */
  readonly verified: boolean;
  readonly created_at: Date;
}
