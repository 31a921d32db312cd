import { defineFieldType } from '../define-field-type.js';
import { orderedFilter } from '../field-filters.js';
import { isCalendarDate } from '../calendar-date.js';
import { nullable } from './column-value.js';
import type { ParsedValue } from '../../resources/compiled-types.js';
import { DATE_FORM } from '../field-forms.js';

/** Parses a `YYYY-MM-DD` calendar date (a write value or a filter value). */
const parseDate = (value: unknown): ParsedValue => (typeof value === 'string' && isCalendarDate(value) ? { ok: true, value } : { ok: false, message: 'must be a date in YYYY-MM-DD format' });

/** A `date` column, `YYYY-MM-DD` both ways. */
export const dateField = defineFieldType({
  name: 'date',
  builder: 'field.date',
  sortable: true,
  filter: orderedFilter({ parse: parseDate, schema: () => ({ type: 'string', format: 'date' }), cast: () => 'date' }),
  form: DATE_FORM,
  serialize: ({ field, row }) => {
    const value = row[field.column!] ?? null;
    return value instanceof Date ? value.toISOString().slice(0, 10) : value;
  },
  schema: () => nullable('string', { format: 'date' }),
  parse: parseDate,
});
