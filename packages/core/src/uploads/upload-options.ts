import { PanelConfigError } from '../errors/panel-errors.js';

/** How long an upload id works unless `uploads.expiresInSeconds` says otherwise: one hour. */
export const DEFAULT_UPLOAD_EXPIRY_SECONDS = 3600;

/** The largest file a file field takes unless its `maxBytes` says otherwise: 10 MiB. */
export const DEFAULT_MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** The `uploads` option of `createPanel`, as an app writes it. */
export interface UploadOptionsInput {
  /** Seconds an upload id works before it must be attached; default 3600. Expired uploads are purged. */
  expiresInSeconds?: number;
  /** Where uploads received through the app are written while they arrive; default the system's temporary folder. */
  directory?: string;
}

/** The `uploads` option, validated. */
export interface UploadOptions {
  readonly expiresInSeconds: number;
  readonly directory: string | undefined;
}

/** Validates the `uploads` option once, at startup. */
export function normalizeUploadOptions(input: UploadOptionsInput | undefined): UploadOptions {
  const { expiresInSeconds = DEFAULT_UPLOAD_EXPIRY_SECONDS, directory } = input ?? {};
  if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > 7 * 24 * 3600) {
    throw new PanelConfigError(`createPanel: uploads.expiresInSeconds must be a whole number of seconds from 1 to 604800 (seven days), instead got ${JSON.stringify(expiresInSeconds)}. Fix: leave it out for ${DEFAULT_UPLOAD_EXPIRY_SECONDS}.`);
  }
  if (directory !== undefined && (typeof directory !== 'string' || directory === '')) {
    throw new PanelConfigError(`createPanel: uploads.directory must be the path of a folder, instead got ${JSON.stringify(directory)}. Fix: leave it out for the system's temporary folder.`);
  }
  return Object.freeze({ expiresInSeconds, directory });
}
