import type { CompiledField } from '../resources/compiled-types.js';
import { isPanelError } from '../errors/panel-errors.js';
import { acceptsType, essence, formatBytes } from './accepted-type.js';
import { DEFAULT_MAX_UPLOAD_BYTES } from './upload-options.js';

/** The one message of an upload id that is unknown, expired, used already, or another uploader's: they are never told apart. */
export const INVALID_UPLOAD_MESSAGE = 'is not a valid upload (unknown, expired or already used)';

/** The largest file a file field takes: its `maxBytes`, else 10 MiB. */
export function fieldMaxBytes(field: CompiledField): number {
  return (field.definition.options.maxBytes as number | undefined) ?? DEFAULT_MAX_UPLOAD_BYTES;
}

/** The media types a file field takes (`accept`), or undefined for any. */
export function fieldAccept(field: CompiledField): readonly string[] | undefined {
  return field.definition.options.accept as readonly string[] | undefined;
}

/**
 * The largest upload any of `fields` takes: what an upload endpoint reads at most for a
 * credential that may write these file fields (over it: 413). Zero when there are none.
 */
export function uploadLimit(fields: readonly CompiledField[]): number {
  return fields.reduce((most, field) => (field.kind.attachments ? Math.max(most, fieldMaxBytes(field)) : most), 0);
}

/** What a file field says of one upload: the message that refuses it (too large, a type not accepted), or undefined. */
export function fileProblem(field: CompiledField, file: { readonly byteSize: number; readonly contentType: string }): string | undefined {
  if (file.byteSize > fieldMaxBytes(field)) return tooLargeMessage(field);
  const accept = fieldAccept(field);
  if (accept && !acceptsType(accept, file.contentType)) return `has a type that is not accepted (${accept.map(essence).join(', ')})`;
  return undefined;
}

/** The message of a file over a file field's `maxBytes`: `is too large (maximum is 2 MiB)`. */
function tooLargeMessage(field: CompiledField): string {
  return `is too large (maximum is ${formatBytes(fieldMaxBytes(field))})`;
}

/**
 * What a file field says of a file that `panel.uploads.receive` refused as it read it (a form
 * that streams each chosen file under its field's `maxBytes`): over `maxBytes`, the field's own
 * `is too large (maximum is 2 MiB)`, as a write naming a larger upload gets; a filename or type
 * the upload cannot take (`UploadRefusedError`), `could not be taken: <why>`. Undefined for any
 * other error (the storage, the database, a malformed body), which is no problem of the file.
 */
export function receivedFileProblem(field: CompiledField, error: unknown): string | undefined {
  if (isPanelError(error, 'PANEL_ERR_UPLOAD_TOO_LARGE')) return tooLargeMessage(field);
  if (isPanelError(error, 'PANEL_ERR_UPLOAD_REFUSED')) return `could not be taken: ${error.message.replace(/\.$/, '')}`;
  return undefined;
}

/** A file field's options, checked at boot: the message naming the fix, or undefined. */
export function checkFileOptions(options: { readonly maxBytes?: unknown; readonly accept?: unknown }): string | undefined {
  const { maxBytes, accept } = options;
  if (maxBytes !== undefined && (typeof maxBytes !== 'number' || !Number.isSafeInteger(maxBytes) || maxBytes < 1)) {
    return `maxBytes must be a positive whole number of bytes, instead got ${JSON.stringify(maxBytes)}. Fix: maxBytes: 5 * 1024 * 1024 for 5 MiB, or leave it out for 10 MiB.`;
  }
  if (accept !== undefined && (!Array.isArray(accept) || accept.length === 0 || accept.some((type) => typeof type !== 'string' || !/^[a-z0-9!#$&^_.+-]+\/([a-z0-9!#$&^_.+-]+|\*)$/i.test(type)))) {
    return `accept must be a non-empty list of media types such as ['image/png', 'image/*'], instead got ${JSON.stringify(accept)}.`;
  }
  return undefined;
}

/** A file control's hint on the panel's forms: the field's size and type limits (`maxBytes`, `accept`). */
export function fileControlHint(field: CompiledField): string {
  const accept = fieldAccept(field);
  return `Up to ${formatBytes(fieldMaxBytes(field))}${accept ? `: ${accept.join(', ')}` : ''}.`;
}
