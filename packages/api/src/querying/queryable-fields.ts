import type { CompiledField, CompiledResource, FieldAccess, View } from '@panel/core';

/** Who asks, and on which view: what `queryableFields` decides from. */
export interface QueryableFieldsInput {
  readonly resource: CompiledResource;
  /** `index` for lists (index and traversal), `show` for one record. */
  readonly view: View;
  /**
   * This request's field access (`fieldAccess` of `@panel/core`: the views, each field's
   * `visible` rule for this actor, and Edition B's associations without a read grant). Without
   * it, the answer is the one for an actor no rule hides anything from (the OpenAPI document,
   * `panel-api routes`).
   */
  readonly access?: FieldAccess | undefined;
}

/** The fields a request may sort, filter, select and search, each by its query-string name. */
export interface QueryableFields {
  /** The fields `fields=` may list (by `field.name`): those the actor reads on every record of the view, in order. */
  readonly read: readonly CompiledField[];
  /** The fields `sort_by` may name: the sortable ones of `read`. */
  readonly sort: readonly CompiledField[];
  /** The fields `filter[<key>]` may name, by key (`field.writeKey`: `author_id` for a `belongs_to`). */
  readonly filter: ReadonlyMap<string, CompiledField>;
  /** The fields `q=` searches: the resource's search fields the actor reads on show. */
  readonly search: readonly CompiledField[];
}

// When no rule hides anything from the actor, the answer depends on the resource and view only.
const shared = new WeakMap<CompiledResource, Map<View, QueryableFields>>();

function decide(resource: CompiledResource, read: readonly CompiledField[], onShow: readonly CompiledField[]): QueryableFields {
  const filter = new Map(read.filter((field) => field.filterable).map((field) => [field.writeKey, field] as const));
  // Search fields may be on show only (the actor reads them there), never a hidden one.
  const shown = new Set(onShow);
  return { read, sort: read.filter((field) => field.sortable), filter, search: resource.search.filter((field) => shown.has(field)) };
}

function unruled(resource: CompiledResource, view: View): QueryableFields {
  let byView = shared.get(resource);
  if (!byView) {
    byView = new Map();
    shared.set(resource, byView);
  }
  let decided = byView.get(view);
  if (!decided) {
    decided = decide(resource, resource.fieldsOn(view), resource.fieldsOn('show'));
    byView.set(view, decided);
  }
  return decided;
}

/**
 * The one place that says which fields a request may sort by (`sort_by`), filter
 * (`filter[…]`), select (`fields=`) and search (`q=`), which every list modifier asks: the fields this actor reads on every record of the request's
 * view (index for lists, show for show), as `fieldAccess(…).queryable(view)` answers — never a
 * hidden field, nor one a `visible` rule hides from this actor, nor a write-only one
 * (`password` is on no read view), nor in Edition B an association key without a read grant;
 * never a field marked `filterable: false` for filters. A field it leaves out is answered
 * exactly as an unknown field.
 *
 * @example
 * const { filter, read, search } = queryableFields({ resource, view: 'index', access });
 */
export function queryableFields(input: QueryableFieldsInput): QueryableFields {
  const { resource, view, access } = input;
  if (access === undefined) return unruled(resource, view);
  const read = access.queryable(view);
  const onShow = access.queryable('show');
  // Nothing hidden from this actor: the shared answer serves.
  if (read.length === resource.fieldsOn(view).length && onShow.length === resource.fieldsOn('show').length) return unruled(resource, view);
  return decide(resource, read, onShow);
}
