import type { CompiledField, JsonSchema, ParsedValue } from '../resources/compiled-types.js';
import type { RecordKey } from '../resources/record-key.js';
import { parseFilterInteger } from './field-filters.js';

/**
 * The key a field's ids are of: `ownKey` for an `id` field (the resource's own key),
 * `targetKey` for an association (the target's), set when the resources are compiled.
 */
export type KeyRole = 'ownKey' | 'targetKey';

/** The key a field's ids are of, or undefined before the resources are compiled. */
export function keyOfField(field: CompiledField, role: KeyRole): RecordKey | undefined {
  return field.extra[role] as RecordKey | undefined;
}

/** The key when it is not the default integer one (whose rules stay the integer field's). */
function otherKey(field: CompiledField, role: KeyRole): RecordKey | undefined {
  const key = keyOfField(field, role);
  return key !== undefined && key.type !== 'integer' ? key : undefined;
}

/** The filter parts of an id: parsed, described and cast as the key's type (an integer by default). */
export function keyFilterParts(role: KeyRole) {
  return {
    parse: (raw: string, field: CompiledField): ParsedValue => {
      const key = otherKey(field, role);
      if (key === undefined) return parseFilterInteger(raw);
      const value = key.fromText(raw);
      return value === undefined ? { ok: false, message: `must be ${key.expected}` } : { ok: true, value };
    },
    schema: (field: CompiledField): JsonSchema => otherKey(field, role)?.schema ?? { type: 'integer' },
    cast: (field: CompiledField): string => keyOfField(field, role)?.cast ?? 'bigint',
  };
}

/** The JSON Schema of an id as the API answers it (an integer by default). */
export function keySchema(field: CompiledField, role: KeyRole): JsonSchema {
  return otherKey(field, role)?.schema ?? { type: 'integer' };
}

/** An id as the API answers it (a bigint as a string, whatever the driver returned). */
export function keyJson(field: CompiledField, role: KeyRole, value: unknown): unknown {
  const key = keyOfField(field, role);
  return key === undefined || value === null || value === undefined ? value : key.toJson(value);
}
