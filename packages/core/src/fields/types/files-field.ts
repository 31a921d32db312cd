import { defineFieldType } from '../define-field-type.js';
import { associationKey } from '../association-key.js';
import { attachedFile, attachedFilesSubquery, type SelectedBlob } from '../../attachments/attachment-select.js';
import { FILE_SCHEMA, fileJson, parsedJson } from './file-field.js';

/** Several attached files, loaded with the row, answered as an array of file objects by position (empty when none). */
export const filesField = defineFieldType({
  name: 'files',
  builder: 'field.files',
  defaultViews: ['index', 'show'],
  storage: 'none',
  writable: false,
  sortable: false,
  select: ({ eb, resource, field, rowAlias, as }) => attachedFilesSubquery(eb, resource, field, rowAlias, as),
  load: (value, { fileUrl }) => {
    const blobs = parsedJson(value);
    return Array.isArray(blobs) ? blobs.map((blob: SelectedBlob) => attachedFile(blob, fileUrl)) : [];
  },
  serialize: ({ field, row }) => {
    const files = row[associationKey(field)];
    return Array.isArray(files) ? files.map(fileJson) : [];
  },
  schema: (_field, direction) => (direction === 'read' ? { type: 'array', items: FILE_SCHEMA } : undefined),
});
