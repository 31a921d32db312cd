import type { JsonSchema, ParsedValue } from '../../resources/compiled-types.js';
import type { FieldTypeDefinition } from '../define-field-type.js';
import { columnValue } from './column-value.js';
import { textProblem } from '../../validation/text-problem.js';
import { JSON_OBJECT_FORM } from '../field-forms.js';

/** The largest JSON object a field takes, in bytes of its JSON text, unless it says otherwise (`maxBytes`). */
export const DEFAULT_MAX_JSON_BYTES = 16_384;

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

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
