import type { CompiledField, JsonSchema, ParsedValue } from '../../resources/compiled-types.js';
import { defineFieldType } from '../define-field-type.js';
import { orderedFilter } from '../field-filters.js';
import { BIGINT_FORM } from '../field-forms.js';
import { nullable } from './column-value.js';

const DIGITS = /^(?:0|-?[1-9]\d{0,18})$/;
const MIN = -(2n ** 63n);
const MAX = 2n ** 63n - 1n;
const EXPECTED = `must be a whole number from ${MIN} to ${MAX}, written as a string of digits`;

/** The JSON Schema of a bigint value: a string of digits (`format: int64`), at most 20 characters. */
const BIGINT_SCHEMA: JsonSchema = Object.freeze({ type: 'string', format: 'int64', pattern: '^(0|-?[1-9][0-9]{0,18})$', maxLength: 20 });

/** The canonical digits of a bigint value from a string of digits or a safe integer, or undefined. */
function digitsOf(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : undefined;
  if (typeof value !== 'string' || !DIGITS.test(value)) return undefined;
  const big = BigInt(value);
  return big >= MIN && big <= MAX && value !== '-0' ? value : undefined;
}

/** A value within the field's own `min` and `max`, compared exactly (as bigints). */
function inRange(digits: string, field: CompiledField): ParsedValue {
  const { min, max } = field.definition.options;
  if (min !== undefined && BigInt(digits) < BigInt(Math.ceil(min))) return { ok: false, message: `must be greater than or equal to ${min}` };
  if (max !== undefined && BigInt(digits) > BigInt(Math.floor(max))) return { ok: false, message: `must be less than or equal to ${max}` };
  return { ok: true, value: digits };
}

/**
 * A `bigint` (`int8`) column (`field.bigint`) whose values may pass 2^53, as order numbers and
 * snowflake ids do: answered as a JSON string of its exact digits (`format: int64`), written as
 * such a string or as a safe integer, filtered and sorted as a bigint. A JSON number cannot hold
 * every bigint (the digits past 2^53 are rounded away), so the type never answers one.
 */
export const bigintField = defineFieldType({
  name: 'bigint',
  builder: 'field.bigint',
  sortable: true,
  filter: orderedFilter({
    parse: (raw) => {
      const digits = digitsOf(raw);
      return digits === undefined ? { ok: false, message: EXPECTED } : { ok: true, value: digits };
    },
    schema: () => BIGINT_SCHEMA,
    cast: () => 'bigint',
  }),
  form: BIGINT_FORM,
  serialize: ({ field, row }) => {
    const value = row[field.column!];
    return value === null || value === undefined ? null : String(value);
  },
  schema: () => nullable('string', { format: 'int64', pattern: BIGINT_SCHEMA.pattern, maxLength: 20 }),
  parse: (value, field) => {
    const digits = digitsOf(value);
    return digits === undefined ? { ok: false, message: EXPECTED } : inRange(digits, field);
  },
});
