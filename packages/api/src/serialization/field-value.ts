import type { FieldValue } from '@panel/core';

export type { FieldValue } from '@panel/core';

/**
 * The JSON value of a field, as its type module serializes it (the spec's serialization
 * table: raw values for the scalar types, dates `YYYY-MM-DD`, datetimes ISO 8601 in UTC,
 * `{ id, label }` for `belongs_to`, `{ count }` for `has_many`, `{ id }` or null for
 * `has_one`, file objects whose `url` is the permanent standard attachment URL).
 */
export function fieldJson(value: FieldValue): unknown {
  return value.field.kind.serialize(value);
}
