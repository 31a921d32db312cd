import type { CompiledField, CompiledResource, JsonSchema, ScopeFunction, View } from '@panel/core';
import type { ActionName } from '../controller/callback-chain.js';
import { pageModifier } from '../params/pagination-params.js';
import { sortModifier } from '../params/sort-params.js';
import { filterModifier } from './filter-params.js';
import { fieldsetModifier } from './fieldset-params.js';
import type { ListModifier, ListRequestContext, ParameterContext, QueryParameter } from './list-modifier.js';
import { queryableFields } from './queryable-fields.js';
import { searchModifier } from './search-params.js';

/**
 * The list modifiers, in the order their parameters are documented and read: the page, the
 * order, filters (`filter[…]`), search (`q`) and the sparse fieldset (`fields`). The one list
 * of a list's query parameters: the route's `schema.querystring`, the OpenAPI document, the
 * request log's allow-list and the reading of a request all derive from it. A new modifier is
 * one module (`ListModifier`) added here.
 */
export const LIST_MODIFIERS: readonly ListModifier[] = [pageModifier, sortModifier, filterModifier, searchModifier, fieldsetModifier];

/** What a list's query parameters ask for, checked. */
export interface ListQuery {
  /** Narrows the list after the policy scope (filters and search), or undefined for none. */
  readonly where: ScopeFunction | undefined;
  /** The sparse fieldset, or undefined for every field of the view. */
  readonly fields: ReadonlySet<string> | undefined;
  /** Every problem found, for one 400; empty when the query is good. */
  readonly problems: readonly string[];
}

/**
 * Reads a list's query (index and traversal) with every modifier that reads (the action reads
 * the page and the order): every problem of every modifier is collected, so that one 400 names
 * them all; the modifiers' scope functions narrow the list one after the other.
 */
export function listQuery(request: ListRequestContext, modifiers: readonly ListModifier[] = LIST_MODIFIERS): ListQuery {
  let where: ScopeFunction | undefined;
  let fields: ReadonlySet<string> | undefined;
  const problems: string[] = [];
  for (const modifier of modifiers) {
    if (!modifier.read) continue;
    const read = modifier.read(request);
    problems.push(...read.problems);
    if (read.fields) fields = read.fields;
    const narrow = read.where;
    if (narrow) {
      const before = where;
      where = before === undefined ? narrow : (query) => narrow(before(query));
    }
  }
  return { where, fields, problems };
}

/** The query parameters of a list (index and traversal) of `context.resource`, in the order `LIST_MODIFIERS` declares them. */
export function listParameters(context: ParameterContext, modifiers: readonly ListModifier[] = LIST_MODIFIERS): QueryParameter[] {
  return modifiers.flatMap((modifier) => modifier.parameters(context));
}

/** The query parameters of one record (show): those of the modifiers that apply to it (`onShow`), with `context.queryable` for the show view. */
export function recordParameters(context: ParameterContext, modifiers: readonly ListModifier[] = LIST_MODIFIERS): QueryParameter[] {
  return modifiers.filter((modifier) => modifier.onShow === true).flatMap((modifier) => modifier.parameters(context));
}

/**
 * The query parameters of a route, for the resource as declared (no per-actor rule): a list's
 * (index, and a traversal's of its target `resource`), one record's (show), none for writes.
 * The route's `schema.querystring` and its OpenAPI operation are both made from this;
 * `viewFields` gives a view's fields as declared (the resource's own `fieldsOn`).
 */
export function actionParameters(action: ActionName, resource: CompiledResource, mount: Pick<ParameterContext, 'config' | 'defaults'> & { readonly viewFields: (view: View) => readonly CompiledField[] }): QueryParameter[] {
  const { config, defaults, viewFields } = mount;
  if (action === 'index' || action === 'related') return listParameters({ config, defaults, resource, fields: viewFields('index'), queryable: queryableFields({ resource, view: 'index' }) });
  if (action === 'show') return recordParameters({ config, defaults, resource, fields: viewFields('show'), queryable: queryableFields({ resource, view: 'show' }) });
  return [];
}

/**
 * The route's `schema.querystring`: an object whose properties are the parameters' schemas (with
 * their descriptions). Values are described as read, after a comma-separated list is split.
 */
export function querystringSchema(parameters: readonly QueryParameter[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const { name, description, schema } of parameters) properties[name] = description === undefined ? schema : { ...schema, description };
  return { type: 'object', properties };
}

/** The parameters whose values request logs show (`loggedUrl`): the modifiers' `logged`, which carry no secret and no user text. */
export const LOGGED_QUERY_PARAMETERS: ReadonlySet<string> = new Set(LIST_MODIFIERS.flatMap((modifier) => modifier.logged ?? []));
