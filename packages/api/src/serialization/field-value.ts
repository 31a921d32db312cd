import { associationKey, type AttachedFile, type CompiledField, type RecordRow, type View } from '@panel/core';

/** A field bound to one record on one view: what `serializeFieldValue` receives. */
export interface FieldValue {
  readonly field: CompiledField;
  readonly row: RecordRow;
  readonly view: View;
}

function isoDate(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return value;
}

function isoDateTime(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** `{ filename, content_type, byte_size, url }` of a file the records layer loaded, or null. */
function fileJson(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const { filename, content_type, byte_size, url } = value as AttachedFile;
  return { filename, content_type, byte_size, url };
}

/**
 * The JSON value of a field, per the spec's serialization table: raw values for the scalar
 * types (dates `YYYY-MM-DD`, datetimes ISO 8601 in UTC), `{ id, label }` for `belongs_to`,
 * `{ count }` for `has_many`, `{ id }` or null for `has_one`, `{ filename, content_type,
 * byte_size, url }` or null for `file` and an array of those (by position) for `files`, where
 * `url` is the permanent standard attachment URL (Edition A: neither signed nor expiring).
 */
export function fieldJson({ field, row }: FieldValue): unknown {
  switch (field.type) {
    case 'date':
      return isoDate(row[field.column!] ?? null);
    case 'datetime':
      return isoDateTime(row[field.column!]);
    case 'belongs_to': {
      const id = row[field.column!];
      return id === null || id === undefined ? null : { id, label: row[associationKey(field)] ?? null };
    }
    case 'has_many':
      return { count: Number(row[associationKey(field)] ?? 0) };
    case 'has_one': {
      const id = row[associationKey(field)];
      return id === null || id === undefined ? null : { id };
    }
    case 'file':
      return fileJson(row[associationKey(field)]);
    case 'files': {
      const files = row[associationKey(field)];
      return Array.isArray(files) ? files.map(fileJson) : [];
    }
    default:
      return row[field.column!] ?? null;
  }
}
