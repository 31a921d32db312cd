import { defineFieldType } from '../define-field-type.js';
import { isCalendarDate } from '../calendar-date.js';
import { nullable } from './column-value.js';

/** A `date` column, `YYYY-MM-DD` both ways. */
export const dateField = defineFieldType({
  name: 'date',
  builder: 'field.date',
  sortable: true,
  serialize: ({ field, row }) => {
    const value = row[field.column!] ?? null;
    return value instanceof Date ? value.toISOString().slice(0, 10) : value;
  },
  schema: () => nullable('string', { format: 'date' }),
  parse: (value) => (typeof value === 'string' && isCalendarDate(value) ? { ok: true, value } : { ok: false, message: 'must be a date in YYYY-MM-DD format' }),
});
