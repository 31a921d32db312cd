import type { FieldDefinition } from '../field-types.js';
import { choiceFilter } from '../field-filters.js';
import { defineFieldType } from '../define-field-type.js';
import { columnValue } from './column-value.js';
import type { CompiledField, ParsedValue } from '../../resources/compiled-types.js';
import { SELECT_FORM } from '../field-forms.js';

/** One choice of a `select` field: a value, or a value with the label a form shows. */
export type SelectOption = string | { readonly value: string; readonly label: string };

/** The stored values of a select's options, in order. */
export function selectValues(options: unknown): string[] {
  return Array.isArray(options) ? options.map((option: SelectOption) => (typeof option === 'string' ? option : option?.value)) : [];
}

const valuesOf = (field: CompiledField): readonly string[] => field.extra.values as readonly string[];

function checkOptions(definition: FieldDefinition): string | undefined {
  const { options } = definition.options;
  const fix = `Fix: field.select('${definition.name}', { options: ['draft', 'active'] }) or options: [{ value: 'draft', label: 'Draft' }].`;
  if (!Array.isArray(options) || options.length === 0) return `a select needs a non-empty options array. ${fix}`;
  const ok = options.every((o: unknown) => typeof o === 'string' || (typeof o === 'object' && o !== null && typeof (o as { value?: unknown }).value === 'string' && typeof (o as { label?: unknown }).label === 'string'));
  if (!ok) return `each option is a string or { value, label } with two strings. ${fix}`;
  const values = selectValues(options);
  if (new Set(values).size !== values.length) return `an option value is listed twice. ${fix}`;
  return undefined;
}

/** Parses one of the options (a write value or a filter value). */
function parseChoice(value: unknown, field: CompiledField): ParsedValue {
  if (typeof value !== 'string') return { ok: false, message: 'must be a string' };
  return valuesOf(field).includes(value) ? { ok: true, value } : { ok: false, message: 'is not included in the list' };
}

/**
 * A value from a fixed list (`options`: strings or `{ value, label }`), stored as text and
 * answered as the value; a write outside the options is "is not included in the list".
 */
export const selectField = defineFieldType({
  name: 'select',
  builder: 'field.select',
  sortable: true,
  filter: choiceFilter({ parse: parseChoice, schema: (field) => ({ type: 'string', enum: [...valuesOf(field)] }) }),
  checkOptions,
  compile: (definition) => ({ extra: { values: Object.freeze(selectValues(definition.options.options)) } }),
  form: SELECT_FORM,
  serialize: columnValue,
  schema: (field) => ({ type: ['string', 'null'], enum: [...valuesOf(field), null] }),
  parse: parseChoice,
});
