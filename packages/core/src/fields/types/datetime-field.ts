import { defineFieldType } from '../define-field-type.js';
import { orderedFilter } from '../field-filters.js';
import { isCalendarDate } from '../calendar-date.js';
import { nullable } from './column-value.js';
import type { ParsedValue } from '../../resources/compiled-types.js';
import { DATETIME_FORM } from '../field-forms.js';

/** An ISO 8601 datetime with a zone: `Z`, `±HH:MM` or `±HHMM`. */
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** Parses an ISO 8601 datetime with a zone into a `Date` (a write value or a filter value). */
function parseDatetime(value: unknown): ParsedValue {
  // Date.parse rolls an impossible day over (02-30 → 03-02): check the calendar date first.
  const time = typeof value === 'string' && DATETIME.test(value) && isCalendarDate(value.slice(0, 10)) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(time) ? { ok: false, message: 'must be an ISO 8601 datetime with a time zone, such as 2026-11-22T10:40:00Z' } : { ok: true, value: new Date(time) };
}

const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));

/**
 * `date.toISOString()`, written from the date's UTC parts: V8 formats `toISOString` through
 * `snprintf`, which costs about twice as much, and a list answers one per datetime field and
 * row. A year outside 1000–9999 (padded or signed) is left to `toISOString`.
 */
export function isoDatetime(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return date.toISOString();
  return `${year}-${TWO_DIGITS[date.getUTCMonth() + 1]}-${TWO_DIGITS[date.getUTCDate()]}T${TWO_DIGITS[date.getUTCHours()]}:${TWO_DIGITS[date.getUTCMinutes()]}:${TWO_DIGITS[date.getUTCSeconds()]}.${THREE_DIGITS[date.getUTCMilliseconds()]}Z`;
}

/** A `timestamptz` column: written as ISO 8601 with a zone, answered in UTC (`2026-11-22T10:40:10.397Z`). */
export const datetimeField = defineFieldType({
  name: 'datetime',
  builder: 'field.datetime',
  sortable: true,
  // A value is answered to the millisecond (`toISOString`) while the column may hold microseconds
  // (`now()`): a filter value stands for its whole millisecond, so it matches what the API answers.
  filter: orderedFilter({ parse: parseDatetime, schema: () => ({ type: 'string', format: 'date-time' }), cast: () => 'timestamptz', resolution: '1 millisecond' }),
  form: DATETIME_FORM,
  serialize: ({ field, row }) => {
    const value = row[field.column!];
    if (value === null || value === undefined) return null;
    const date = value instanceof Date ? value : new Date(String(value));
    return Number.isNaN(date.getTime()) ? null : isoDatetime(date);
  },
  schema: () => nullable('string', { format: 'date-time' }),
  parse: parseDatetime,
});
