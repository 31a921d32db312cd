import { isErrorCode, type ErrorCode } from './error-codes.js';

/**
 * The errors of Panel core. Each has a stable `code` (every package's codes are in one
 * registry, `ERROR_CODES`); code that handles them checks the code
 * (`isPanelError(error, 'PANEL_ERR_NOT_AUTHORIZED')`), which still works when an app ends up
 * with two copies of the package.
 */
export type PanelErrorCode =
  | 'PANEL_ERR_CONFIG'
  | 'PANEL_ERR_RECORD_NOT_FOUND'
  | 'PANEL_ERR_RECORD_INVALID'
  | 'PANEL_ERR_NOT_AUTHORIZED'
  | 'PANEL_ERR_FILE_NOT_FOUND'
  | 'PANEL_ERR_STORAGE'
  | 'PANEL_ERR_DATABASE_UNAVAILABLE'
  | 'PANEL_ERR_PGLITE_FOLDER_IN_USE'
  | 'PANEL_ERR_UPLOAD_TOO_LARGE'
  | 'PANEL_ERR_UPLOAD_REFUSED'
  | 'PANEL_ERR_BATCH_REFUSED';

/** Field name (or `base`) → messages, the shape of the spec's validation error. */
export type ErrorMessages = Record<string, string[]>;

/**
 * The base of every Panel error, core's and the API's: one class, a stable `code` each (the
 * API's errors pass their own code type).
 */
export class PanelError<Code extends ErrorCode = PanelErrorCode> extends Error {
  readonly code: Code;
  constructor(code: Code, message: string) {
    super(message);
    this.code = code;
    this.name = new.target.name;
  }
}

/** A configuration mistake found at startup; the message names the option and the fix. */
export class PanelConfigError extends PanelError {
  constructor(message: string) {
    super('PANEL_ERR_CONFIG', message);
  }
}

/** No record with that id is visible (missing, or outside the policy scope). */
export class RecordNotFoundError extends PanelError {
  constructor(resourceName: string, id: unknown) {
    super('PANEL_ERR_RECORD_NOT_FOUND', `Couldn't find ${resourceName} with id=${String(id)}`);
  }
}

/** A write was refused: per-field messages, with `base` for messages about the whole record. */
export class RecordInvalidError extends PanelError {
  readonly errors: ErrorMessages;
  constructor(errors: ErrorMessages) {
    super('PANEL_ERR_RECORD_INVALID', `Validation failed: ${Object.entries(errors).map(([k, v]) => `${k} ${v.join(', ')}`).join('; ')}`);
    this.errors = errors;
  }
}

/** A policy method returned false (`Panel::NotAuthorizedError`). */
export class NotAuthorizedError extends PanelError {
  readonly action: string;
  constructor(action: string, resourceName: string) {
    super('PANEL_ERR_NOT_AUTHORIZED', `You are not authorized to ${action} this ${resourceName}.`);
    this.action = action;
  }
}

/** A storage service holds no bytes under that blob key. */
export class FileNotFoundError extends PanelError {
  readonly key: string;
  constructor(key: string) {
    super('PANEL_ERR_FILE_NOT_FOUND', `No file is stored under the key "${key}".`);
    this.key = key;
  }
}

/**
 * A storage service failed: the bytes did not match their checksum, or the object store refused a
 * request. `reason` is `unavailable` when the store could not be reached, did not answer within
 * its timeout, or answered with a server error (5xx): the request may work later (the API
 * answers 503 with `Retry-After`); without it, the failure is not one a retry fixes (a 500).
 */
export class StorageError extends PanelError {
  readonly reason: 'unavailable' | undefined;
  constructor(message: string, options?: { cause?: unknown; reason?: 'unavailable' }) {
    super('PANEL_ERR_STORAGE', message);
    this.reason = options?.reason;
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/** An upload is larger than the largest file it could be attached as (the API answers 413). */
export class UploadTooLargeError extends PanelError {
  /** The most bytes the upload could have had. */
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super('PANEL_ERR_UPLOAD_TOO_LARGE', `The file is larger than the ${maxBytes} bytes an upload may have.`);
    this.maxBytes = maxBytes;
  }
}

/** An upload that cannot be taken as sent: a missing or unsafe filename, a bad size or checksum, a direct upload the storage cannot offer (the API answers 400 with the message). */
export class UploadRefusedError extends PanelError {
  constructor(message: string) {
    super('PANEL_ERR_UPLOAD_REFUSED', message);
  }
}

/** A batch that cannot run as sent: too many operations, an id named twice, a malformed operation (the API answers 400 with the message). */
export class BatchRefusedError extends PanelError {
  constructor(message: string) {
    super('PANEL_ERR_BATCH_REFUSED', message);
  }
}

/**
 * Why the database could not answer: `connection` (refused, reset, lost, shutting down, not
 * accepting connections), `timeout` (connecting, waiting for a pooled connection, a statement
 * cancelled by `statement_timeout`, no answer within the query timeout), `capacity` (too many
 * connections), `closed` (the database was closed by the app), `configuration` (the server
 * refused the connection's settings: no such database, authentication failed; a fix of the
 * settings, not time, usually ends it, and the API logs it as an error), `conflict` (a
 * deadlock or a serialization failure, 40P01 or 40001: PostgreSQL rolled the transaction back).
 */
export type DatabaseUnavailableReason = 'connection' | 'timeout' | 'capacity' | 'closed' | 'configuration' | 'conflict';

/**
 * The database cannot answer now; the same request may work once it is back. The API answers
 * 503 `{ "error": "Service Unavailable" }` with `Retry-After`. `cause` is the driver's error
 * (its PostgreSQL `code`, such as `57P01`, when it has one).
 */
export class DatabaseUnavailableError extends PanelError {
  readonly reason: DatabaseUnavailableReason;
  constructor(reason: DatabaseUnavailableReason, message: string, options?: { cause?: unknown }) {
    super('PANEL_ERR_DATABASE_UNAVAILABLE', message);
    this.reason = reason;
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/**
 * A PGlite data folder is held by another running process (PGlite is one process at a time: two
 * on one folder corrupt it). Thrown by `openDatabase({ dataDir })` before PGlite starts; the
 * message is one line naming the folder, the holding pid and the fix.
 */
export class PgliteFolderInUseError extends PanelError {
  /** The folder, as the message names it (relative to the working directory when inside it). */
  readonly folder: string;
  /** The pid of the holding process, or undefined when its lock file names none. */
  readonly pid: number | undefined;
  constructor(folder: string, pid: number | undefined) {
    super(
      'PANEL_ERR_PGLITE_FOLDER_IN_USE',
      `The PGlite folder ${folder} is in use by ${pid === undefined ? 'another process' : `process ${pid}`} (a running server?): PGlite is one process at a time. Fix: stop that process, or point this one at PostgreSQL with --database-url / DATABASE_URL.`,
    );
    this.folder = folder;
    this.pid = pid;
  }
}

/**
 * Whether a value is an error of any Panel package (its `code` is in `ERROR_CODES`: core's,
 * the API's, the token service's), optionally with a given code.
 */
export function isPanelError(error: unknown, code?: ErrorCode): error is PanelError<ErrorCode> {
  if (typeof error !== 'object' || error === null) return false;
  const actual = (error as { code?: unknown }).code;
  return isErrorCode(actual) && (code === undefined || actual === code);
}
