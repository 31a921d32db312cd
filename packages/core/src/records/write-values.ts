import type { ErrorMessages } from '../errors/panel-errors.js';
import { writableFields, type CompiledField, type CompiledResource } from '../resources/compiled-resource.js';
import type { ColumnValues } from './records-repository.js';
import { RecordErrors } from '../validation/record-errors.js';
import { checkFieldRules } from '../validation/field-rules.js';

/** The largest record id: ids are PostgreSQL `integer`s, so a larger one can name no record. */
export const MAX_RECORD_ID = 2_147_483_647;

/** A parsed write: column values ready for the records layer, and per-field messages. */
export interface ParsedWrite {
  readonly values: ColumnValues;
  readonly errors: ErrorMessages;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // setUTCFullYear, unlike Date.UTC, keeps the years 0–99 as they are.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

/** Parses one value of the spec's write formats for a field, or says what is wrong with it. */
function parseValue(field: CompiledField, value: unknown): Parsed {
  switch (field.type) {
    case 'text':
      if (typeof value !== 'string') return { ok: false, message: 'must be a string' };
      if (value.includes('\u0000')) return { ok: false, message: 'must not contain a NUL character' };
      return { ok: true, value };
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return { ok: false, message: 'is not a number' };
      if (field.numeric === 'integer' && !Number.isSafeInteger(value)) return { ok: false, message: 'must be an integer' };
      return { ok: true, value };
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : { ok: false, message: 'must be true or false' };
    case 'date':
      return typeof value === 'string' && isCalendarDate(value) ? { ok: true, value } : { ok: false, message: 'must be a date in YYYY-MM-DD format' };
    case 'datetime': {
      // Date.parse rolls an impossible day over (02-30 → 03-02): check the calendar date first.
      const time = typeof value === 'string' && DATETIME.test(value) && isCalendarDate(value.slice(0, 10)) ? Date.parse(value) : Number.NaN;
      return Number.isNaN(time) ? { ok: false, message: 'must be an ISO 8601 datetime with a time zone, such as 2026-11-22T10:40:00Z' } : { ok: true, value: new Date(time) };
    }
    case 'belongs_to':
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) return { ok: false, message: 'must be the id of a record (a positive integer)' };
      return value > MAX_RECORD_ID ? { ok: false, message: 'must exist' } : { ok: true, value };
    default:
      return { ok: false, message: 'is read-only' };
  }
}

function isBlank(field: CompiledField, value: unknown): boolean {
  return value === null || value === undefined || (field.type === 'text' && typeof value === 'string' && value.trim() === '');
}

/**
 * Turns the attributes of a write body into column values. Only the fields writable on the
 * view are read (others are ignored, as strong parameters do); a `belongs_to` is read from
 * `<name>_id`. Type mistakes, blank required fields and the field rules (length, range,
 * format, inclusion) come back as per-field messages.
 */
export function parseWriteValues(resource: CompiledResource, view: 'new' | 'edit', attributes: Record<string, unknown>): ParsedWrite {
  const values: ColumnValues = {};
  const errors = new RecordErrors();
  for (const field of writableFields(resource, view)) {
    const present = Object.prototype.hasOwnProperty.call(attributes, field.writeKey);
    if (!present) {
      if (view === 'new' && field.required) errors.add(field.name, "can't be blank");
      continue;
    }
    const raw = attributes[field.writeKey];
    if (isBlank(field, raw)) {
      if (field.required) errors.add(field.name, "can't be blank");
      else values[field.column!] = field.type === 'text' ? raw ?? null : null;
      continue;
    }
    const parsed = parseValue(field, raw);
    if (!parsed.ok) {
      errors.add(field.name, parsed.message);
      continue;
    }
    values[field.column!] = parsed.value;
    checkFieldRules(field, parsed.value, errors);
  }
  return { values, errors: errors.toJSON() };
}
