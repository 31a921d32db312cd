import { defineFieldType } from '../define-field-type.js';
import { TEXT_FILTER } from '../field-filters.js';
import { columnValue, nullable } from './column-value.js';
import type { CompiledField, JsonSchema, ParsedValue } from '../../resources/compiled-types.js';

/** The write schema of a string field: its length rules as JSON Schema keywords. */
export function stringWriteSchema(field: CompiledField): JsonSchema {
  const { maxLength, minLength } = field.definition.options;
  return nullable('string', { ...(maxLength === undefined ? {} : { maxLength }), ...(minLength === undefined ? {} : { minLength }) });
}

/** Parses a string write value: any string without a NUL character (PostgreSQL text cannot hold one). */
export function parseString(value: unknown): ParsedValue {
  if (typeof value !== 'string') return { ok: false, message: 'must be a string' };
  if (value.includes('\u0000')) return { ok: false, message: 'must not contain a NUL character' };
  return { ok: true, value };
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
  serialize: columnValue,
  schema: (field, direction) => (direction === 'read' ? nullable('string') : stringWriteSchema(field)),
  parse: parseString,
  isBlank: isBlankString,
  blankValue: (value) => value ?? null,
});
