import type { CompiledField, FilterOperator } from '../resources/compiled-types.js';
import { containsText, shapedByOperator } from '../fields/field-filters.js';
import { ROW_ALIAS } from './record-select.js';
import type { RecordsQuery, ScopeFunction } from './records-query.js';

/** One checked filter: a filterable field, one of its type's operators, and the parsed value (an array for `in`, a boolean for `null`). */
export interface RecordFilter {
  readonly field: CompiledField;
  readonly operator: FilterOperator;
  readonly value: unknown;
}

/** A checked search: the words of `q`, each to be contained in at least one of the fields. */
export interface RecordSearch {
  readonly fields: readonly CompiledField[];
  readonly words: readonly string[];
}

/**
 * Narrows a records query (after the policy scope) by filters and a search, all ANDed: each
 * filter through its field type's condition, each word of the search contained,
 * case-insensitively, in at least one search field. Every value is a bound parameter; the
 * query stays one statement (the page and the count each take it).
 *
 * @example
 * const narrow = recordsWhere({ filters: [{ field: published, operator: 'eq', value: true }], search: { fields: [title], words: ['tea'] } });
 */
export function recordsWhere(input: { filters?: readonly RecordFilter[]; search?: RecordSearch | undefined }): ScopeFunction | undefined {
  const filters = input.filters ?? [];
  const search = input.search && input.search.words.length > 0 && input.search.fields.length > 0 ? input.search : undefined;
  if (filters.length === 0 && !search) return undefined;
  const where = conditions(filters, search);
  const shape = search ? undefined : filtersShape(filters);
  if (shape) SHAPES.set(where, shape);
  return where;
}

/**
 * What a list narrowed only by filters can be compiled once for: `key` names the fields, their
 * operators and what of the values changes the SQL (how many values an `in` has, a boolean);
 * `values` are the rest, each one bound parameter; `withValues` builds the same conditions with
 * other values in their place (markers, when the statement is compiled for the shape).
 */
export interface WhereShape {
  readonly key: string;
  readonly values: readonly unknown[];
  readonly withValues: (values: readonly unknown[]) => ScopeFunction;
}

const SHAPES = new WeakMap<ScopeFunction, WhereShape>();

/** The shape of a `recordsWhere` of filters only, whose every condition writes its SQL by operator (`shapedByOperator`); else undefined. */
export function whereShape(where: ScopeFunction): WhereShape | undefined {
  return SHAPES.get(where);
}

/** A value that goes into a condition as itself (a parameter), or a list of them; booleans and null are part of the key instead. */
const PARAMETER = new Set(['string', 'number', 'bigint']);

function filtersShape(filters: readonly RecordFilter[]): WhereShape | undefined {
  const key: string[] = [];
  const values: unknown[] = [];
  for (const { field, operator, value } of filters) {
    if (!field.kind.filter || !shapedByOperator(field.kind.filter)) return undefined;
    const listed = Array.isArray(value) ? (value as unknown[]) : undefined;
    const each = listed ?? [value];
    if (each.some((one) => one !== null && typeof one !== 'boolean' && !PARAMETER.has(typeof one) && !(one instanceof Date))) return undefined;
    const kinds = each.map((one) => (one === null || typeof one === 'boolean' ? String(one) : one instanceof Date ? 'date' : typeof one));
    key.push(`${field.name}\u0001${operator}\u0001${listed ? '[' : ''}${kinds.join(',')}`);
    for (const one of each) if (one !== null && typeof one !== 'boolean') values.push(one);
  }
  const withValues = (given: readonly unknown[]): ScopeFunction => {
    let next = 0;
    const take = (one: unknown) => (one === null || typeof one === 'boolean' ? one : given[next++]);
    return conditions(
      filters.map((filter) => ({ ...filter, value: Array.isArray(filter.value) ? (filter.value as unknown[]).map(take) : take(filter.value) })),
      undefined,
    );
  };
  return { key: key.join('\u0002'), values, withValues };
}

function conditions(filters: readonly RecordFilter[], search: RecordSearch | undefined): ScopeFunction {
  return (query: RecordsQuery) =>
    query.where((eb) =>
      eb.and([
        ...filters.map(({ field, operator, value }) => field.kind.filter!.condition({ eb, field, column: `${ROW_ALIAS}.${field.column!}`, operator, value })),
        ...(search?.words ?? []).map((word) => eb.or(search!.fields.map((field) => containsText(eb, `${ROW_ALIAS}.${field.column!}`, word)))),
      ]),
    );
}
