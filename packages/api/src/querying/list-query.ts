import type { CompiledField, CompiledResource, FieldAccess, JsonSchema, ScopeFunction, View } from '@panel/core';
import type { ActionName } from '../controller/callback-chain.js';
import { fieldsetModifier } from './fieldset-modifier.js';
import { cursorModifier } from './cursor-modifier.js';
import { filterModifier } from './filter-modifier.js';
import { includeModifier } from './include-modifier.js';
import type { ListModification, ListModifier, ListQuery, ListRequestContext, ListSettings, ParameterContext, QueryParameter } from './list-modifier.js';

export type { ListQuery } from './list-modifier.js';
import { pageModifier } from './page-modifier.js';
import { queryableFields } from './queryable-fields.js';
import { searchModifier } from './search-modifier.js';
import { sortModifier } from './sort-modifier.js';
import { withSchemaBounds } from '../openapi/schema-bounds.js';

/**
 * The built-in list modifiers, in the order their parameters are documented and read: the
 * page (`page`, `per_page`), cursor pages (`pagination=cursor`, `after`, `before`), the order, filters (`filter[…]`), search (`q`), the sparse fieldset (`fields`) and the embedded associations (`include`).
 * A route's list of modifiers (its controller's `static listModifiers`, else the mount's
 * `listModifiers`, else this one) is the one list of its query parameters: the route's
 * `schema.querystring`, the OpenAPI document and the reading of a request all derive from it.
 */
export const LIST_MODIFIERS: readonly ListModifier[] = [pageModifier, cursorModifier, sortModifier, filterModifier, searchModifier, fieldsetModifier, includeModifier];

/**
 * Reads a list's query with every modifier of `modifiers`: every problem of every modifier is
 * collected, so that one 400 names them all; the modifiers' scope functions narrow the list
 * one after the other (ANDed); any other part is the last modifier's that sets it.
 */
export function listQuery(request: ListRequestContext, modifiers: readonly ListModifier[] = LIST_MODIFIERS): ListQuery {
  let where: ScopeFunction | undefined;
  const parts: { -readonly [K in keyof ListModification]?: ListModification[K] } = {};
  const problems: string[] = [];
  for (const modifier of modifiers) {
    const read = modifier.read(request);
    if (read.problems.length > 0) problems.push(...read.problems);
    for (const key in read) {
      const value = read[key as keyof ListModification];
      if (key === 'problems' || key === 'where' || value === undefined) continue;
      (parts as Record<string, unknown>)[key] = value;
    }
    const narrow = read.where;
    if (narrow) {
      const before = where;
      where = before === undefined ? narrow : (query) => narrow(before(query));
    }
  }
  return { page: parts.page, sort: parts.sort, fields: parts.fields, ...parts, where, problems };
}

/** The query parameters of a list (index and traversal) of `context.resource`, in the order of `modifiers`. */
export function listParameters(context: ParameterContext, modifiers: readonly ListModifier[] = LIST_MODIFIERS): QueryParameter[] {
  return modifiers.flatMap((modifier) => modifier.parameters(context));
}

/** The query parameters of one record (show): those of the modifiers that apply to it (`onShow`), with `context.queryable` for the show view. */
export function recordParameters(context: ParameterContext, modifiers: readonly ListModifier[] = LIST_MODIFIERS): QueryParameter[] {
  return modifiers.filter((modifier) => modifier.onShow === true).flatMap((modifier) => modifier.parameters(context));
}

/**
 * The query parameters of a route, for the resource as declared (no per-actor rule), or as one
 * actor may use them (`access`: its OpenAPI document): a list's (index, and a traversal's of
 * its target `resource`), one record's (show), none for writes. The route's
 * `schema.querystring` and its OpenAPI operation are both made from this; `viewFields` gives a
 * view's fields (the resource's own `fieldsOn`, or those the actor reads); `accessOf`, the
 * actor's access to another resource (`include`'s targets); `modifiers` are the route's
 * (default `LIST_MODIFIERS`).
 */
export function actionParameters(action: ActionName, resource: CompiledResource, mount: ListSettings & { readonly viewFields: (view: View) => readonly CompiledField[]; readonly access?: FieldAccess | undefined; readonly accessOf?: ((resource: CompiledResource) => FieldAccess) | undefined; readonly guarded?: ReadonlySet<string> | undefined; readonly modifiers?: readonly ListModifier[] | undefined; readonly resolve?: ((name: string) => CompiledResource | undefined) | undefined }): QueryParameter[] {
  const { config, defaults, viewFields, access, accessOf, guarded, modifiers = LIST_MODIFIERS, resolve } = mount;
  // Another resource's fields (include's targets) as the same actor uses them, as the API's include graph asks them.
  const queryableOf = accessOf === undefined ? undefined : (target: CompiledResource, view: View) => queryableFields({ resource: target, view, access: accessOf(target) });
  const context = (view: View) => ({ config, defaults, resource, fields: viewFields(view), queryable: queryableFields({ resource, view, access }), resolve, queryableOf, guarded });
  // Bounded here, once: the route's querystring and the OpenAPI document state the same schemas.
  if (action === 'index' || action === 'related') return listParameters(context('index'), modifiers).map(boundedParameter);
  if (action === 'show') return recordParameters(context('show'), modifiers).map(boundedParameter);
  // The answer of a create or an update is the show's record: `include` reads it as on a show (`fields=` does not apply).
  if (action === 'create' || action === 'update') return recordParameters(context('show'), modifiers.filter((modifier) => modifier.name === 'include')).map(boundedParameter);
  return [];
}

const boundedParameter = (parameter: QueryParameter): QueryParameter => ({ ...parameter, schema: withSchemaBounds(parameter.schema) });

/**
 * The route's `schema.querystring`: an object whose properties are the parameters' schemas (with
 * their descriptions). Values are described as read, after a comma-separated list is split.
 */
export function querystringSchema(parameters: readonly QueryParameter[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const { name, description, schema } of parameters) properties[name] = description === undefined ? schema : { ...schema, description };
  return { type: 'object', properties };
}

/**
 * The parameters whose values request logs show (`loggedUrl`): the built-in modifiers'
 * `logged`, which carry no secret and no user text. An app's own modifier's parameters are
 * redacted in the logs.
 */
export const LOGGED_QUERY_PARAMETERS: ReadonlySet<string> = new Set(LIST_MODIFIERS.flatMap((modifier) => modifier.logged ?? []));
