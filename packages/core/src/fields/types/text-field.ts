import { defineFieldType } from '../define-field-type.js';
import { TEXT_FILTER } from '../field-filters.js';
import { columnValue, nullable } from './column-value.js';
import { textProblem } from '../../validation/text-problem.js';
import type { CompiledField, JsonSchema, ParsedValue } from '../../resources/compiled-types.js';
import { TEXT_FORM } from '../field-forms.js';

/** The write schema of a string field: its length rules as JSON Schema keywords. */
export function stringWriteSchema(field: CompiledField): JsonSchema {
  const { maxLength, minLength } = field.definition.options;
  return nullable('string', { ...(maxLength === undefined ? {} : { maxLength }), ...(minLength === undefined ? {} : { minLength }) });
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
