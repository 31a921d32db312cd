import type { JsonSchema, ParsedValue } from '../../resources/compiled-types.js';
import type { FieldTypeDefinition } from '../define-field-type.js';
import { columnValue } from './column-value.js';
import { textProblem } from '../../validation/text-problem.js';
import { JSON_OBJECT_FORM } from '../field-forms.js';

/** The largest JSON object a field takes, in bytes of its JSON text, unless it says otherwise (`maxBytes`). */
export const DEFAULT_MAX_JSON_BYTES = 16_384;

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether a value holds, at any depth, a key `__proto__` or a key `constructor` whose object
 * has a key `prototype`: what the API's JSON parser refuses as prototype poisoning (400). A form
 * reads its text with plain `JSON.parse`, which keeps such keys, so the type refuses them too
 * and a value written on the screens can always be written back through the API.
 */
function hasPoisonedKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasPoisonedKey);
  if (!isPlainObject(value)) return false;
  if (Object.hasOwn(value, '__proto__')) return true;
  const constructorKey = Object.hasOwn(value, 'constructor') ? value.constructor : undefined;
  if (isPlainObject(constructorKey) && Object.hasOwn(constructorKey, 'prototype')) return true;
  return Object.values(value).some(hasPoisonedKey);
}

/**
 * What `key_value` and `json` share: a JSON object in a `jsonb` column, answered as the
 * object; a write must be an object no larger than `maxBytes` (default 16 KiB) of JSON text;
 * never sorted. `checkValues` adds a type's own rule on the object's values.
 */
export function jsonObjectType(input: { name: string; builder: string; values: JsonSchema; checkValues?: (object: Record<string, unknown>) => string | undefined }): FieldTypeDefinition {
  const { name, builder, values, checkValues } = input;
  return {
    name,
    builder,
    form: JSON_OBJECT_FORM,
    serialize: columnValue,
    schema: () => ({ type: ['object', 'null'], additionalProperties: values }),
    parse: (value, field): ParsedValue => {
      if (!isPlainObject(value)) return { ok: false, message: 'must be an object' };
      if (hasPoisonedKey(value)) return { ok: false, message: 'must not have a key named __proto__ or constructor.prototype' };
      const problem = checkValues?.(value);
      if (problem !== undefined) return { ok: false, message: problem };
      const maxBytes = (field.definition.options.maxBytes as number | undefined) ?? DEFAULT_MAX_JSON_BYTES;
      const text = JSON.stringify(value);
      if (Buffer.byteLength(text) > maxBytes) return { ok: false, message: `is too large (maximum is ${maxBytes} bytes)` };
      // jsonb cannot hold U+0000 (in a key or a value).
      const unstorable = textProblem(value);
      if (unstorable !== undefined) return { ok: false, message: unstorable };
      // The JSON text, not the object: both drivers then send it as one jsonb parameter.
      return { ok: true, value: text };
    },
  };
}
