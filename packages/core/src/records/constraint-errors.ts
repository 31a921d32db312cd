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
    case '22003': { // numeric_value_out_of_range: the message quotes the value, which names the field
      const quoted = /value "([^"]+)"/.exec(error.message)?.[1];
      const column = quoted === undefined ? undefined : Object.keys(changes).find((c) => String(changes[c]) === quoted);
      if (column) return new RecordInvalidError(add(errors, fieldFor(resource, column), 'is out of range'));
      return new RecordInvalidError(add(errors, 'base', error.message));
    }
    default:
      // Class 22 is "data exception": a value the column type cannot hold.
      if (error.code.startsWith('22')) return new RecordInvalidError(add(errors, 'base', error.message));
      return undefined;
  }
}
