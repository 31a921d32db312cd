import type { CompiledField, FilterOperator } from '../resources/compiled-types.js';
import { containsText } from '../fields/field-filters.js';
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
  return (query: RecordsQuery) =>
    query.where((eb) =>
      eb.and([
        ...filters.map(({ field, operator, value }) => field.kind.filter!.condition({ eb, field, column: `${ROW_ALIAS}.${field.column!}`, operator, value })),
        ...(search?.words ?? []).map((word) => eb.or(search!.fields.map((field) => containsText(eb, `${ROW_ALIAS}.${field.column!}`, word)))),
      ]),
    );
}
