import type { CompiledResource, View } from '@panel/core';
import type { IncludeGraph } from './include-params.js';
import type { CursorContext } from './list-modifier.js';
import type { ListRequestContext, ListSettings } from './list-modifier.js';
import { queryValues } from './query-values.js';
import type { QueryableFields } from './queryable-fields.js';

/** Who decides which fields a request may query: the controller's `queryableFields`. */
export interface QueryableDecider {
  queryableFields(resource: CompiledResource, view: View): QueryableFields;
}

/** What a request's list is read from. */
export interface ListRequestInput extends ListSettings {
  readonly resource: CompiledResource;
  readonly view: View;
  readonly query: Readonly<Record<string, unknown>>;
  readonly sent: Readonly<Record<string, unknown>>;
  readonly cookies: Readonly<Record<string, string | undefined>> | undefined;
  readonly decider: QueryableDecider;
  /** The graph this request's actor sees, for `include` (made at the first read); none where `include` is not served. */
  readonly graph?: (() => IncludeGraph) | undefined;
  /** What the list's cursors are signed with and bound to; none where cursor pagination is not served. */
  readonly cursors?: CursorContext | undefined;
}

/**
 * One request's `ListRequestContext`, as the modifiers read it: the query's values by literal
 * key and the fields this actor may query (`queryable`, from the controller's
 * `queryableFields`) are worked out at the first modifier that asks, so a show without `fields`
 * decides nothing.
 */
export class ListRequestReader implements ListRequestContext {
  readonly resource: CompiledResource;
  readonly view: View;
  readonly query: Readonly<Record<string, unknown>>;
  readonly sent: Readonly<Record<string, unknown>>;
  readonly cookies: Readonly<Record<string, string | undefined>> | undefined;
  readonly config: ListSettings['config'];
  readonly defaults: ListSettings['defaults'];
  readonly cursors: CursorContext | undefined;
  readonly #decider: QueryableDecider;
  readonly #graph: (() => IncludeGraph) | undefined;
  #includeGraph: IncludeGraph | undefined;
  #values: ReadonlyMap<string, readonly string[]> | undefined;
  #queryable: QueryableFields | undefined;

  constructor(input: ListRequestInput) {
    this.resource = input.resource;
    this.view = input.view;
    this.query = input.query;
    this.sent = input.sent;
    this.cookies = input.cookies;
    this.config = input.config;
    this.defaults = input.defaults;
    this.#decider = input.decider;
    this.#graph = input.graph;
    this.cursors = input.cursors;
  }

  get includeGraph(): IncludeGraph | undefined {
    if (this.#graph === undefined) return undefined;
    this.#includeGraph ??= this.#graph();
    return this.#includeGraph;
  }

  get values(): ReadonlyMap<string, readonly string[]> {
    this.#values ??= queryValues(this.query);
    return this.#values;
  }

  get queryable(): QueryableFields {
    this.#queryable ??= this.#decider.queryableFields(this.resource, this.view);
    return this.#queryable;
  }
}
