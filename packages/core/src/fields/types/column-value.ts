import type { FieldValue, JsonSchema } from '../../resources/compiled-types.js';

/** The stored column of a field, or null: how the scalar types serialize. */
export const columnValue = ({ field, row }: FieldValue): unknown => row[field.column!] ?? null;

/** A schema that also allows null (2020-12 style: `type: ['string', 'null']`). */
export function nullable(type: string, keywords: JsonSchema = {}): JsonSchema {
  return { type: [type, 'null'], ...keywords };
}
