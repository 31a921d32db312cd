import type { CompiledResource, FieldAccess, RecordsSort } from '@panel/core';
import { BadRequestError } from '../errors/api-errors.js';
import { sortRequest } from '../params/sort-params.js';
import { listQuery, type ListQuery } from './list-query.js';
import { queryValues } from './query-values.js';
import { queryableFields, type QueryableFields } from './queryable-fields.js';

/** What a list's parameters besides the page are read from: the resource, the actor's field access and the query string. */
export interface ListRequestInput {
  readonly resource: CompiledResource;
  /** This request's field access on `resource` (`fieldAccess` of `@panel/core`, for its actor). */
  readonly access: FieldAccess;
  /** The fields this actor may filter, select and search on the index view; default `queryableFields` of `access`. */
  readonly queryable?: QueryableFields | undefined;
  /** The query string as parsed, over the mount's defaults. */
  readonly query: Readonly<Record<string, unknown>>;
}

/** A list's parameters besides the page, checked: the order, and how modifiers narrow and select. */
export interface ListRequest extends Pick<ListQuery, 'where' | 'fields'> {
  readonly sort: RecordsSort | undefined;
}

/**
 * Reads a list's parameters besides the page (`sort_by`/`sort_direction`, `filter[…]`, `q`,
 * `fields`) against what the actor may read on the index view, as the API's index reads them:
 * every problem of every parameter in one `BadRequestError` (the API's 400 message). The
 * panel's screens call it so that a screen and `GET <mount>/<route_key>` read the same query
 * alike for the same actor.
 *
 * @example
 * const { sort, where, fields } = listRequest({ resource, access: fieldAccess({ resource, user, authorization }), query });
 */
export function listRequest(input: ListRequestInput): ListRequest {
  const { resource, access, query } = input;
  const problems: string[] = [];
  let sort: RecordsSort | undefined;
  try {
    sort = sortRequest(resource, query as Record<string, unknown>, access.queryable('index'));
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== 'PANEL_API_ERR_BAD_REQUEST') throw error;
    problems.push((error as Error).message);
  }
  const { where, fields, problems: more } = listQuery({ resource, queryable: input.queryable ?? queryableFields({ resource, view: 'index', access }), query, values: queryValues(query) });
  problems.push(...more);
  if (problems.length > 0) throw new BadRequestError(problems.join('; '));
  return { sort, where, fields };
}
