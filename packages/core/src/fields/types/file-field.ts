import { defineFieldType } from '../define-field-type.js';
import { associationKey } from '../association-key.js';
import { attachedFile, attachedFilesSubquery, type SelectedBlob } from '../../attachments/attachment-select.js';
import type { AttachedFile } from '../../attachments/attachment-tables.js';
import type { JsonSchema } from '../../resources/compiled-types.js';

/** The JSON Schema of one file object. */
export const FILE_SCHEMA: JsonSchema = Object.freeze({
  type: 'object',
  properties: { filename: { type: 'string' }, content_type: { type: 'string' }, byte_size: { type: 'integer' }, url: { type: 'string' } },
  required: ['filename', 'content_type', 'byte_size', 'url'],
});

/** The blobs a file subquery selected: JSON text from one driver, parsed JSON from the other. */
export const parsedJson = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

/** `{ filename, content_type, byte_size, url }` of a loaded file, or null. */
export function fileJson(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const { filename, content_type, byte_size, url } = value as AttachedFile;
  return { filename, content_type, byte_size, url };
}

/**
 * One attached file, loaded with the row (the last attached blob), answered as `{ filename,
 * content_type, byte_size, url }` or null, where `url` is the permanent attachment URL; attached
 * through `panel.attachments`, never written through the API.
 */
export const fileField = defineFieldType({
  name: 'file',
  builder: 'field.file',
  defaultViews: ['index', 'show'],
  storage: 'none',
  writable: false,
  sortable: false,
  select: ({ eb, resource, field, rowAlias, as }) => attachedFilesSubquery(eb, resource, field, rowAlias, as),
  load: (value, { fileUrl }) => {
    const blob = parsedJson(value);
    return blob ? attachedFile(blob as SelectedBlob, fileUrl) : null;
  },
  serialize: ({ field, row }) => fileJson(row[associationKey(field)]),
  schema: (_field, direction) => (direction === 'read' ? { ...FILE_SCHEMA, type: ['object', 'null'] } : undefined),
});
