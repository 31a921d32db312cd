import { defineFieldType } from '../define-field-type.js';
import { TEXT_FILTER } from '../field-filters.js';
import { columnValue, nullable } from './column-value.js';
import { textProblem } from '../../validation/text-problem.js';
import type { CompiledField, JsonSchema, ParsedValue } from '../../resources/compiled-types.js';
import { TEXT_FORM } from '../field-forms.js';

/**
 * A string field's write schema: `maxLength`/`minLength` when set, and its `format` as
 * `pattern` when JSON Schema can say it (see `formatKeywords`).
 */
export function stringWriteSchema(field: CompiledField): JsonSchema {
  const { maxLength, minLength, format } = field.definition.options;
  return nullable('string', { ...(maxLength === undefined ? {} : { maxLength }), ...(minLength === undefined ? {} : { minLength }), ...formatKeywords(format) });
}

/** Flags that change nothing about what `RegExp.test` matches as the server runs it (it drops `g`; `d` only records indices). */
const NEUTRAL_FLAGS = new Set(['g', 'd']);

/**
 * A `format` rule as JSON Schema states it: `pattern` is an ECMA-262 regular expression matched
 * without flags and unanchored, as the server's `RegExp.test` matches a format without flags;
 * a format whose flags change what matches (`i`, `m`, `s`, `u`, `v`, `y`) has no flagless
 * equivalent, so it is described instead of given a wrong pattern.
 */
function formatKeywords(format: RegExp | undefined): JsonSchema {
  if (format === undefined) return {};
  if ([...format.flags].every((flag) => NEUTRAL_FLAGS.has(flag))) return { pattern: format.source };
  return { description: `Must match the regular expression /${format.source}/${format.flags.replace(/[gd]/g, '')} (checked by the server).` };
}

/** Parses a string write value: any string PostgreSQL text can hold (`textProblem`: no NUL character, no lone surrogate). */
export function parseString(value: unknown): ParsedValue {
  if (typeof value !== 'string') return { ok: false, message: 'must be a string' };
  const problem = textProblem(value);
  return problem === undefined ? { ok: true, value } : { ok: false, message: problem };
}

/** Whether a string write value is blank: null, or only white space. */
export const isBlankString = (value: unknown): boolean => value === null || value === undefined || (typeof value === 'string' && value.trim() === '');

/** A string column. A blank write on a field that is not required keeps the string as sent. */
export const textField = defineFieldType({
  name: 'text',
  builder: 'field.text',
  sortable: true,
  filter: TEXT_FILTER,
  searchable: true,
  form: TEXT_FORM,
  serialize: columnValue,
  schema: (field, direction) => (direction === 'read' ? nullable('string') : stringWriteSchema(field)),
  parse: parseString,
  isBlank: isBlankString,
  blankValue: (value) => value ?? null,
});
