import type { CompiledResource, FieldAccess, RecordsSort } from '@panel/core';
import { BadRequestError } from '../errors/api-errors.js';
import type { ListModifier, ListQuery } from './list-modifier.js';
import { LIST_MODIFIERS, listQuery } from './list-query.js';
import { queryValues } from './query-values.js';
import { queryableFields, type QueryableFields } from './queryable-fields.js';

/** What a list's parameters besides the page are read from: the resource, the actor's field access and the query string. */
export interface ListRequestInput {
  readonly resource: CompiledResource;
  /** This request's field access on `resource` (`fieldAccess` of `@panel/core`, for its actor). */
  readonly access: FieldAccess;
  /** The fields this actor may sort, filter, select and search on the index view; default `queryableFields` of `access`. */
  readonly queryable?: QueryableFields | undefined;
  /** The query string as parsed, over the mount's defaults. */
  readonly query: Readonly<Record<string, unknown>>;
  /** The list modifiers to read with (default `LIST_MODIFIERS`); the page is left to `pageRequest`. */
  readonly modifiers?: readonly ListModifier[] | undefined;
}

/** A list's parameters besides the page, checked: the order, and how modifiers narrow and select. */
export interface ListRequest extends Pick<ListQuery, 'where' | 'fields'> {
  readonly sort: RecordsSort | undefined;
}

/**
 * Reads a list's parameters besides the page (`sort_by`/`sort_direction`, `filter[…]`, `q`,
 * `fields`, an app's own modifiers') with the list modifiers, against what the actor may read
 * on the index view, as the API's index reads them: every problem of every parameter in one
 * `BadRequestError` (the API's 400 message). Read without the mount's settings, the page
 * modifier leaves the page to `pageRequest`. The panel's screens call it so that a screen and
 * `GET <mount>/<route_key>` read the same query alike for the same actor.
 *
 * @example
 * const { sort, where, fields } = listRequest({ resource, access: fieldAccess({ resource, user, authorization }), query });
 */
export function listRequest(input: ListRequestInput): ListRequest {
  const { resource, access, query } = input;
  const queryable = input.queryable ?? queryableFields({ resource, view: 'index', access });
  const { sort, where, fields, problems } = listQuery({ resource, view: 'index', queryable, query, values: queryValues(query) }, input.modifiers ?? LIST_MODIFIERS);
  if (problems.length > 0) throw new BadRequestError(problems.join('; '));
  return { sort, where, fields };
}
