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
  /** The fields `q=` searches: the resource's search fields of `read`. */
  readonly search: readonly CompiledField[];
}

// When no rule hides anything from the actor, the answer depends on the resource and view only.
const shared = new WeakMap<CompiledResource, Map<View, QueryableFields>>();

/** The one decision: every modifier's fields are those of `read` (what the actor reads on every record of the view). */
function decide(resource: CompiledResource, read: readonly CompiledField[]): QueryableFields {
  const readable = new Set(read);
  const filter = new Map(read.filter((field) => field.filterable).map((field) => [field.writeKey, field] as const));
  return { read, sort: read.filter((field) => field.sortable), filter, search: resource.search.filter((field) => readable.has(field)) };
}

function unruled(resource: CompiledResource, view: View): QueryableFields {
  let byView = shared.get(resource);
  if (!byView) {
    byView = new Map();
    shared.set(resource, byView);
  }
  let decided = byView.get(view);
  if (!decided) {
    decided = decide(resource, resource.fieldsOn(view));
    byView.set(view, decided);
  }
  return decided;
}

/**
 * The one place that says which fields a request may sort by (`sort_by`), filter
 * (`filter[…]`), select (`fields=`) and search (`q=`), which every list modifier asks: the
 * fields this actor reads on every record of the request's view (index for lists, show for
 * show), as `fieldAccess(…).queryable(view)` answers — never a hidden field, nor one a
 * `visible` rule hides from this actor, nor a write-only one (`password` is on no read view),
 * nor in Edition B an association key without a read grant; never a field marked
 * `filterable: false` for filters. Search is no exception: a search field the actor does not
 * read on the list's view (one shown on show only) is not searched, so `q=` never tells what
 * a field the list does not answer holds. A field it leaves out is answered exactly as an
 * unknown field.
 *
 * @example
 * const { filter, read, search } = queryableFields({ resource, view: 'index', access });
 */
export function queryableFields(input: QueryableFieldsInput): QueryableFields {
  const { resource, view, access } = input;
  if (access === undefined) return unruled(resource, view);
  const read = access.queryable(view);
  // Nothing hidden from this actor: the shared answer serves.
  if (read.length === resource.fieldsOn(view).length) return unruled(resource, view);
  return decide(resource, read);
}
