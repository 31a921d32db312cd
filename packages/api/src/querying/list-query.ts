import { recordsWhere, type CompiledResource, type ScopeFunction } from '@panel/core';
import { filterParameters, filterRequest } from './filter-params.js';
import { fieldsetParameters, fieldsetRequest } from './fieldset-params.js';
import type { QueryableFields } from './queryable-fields.js';
import { searchParameters, searchRequest } from './search-params.js';

/** What a list's querying parameters ask for, checked. */
export interface ListQuery {
  /** Narrows the list after the policy scope (filters and search), or undefined for none. */
  readonly where: ScopeFunction | undefined;
  /** The sparse fieldset, or undefined for every field of the view. */
  readonly fields: ReadonlySet<string> | undefined;
  /** Every problem found, for one 400; empty when the query is good. */
  readonly problems: readonly string[];
}

/**
 * The querying modifiers of a list (index and traversal), each one module that reads its
 * parameters and describes them: filters (`filter[…]`), search (`q`) and the sparse fieldset
 * (`fields`). Every problem of every modifier is collected, so that one 400 names them all.
 */
export function listQuery(values: ReadonlyMap<string, readonly string[]>, queryable: QueryableFields, resource: CompiledResource): ListQuery {
  const filtered = filterRequest(values, queryable, resource.naming.routeKey);
  const searched = searchRequest(values, queryable, resource);
  const selected = fieldsetRequest(values, queryable, resource);
  return {
    where: recordsWhere({ filters: filtered.filters, search: searched.search }),
    fields: selected.fields,
    problems: [...filtered.problems, ...searched.problems, ...selected.problems],
  };
}

/** The OpenAPI parameters of a list's querying modifiers, in the order `listQuery` reads them. */
export function listQueryParameters(queryable: QueryableFields): Record<string, unknown>[] {
  return [...filterParameters(queryable), ...searchParameters(queryable), ...fieldsetParameters(queryable)];
}
