import { RecordInvalidError, type ErrorMessages } from '../errors/panel-errors.js';
import type { CompiledResource } from '../resources/compiled-resource.js';
import { humanize } from '../naming/resource-naming.js';

interface DatabaseErrorLike {
  code: string;
  message: string;
  detail?: string;
  column?: string;
  constraint?: string;
  table?: string;
}

function isDatabaseError(error: unknown): error is DatabaseErrorLike {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' && /^[0-9A-Z]{5}$/.test((error as { code: string }).code);
}

function keyColumn(detail: string | undefined): string | undefined {
  return detail?.match(/^Key \(([^,)]+)/)?.[1]?.replace(/"/g, '');
}

function fieldFor(resource: CompiledResource, column: string | undefined): string {
  if (!column) return 'base';
  return resource.fields.find((f) => f.column === column && f.kind.constraintErrorsOn !== 'base')?.name ?? 'base';
}

function add(errors: ErrorMessages, key: string, message: string): ErrorMessages {
  errors[key] = [...(errors[key] ?? []), message];
  return errors;
}

/**
 * Turns a constraint the database enforced (a race that validations could not see) into the
 * same per-field messages validations give, so that a client sees 422, never 500. Returns
 * undefined for errors that are not about the data.
 */
export function constraintViolation(error: unknown, resource: CompiledResource, operation: 'write' | 'delete', changes: Record<string, unknown> = {}): RecordInvalidError | undefined {
  if (!isDatabaseError(error)) return undefined;
  const errors: ErrorMessages = {};
  switch (error.code) {
    case '23505': // unique_violation
      return new RecordInvalidError(add(errors, fieldFor(resource, keyColumn(error.detail)), 'has already been taken'));
    case '23502': // not_null_violation
      return new RecordInvalidError(add(errors, fieldFor(resource, error.column), "can't be blank"));
    case '23001': // restrict_violation (ON DELETE RESTRICT, PostgreSQL 18 and later)
    case '23503': // foreign_key_violation
      if (operation === 'delete' || error.code === '23001') {
        const dependent = error.detail?.match(/referenced from table "([^"]+)"/)?.[1] ?? 'records';
        return new RecordInvalidError(add(errors, 'base', `Cannot delete record because dependent ${humanize(dependent).toLowerCase()} exist`));
      }
      return new RecordInvalidError(add(errors, fieldFor(resource, keyColumn(error.detail)), 'must exist'));
    case '23514': { // check_violation
      // The longest matching column wins: shelves_size_limit_check names size_limit, not size.
      const column = resource.fields
        .filter((f) => f.column && f.kind.constraintErrorsOn !== 'base' && error.constraint?.startsWith(`${resource.table}_${f.column}_`))
        .map((f) => f.column!)
        .sort((a, b) => b.length - a.length)[0];
      return new RecordInvalidError(add(errors, fieldFor(resource, column), 'is invalid'));
    }
    case '22003': // numeric_value_out_of_range
      return new RecordInvalidError(onFields(resource, outOfRangeColumns(error, changes), 'is out of range'));
    case '22001': { // string_data_right_truncation: "value too long for type character varying(40)"
      const limit = Number(/\((\d+)\)/.exec(error.message)?.[1]);
      const columns = Number.isInteger(limit) ? Object.keys(changes).filter((c) => typeof changes[c] === 'string' && [...(changes[c] as string)].length > limit) : [];
      return new RecordInvalidError(onFields(resource, columns, Number.isInteger(limit) ? `is too long (maximum is ${limit} characters)` : 'is too long'));
    }
    default:
      // Class 22 is "data exception": a value the column type cannot hold. PostgreSQL's own text is never an answer.
      if (error.code.startsWith('22')) return new RecordInvalidError(add(errors, 'base', 'A value does not fit its column'));
      return undefined;
  }
}

/** `message` on each changed column's field, or on `base` when no column could be told. */
function onFields(resource: CompiledResource, columns: readonly string[], message: string): ErrorMessages {
  const errors: ErrorMessages = {};
  if (columns.length === 0) return add(errors, 'base', `A value ${message}`);
  for (const column of columns) add(errors, fieldFor(resource, column), message);
  return errors;
}

/**
 * The changed columns an out-of-range error is about: the one whose value the message quotes
 * (an integer: `value "2147483648" is out of range for type integer`), else, for a `numeric`
 * overflow (`A field with precision 8, scale 2 must round to an absolute value less than 10^6`),
 * the numbers at or beyond that bound.
 */
function outOfRangeColumns(error: DatabaseErrorLike, changes: Record<string, unknown>): string[] {
  const quoted = /value "([^"]+)"/.exec(error.message)?.[1];
  if (quoted !== undefined) return Object.keys(changes).filter((c) => String(changes[c]) === quoted).slice(0, 1);
  const bound = /precision (\d+), scale (\d+)/.exec(error.detail ?? '');
  if (!bound) return [];
  const [precision, scale] = [Number(bound[1]), Number(bound[2])];
  const limit = 10 ** (precision - scale);
  return Object.keys(changes).filter((c) => (typeof changes[c] === 'number' || typeof changes[c] === 'string') && roundsToAtLeast(String(changes[c]), scale, limit));
}

/** Whether a number's decimal text, rounded half away from zero to `scale` digits as PostgreSQL does, reaches `limit` (a power of ten). */
function roundsToAtLeast(text: string, scale: number, limit: number): boolean {
  const value = Math.abs(Number(text));
  if (!Number.isFinite(value)) return false;
  const digits = String(value);
  if (/e/i.test(digits)) return value >= limit;
  const [whole = '0', fraction = ''] = digits.split('.');
  if (Number(whole) >= limit) return true;
  // Only 99…9.99…95 and above carry into the next power of ten.
  return Number(whole) === limit - 1 && fraction.length > scale && /^9*$/.test(fraction.slice(0, scale)) && fraction[scale]! >= '5';
}
