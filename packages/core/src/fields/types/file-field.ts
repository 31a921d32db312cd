import { defineFieldType } from '../define-field-type.js';
import { associationKey } from '../association-key.js';
import { attachedFile, attachedFilesSubquery, type SelectedBlob } from '../../attachments/attachment-select.js';
import type { AttachedFile } from '../../attachments/attachment-tables.js';
import type { FieldTypeModule, JsonSchema } from '../../resources/compiled-types.js';
import { FILES_FORM } from '../field-forms.js';

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

/**
 * The two attachment types, which differ only in how many blobs they answer: `file`, the last
 * attached blob as a file object or null; `files`, an array of file objects by position (empty
 * when none). Both are loaded with the row by one correlated subquery, attached through
 * `panel.attachments`, never written through the API; `url` is the permanent attachment URL.
 */
function attachmentType(name: 'file' | 'files'): FieldTypeModule {
  const many = name === 'files';
  return defineFieldType({
    name,
    builder: `field.${name}`,
    defaultViews: ['index', 'show'],
    storage: 'none',
    attachments: many ? 'many' : 'one',
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
      if (direction === 'write') return undefined;
      return many ? { type: 'array', items: FILE_SCHEMA } : { ...FILE_SCHEMA, type: ['object', 'null'] };
    },
  });
}

/** One attached file: `{ filename, content_type, byte_size, url }` or null. */
export const fileField = attachmentType('file');

/** Several attached files: an array of file objects by position. */
export const filesField = attachmentType('files');
