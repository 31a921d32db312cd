import { defineFieldType } from '../define-field-type.js';
import { associationKey } from '../association-key.js';
import { attachedFile, attachedFilesSubquery, type SelectedBlob } from '../../attachments/attachment-select.js';
import type { AttachedFile } from '../../attachments/attachment-tables.js';
import type { FieldTypeModule, JsonSchema, ParsedValue } from '../../resources/compiled-types.js';
import { FILES_FORM } from '../field-forms.js';
import { isUploadId } from '../../uploads/upload-id.js';
import { checkFileOptions } from '../../uploads/file-rules.js';

/** The most upload ids one write names for a `files` field (and the most names its `_remove` key lists). */
export const MAX_FILES_PER_WRITE = 100;

/** What one upload id in a write must look like, before it is looked up. */
const UPLOAD_ID_MESSAGE = 'must be the id of an upload (POST <mount>/uploads)';

/** The JSON Schema of one file object. */
export const FILE_SCHEMA: JsonSchema = Object.freeze({
  type: 'object',
  properties: { filename: { type: 'string' }, content_type: { type: 'string' }, byte_size: { type: 'integer' }, url: { type: 'string' } },
  required: ['filename', 'content_type', 'byte_size', 'url'],
});

/** `{ filename, content_type, byte_size, url }` of a loaded file, or null. */
function fileJson(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const { filename, content_type, byte_size, url } = value as AttachedFile;
  return { filename, content_type, byte_size, url };
}

/** A write value of a file field: one upload id (`file`), or a list of them (`files`, each added). */
function parseUploadIds(value: unknown, many: boolean): ParsedValue {
  if (!many) return isUploadId(value) ? { ok: true, value: [value] } : { ok: false, message: UPLOAD_ID_MESSAGE };
  if (!Array.isArray(value)) return { ok: false, message: 'must be a list of upload ids' };
  if (value.length > MAX_FILES_PER_WRITE) return { ok: false, message: `is too long (maximum is ${MAX_FILES_PER_WRITE} files)` };
  if (!value.every(isUploadId)) return { ok: false, message: UPLOAD_ID_MESSAGE };
  // Not de-duplicated: an id is single-use, so its second use is refused as any used id is.
  return { ok: true, value };
}

const UPLOAD_ID_SCHEMA = { type: 'string', pattern: '^up_[A-Za-z0-9_-]{43}$', description: 'The id of an upload (POST <mount>/uploads), used once.' } as const;

/**
 * The two attachment types, which differ only in how many blobs they answer: `file`, the last
 * attached blob as a file object or null; `files`, an array of file objects by position (empty
 * when none). Both are loaded with the row by one correlated subquery; `url` is the permanent
 * attachment URL. A write names uploads by id: `file` takes one (replacing the file; null
 * removes it), `files` a list (added after the others; `<name>_remove` lists the files to
 * remove by URL or filename, null removes them all). `maxBytes` and `accept` judge each upload.
 */
function attachmentType(name: 'file' | 'files'): FieldTypeModule {
  const many = name === 'files';
  return defineFieldType({
    name,
    builder: `field.${name}`,
    defaultViews: ['index', 'show', 'new', 'edit'],
    storage: 'none',
    writable: true,
    attachments: many ? 'many' : 'one',
    checkOptions: (definition) => checkFileOptions({ maxBytes: definition.options.maxBytes, accept: definition.options.accept }),
    parse: (value) => parseUploadIds(value, many),
    select: ({ eb, resource, field, rowAlias, as }) => attachedFilesSubquery(eb, resource, field, rowAlias, as),
    load: (value, { fileUrl }) => {
      // JSON text from one driver, parsed JSON from the other.
      const blobs = typeof value === 'string' ? JSON.parse(value) : value;
      if (many) return Array.isArray(blobs) ? blobs.map((blob: SelectedBlob) => attachedFile(blob, fileUrl)) : [];
      return blobs ? attachedFile(blobs as SelectedBlob, fileUrl) : null;
    },
    form: FILES_FORM,
    serialize: ({ field, row }) => {
      const value = row[associationKey(field)];
      if (many) return Array.isArray(value) ? value.map(fileJson) : [];
      return fileJson(value);
    },
    schema: (_field, direction) => {
      if (direction === 'write') return many ? { type: ['array', 'null'], items: UPLOAD_ID_SCHEMA, maxItems: MAX_FILES_PER_WRITE } : { ...UPLOAD_ID_SCHEMA, type: ['string', 'null'] };
      return many ? { type: 'array', items: FILE_SCHEMA } : { ...FILE_SCHEMA, type: ['object', 'null'] };
    },
  });
}

/** One attached file: `{ filename, content_type, byte_size, url }` or null. */
export const fileField = attachmentType('file');

/** Several attached files: an array of file objects by position. */
export const filesField = attachmentType('files');
