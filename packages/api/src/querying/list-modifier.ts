import type { CompiledField, CompiledResource, JsonSchema, ScopeFunction } from '@panel/core';
import type { QueryableFields } from './queryable-fields.js';

/**
 * One query parameter, declared once: its literal name and the JSON Schema of its value (the
 * route's `schema.querystring` property), with what the OpenAPI document says besides.
 */
export interface QueryParameter {
  /** The literal name in the query string (`page`, `filter[view_count][gte]`). */
  readonly name: string;
  readonly description?: string;
  /** OpenAPI's serialization of an array value: `form` with `explode: false` is a comma-separated list. */
  readonly style?: 'form';
  readonly explode?: boolean;
  /** The value's schema (an `in` list: an array of the field's values). */
  readonly schema: JsonSchema;
}

/** What a modifier's parameters are described from: the listed resource as declared (no actor), and the mount. */
export interface ParameterContext {
  readonly resource: CompiledResource;
  /** The fields of the view the parameters apply to, as declared (the resource's `fieldsOn`): the order's `sort_by` enum. */
  readonly fields: readonly CompiledField[];
  /** The fields a request may filter, select and search (`queryableFields`; for the document: without per-actor rules). */
  readonly queryable: QueryableFields;
  readonly config: { readonly perPage: number; readonly maxPerPage: number };
  /** The mount's default query parameters (`defaults:`). */
  readonly defaults: Readonly<Record<string, string>>;
}

/** What a modifier reads one request from. */
export interface ListRequestContext {
  readonly resource: CompiledResource;
  /** The fields this request's actor may filter, select and search on the list's view. */
  readonly queryable: QueryableFields;
  /** The query string as parsed, over the mount's defaults (a repeated parameter is an array). */
  readonly query: Readonly<Record<string, unknown>>;
  /** The same values by literal key (`queryValues`): `filter[view_count][gte]` → its values. */
  readonly values: ReadonlyMap<string, readonly string[]>;
}

/** What one modifier makes of a request: how it narrows the list or what it loads, or every problem it found. */
export interface ListModification {
  /** Each problem for the 400 that names them all; empty when the parameters are good. */
  readonly problems: readonly string[];
  /** Narrows the records after the policy scope (its conditions are in both the page and the count). */
  readonly where?: ScopeFunction | undefined;
  /** A sparse fieldset: the field names to load. */
  readonly fields?: ReadonlySet<string> | undefined;
}

/**
 * A list modifier: one concern of a list's query string (the page, the order, filters, search,
 * the sparse fieldset), as Django REST Framework's filter backends are — it declares its
 * parameters (`parameters`: the route's `schema.querystring`, the OpenAPI document) and reads a
 * request into a scope function or a fieldset (`read`). `LIST_MODIFIERS` in `list-query.ts`
 * lists them in the order they are documented and read.
 *
 * @example
 * // `published=true`: only published records (docs/querying.md, "Adding a list modifier", has a whole one).
 * export const publishedModifier: ListModifier = {
 *   name: 'published',
 *   parameters: () => [{ name: 'published', description: 'Only published records.', schema: { type: 'boolean', const: true } }],
 *   read: ({ values }) =>
 *     values.get('published')?.join() === 'true' ? { problems: [], where: (query) => query.where(`${ROW_ALIAS}.published`, '=', true) }
 *     : values.has('published') ? { problems: ['published must be true'] } : { problems: [] },
 * };
 */
export interface ListModifier {
  /** What the modifier is about, for messages and docs (`sort`, `filter`). */
  readonly name: string;
  /** Its parameters whose values request logs show: only those that never carry a secret or a user's text. */
  readonly logged?: readonly string[];
  /** Whether its parameters also apply to one record (show), described from the show view. */
  readonly onShow?: boolean;
  /** Its parameters, for a list of `context.resource` (none: the list has nothing for it). */
  parameters(context: ParameterContext): QueryParameter[];
  /**
   * Reads a request: the checked values, or every problem. Absent for the page (`page`,
   * `per_page`), which the action reads first with the `per_page` cookie (`pageRequest`), and
   * for the order, which the action reads against the fields `fieldAccess` gives this actor
   * (`sortRequest`; its problems join the others' in the one 400).
   */
  read?(request: ListRequestContext): ListModification;
}
