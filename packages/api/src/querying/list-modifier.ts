import type { CompiledField, CompiledResource, JsonSchema, RecordsSort, ScopeFunction, View } from '@panel/core';
import type { CursorCodec, OpenedCursor } from './cursor-codec.js';
import type { IncludeGraph, IncludeRequest } from './include-params.js';
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

/** The mount's settings a list is read and described with. */
export interface ListSettings {
  /** The panel's page sizes. */
  readonly config: { readonly perPage: number; readonly maxPerPage: number };
  /** The mount's default query parameters (`defaults:`). */
  readonly defaults: Readonly<Record<string, string>>;
}

/** What a modifier's parameters are described from: the listed resource as declared (no actor), and the mount. */
export interface ParameterContext extends ListSettings {
  readonly resource: CompiledResource;
  /** The fields of the view the parameters apply to, as declared (the resource's `fieldsOn`). */
  readonly fields: readonly CompiledField[];
  /** The fields a request may sort, filter, select and search (`queryableFields`; for the document: without per-actor rules). */
  readonly queryable: QueryableFields;
  /** A resource the API serves in this version, by name (association targets: `include`'s paths); undefined for one it does not serve, and no function where no association's target is described. */
  readonly resolve?: ((name: string) => CompiledResource | undefined) | undefined;
  /** The fields a request may use on another resource (`include`'s targets): as one actor (its OpenAPI document), else as declared. */
  readonly queryableOf?: ((resource: CompiledResource, view: View) => QueryableFields) | undefined;
  /** The resources the mount's gate guards (Edition B): a public target's included records leave their associations out (`publicTargetOmits`). */
  readonly guarded?: ReadonlySet<string> | undefined;
}

/** What a modifier reads one request from. */
export interface ListRequestContext extends Partial<ListSettings> {
  readonly resource: CompiledResource;
  /** `index` for a list (index and traversal), `show` for one record (the modifiers marked `onShow`). */
  readonly view?: View | undefined;
  /**
   * The fields this request's actor may sort, filter, select and search on the view: the one
   * deciding function's answer (`queryableFields`), which every modifier asks — never the
   * resource's own field list.
   */
  readonly queryable: QueryableFields;
  /** The query string as parsed, over the mount's defaults (a repeated parameter is an array). */
  readonly query: Readonly<Record<string, unknown>>;
  /** The query string as the client sent it, without the mount's defaults (the page tells a sent `per_page` from a default one); default `query`. */
  readonly sent?: Readonly<Record<string, unknown>> | undefined;
  /** The same values by literal key (`queryValues`): `filter[view_count][gte]` → its values. */
  readonly values: ReadonlyMap<string, readonly string[]>;
  /** The request's cookies (the page reads the `per_page` cookie); none on a traversal. */
  readonly cookies?: Readonly<Record<string, string | undefined>> | undefined;
  /** The resource graph as this request's actor sees it, which `include` is resolved against; undefined where no answer embeds records (`include` is then refused). */
  readonly includeGraph?: IncludeGraph | undefined;
  /** What this request's cursors are signed with and bound to (the list and the actor); undefined where cursor pagination is not served. */
  readonly cursors?: CursorContext | undefined;
}

/** The signer of a list's cursors, and what besides the query they are bound to. */
export interface CursorContext {
  readonly codec: CursorCodec;
  /** The list (`cursorList`: the resource's, or one parent's traversal). */
  readonly list: string;
  /** The actor (`token:<id>`, `user:<id>`, `public`). */
  readonly actor: string;
}

/** A list read in cursor mode: where the page starts, the count asked for, and the binding its cursors are signed with. */
export interface CursorRequest {
  /** The cursor sent (`after` or `before`), opened; undefined for the first page. */
  readonly opened: OpenedCursor | undefined;
  /** `include_total`. */
  readonly total: 'exact' | 'estimate' | undefined;
  /** The binding the page's `next_cursor` and `prev_cursor` are signed with. */
  readonly binding: string;
}

/** The page a list asks for. */
export interface PageRequest {
  readonly page: number;
  readonly perPage: number;
  /** Whether `per_page` came from the query string (then the `per_page` cookie is refreshed). */
  readonly perPageFromQuery: boolean;
}

/**
 * What one modifier makes of a request: its part of the list's query, or every problem it
 * found. `where` is ANDed with the other modifiers'; any other part (`page`, `sort`,
 * `fields`, and the parts later modifiers add) is the query's, the last modifier that sets it
 * winning.
 */
export interface ListModification {
  /** Each problem for the 400 that names them all; empty when the parameters are good. */
  readonly problems: readonly string[];
  /** Narrows the records after the policy scope (its conditions are in both the page and the count). */
  readonly where?: ScopeFunction | undefined;
  /** The page and its size. */
  readonly page?: PageRequest | undefined;
  /** The order (then the primary key). */
  readonly sort?: RecordsSort | undefined;
  /** A sparse fieldset: the field names to load. */
  readonly fields?: ReadonlySet<string> | undefined;
  /** The associated records to embed (`include`), checked and costed. */
  readonly include?: IncludeRequest | undefined;
  /** Cursor mode (`pagination=cursor`, `after`, `before`). */
  readonly cursor?: CursorRequest | undefined;
}

/**
 * A list modifier: one concern of a list's query string (the page, the order, filters, search,
 * the sparse fieldset, an app's own), as Django REST Framework's filter backends are — it
 * declares its parameters (`parameters`: the route's `schema.querystring`, the OpenAPI
 * document) and reads a request into its part of the list's query (`read`). A controller lists
 * its modifiers (`static listModifiers`), else the mount's `listModifiers`, else
 * `LIST_MODIFIERS`.
 *
 * @example
 * // `published=true`: only published records (docs/querying.md, "Your own list modifier", has a whole one).
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
  /** Whether its parameters also apply to one record (show), described and read on the show view. */
  readonly onShow?: boolean;
  /** Its parameters, for a list of `context.resource` (none: the list has nothing for it). */
  parameters(context: ParameterContext): QueryParameter[];
  /** Reads a request: its part of the list's query, or every problem. */
  read(request: ListRequestContext): ListModification;
}

/** What a list's query parameters ask for, checked: every modifier's part, and every problem. */
export interface ListQuery {
  /** The page and its size, or undefined for the first page of the configured size. */
  readonly page: PageRequest | undefined;
  /** The order, or undefined for the resource's default order. */
  readonly sort: RecordsSort | undefined;
  /** Narrows the list after the policy scope (filters, search, an app's own), or undefined for none. */
  readonly where: ScopeFunction | undefined;
  /** The sparse fieldset, or undefined for every field of the view. */
  readonly fields: ReadonlySet<string> | undefined;
  /** The associated records to embed (`include`), or undefined for none. */
  readonly include?: IncludeRequest | undefined;
  /** Cursor mode, or undefined for page numbers. */
  readonly cursor?: CursorRequest | undefined;
  /** Every problem found, for one 400; empty when the query is good. */
  readonly problems: readonly string[];
}
