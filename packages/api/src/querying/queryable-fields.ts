import type { CompiledField, CompiledResource, View } from '@panel/core';

/** Who asks, and on which view: what `queryableFields` decides from. */
export interface QueryableFieldsInput {
  readonly resource: CompiledResource;
  /** `index` for lists (index and traversal), `show` for one record. */
  readonly view: View;
  /** The request's actor (`Current.user`), for rules that depend on who asks. */
  readonly actor?: unknown;
  /**
   * Edition B: whether an association key is omitted for this actor (no read grant on its
   * target): the serializer's own decision, so that what cannot be read cannot be filtered or
   * selected either.
   */
  readonly hidesAssociation?: ((field: CompiledField) => boolean) | undefined;
}

/** The fields a request may read, filter, select and search, each by its query-string name. */
export interface QueryableFields {
  /** The fields records carry on the view, in order: what `fields=` may list (by `field.name`). */
  readonly read: readonly CompiledField[];
  /** The fields `filter[<key>]` may name, by key (`field.writeKey`: `author_id` for a `belongs_to`). */
  readonly filter: ReadonlyMap<string, CompiledField>;
  /** The fields `q=` searches: the resource's search fields the actor reads on show. */
  readonly search: readonly CompiledField[];
}

// Without an actor-dependent rule the answer depends on the resource and view only.
const shared = new WeakMap<CompiledResource, Map<View, QueryableFields>>();

function decide(resource: CompiledResource, view: View, readable: (field: CompiledField) => boolean): QueryableFields {
  const read = resource.fieldsOn(view).filter(readable);
  const filter = new Map(read.filter((field) => field.filterable).map((field) => [field.writeKey, field] as const));
  // Search fields may be on show only (the actor reads them there), never a hidden one.
  const onShow = new Set(resource.fieldsOn('show').filter(readable));
  return { read, filter, search: resource.search.filter((field) => onShow.has(field)) };
}

/**
 * The one place that says which fields a request may filter (`filter[…]`), select
 * (`fields=`), search (`q=`) and receive: the fields on the request's view (index for lists,
 * show for show) — never a hidden field nor a write-only one (`password` is on no read view),
 * never a field marked `filterable: false` for filters — less, in Edition B, the association
 * keys the actor may not see. The API's parameters, serializer and OpenAPI document all ask
 * it; a field it leaves out is answered exactly as an unknown field.
 *
 * @example
 * const { filter, read, search } = queryableFields({ resource, view: 'index', actor: Current.user });
 */
export function queryableFields(input: QueryableFieldsInput): QueryableFields {
  const { resource, view, hidesAssociation } = input;
  if (hidesAssociation) return decide(resource, view, (field) => !hidesAssociation(field));
  let byView = shared.get(resource);
  if (!byView) {
    byView = new Map();
    shared.set(resource, byView);
  }
  let decided = byView.get(view);
  if (!decided) {
    decided = decide(resource, view, () => true);
    byView.set(view, decided);
  }
  return decided;
}
