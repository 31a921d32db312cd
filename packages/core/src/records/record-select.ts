import { expressionBuilder, type AliasedExpression, type Kysely } from 'kysely';
import type { CompiledField, CompiledResource, FieldLoadContext, ReadableRecords, RecordRow } from '../resources/compiled-types.js';
import type { View } from '../fields/field-types.js';
import { associationKey } from '../fields/association-key.js';
import type { RecordsQuery } from './records-query.js';

export type { RecordsQuery, ScopeFunction } from './records-query.js';
export { associationKey };

/** The alias of the resource's own table in every records query. */
export const ROW_ALIAS = 'r';

/** What a view selects besides its columns: one aliased subquery per field whose type has a `select`, by field name. */
interface ViewSelections {
  readonly all: readonly AliasedExpression<unknown, string>[];
  readonly byName: ReadonlyMap<string, AliasedExpression<unknown, string>>;
}

// Per compiled resource (a panel compiles its own) and view: the subqueries do not depend on
// the request, so they are built once and every query of that view reuses them.
const selectionsByResource = new WeakMap<CompiledResource, Map<View, ViewSelections>>();

/** The subqueries of a view's fields (association labels and counts, files…), correlated to the row alias `r`. */
function viewSelections(resource: CompiledResource, view: View, registry: ReadonlyMap<string, CompiledResource>): ViewSelections {
  let byView = selectionsByResource.get(resource);
  if (!byView) {
    byView = new Map();
    selectionsByResource.set(resource, byView);
  }
  const cached = byView.get(view);
  if (cached) return cached;
  const eb = expressionBuilder<any, any>();
  const byName = new Map(
    resource
      .fieldsOn(view)
      .filter((field) => field.kind.select !== undefined)
      .map((field) => [field.name, field.kind.select!({ eb, resource, field, registry, rowAlias: ROW_ALIAS, as: associationKey(field) })] as const),
  );
  const selections: ViewSelections = { all: Object.freeze([...byName.values()]), byName };
  byView.set(view, selections);
  return selections;
}

/**
 * The view's subqueries with each association narrowed to what `targetScopes` lets the actor
 * read (`t.id in (<scope>)`, an uncorrelated subquery PostgreSQL computes once per statement),
 * or undefined when no scope narrows anything (an admin's, or no policies): then the
 * subqueries built once per resource and view serve, and so do the statements compiled from them.
 */
function scopedSelections(
  db: Kysely<any>,
  resource: CompiledResource,
  view: View,
  registry: ReadonlyMap<string, CompiledResource>,
  targetScopes: ReadableRecords | undefined,
): ViewSelections | undefined {
  if (!targetScopes) return undefined;
  const fields = resource.fieldsOn(view).filter((field) => field.kind.select !== undefined);
  const narrowed = new Map<string, RecordsQuery>();
  for (const field of fields) {
    if (field.target === undefined) continue;
    const target = registry.get(field.target)!;
    const scope = targetScopes(target);
    if (!scope) continue;
    const unscoped = db.selectFrom(`${target.table} as ${ROW_ALIAS}`);
    const scoped = scope(unscoped);
    if (scoped !== unscoped) narrowed.set(field.name, scoped.clearOrderBy());
  }
  if (narrowed.size === 0) return undefined;
  const eb = expressionBuilder<any, any>();
  const byName = new Map(fields.map((field) => [field.name, field.kind.select!({ eb, resource, field, registry, rowAlias: ROW_ALIAS, as: associationKey(field), targetScope: narrowed.get(field.name) })] as const));
  return { all: [...byName.values()], byName };
}

/** The view's subqueries narrowed to an actor's target scopes (`narrowedSelections`): worked out once per request, then passed to `selectRecords`. */
export type NarrowedSelections = ViewSelections;

/**
 * The view's subqueries narrowed to what an actor's target scopes let them read, or undefined
 * when no scope narrows any (then statements compiled without them serve). A list or a find
 * asks this first, and hands the answer to `selectRecords` rather than the scopes, so the
 * scopes are applied once.
 */
export function narrowedSelections(db: Kysely<any>, resource: CompiledResource, view: View, registry: ReadonlyMap<string, CompiledResource>, targetScopes: ReadableRecords | undefined): NarrowedSelections | undefined {
  return scopedSelections(db, resource, view, registry, targetScopes);
}


// Per compiled resource and view, the fields whose type loads a value (files): the same for every request.
const loadedByResource = new WeakMap<CompiledResource, Map<View, readonly CompiledField[]>>();

/** The fields of `view` whose type turns what its subquery loaded into what serializers read (`kind.load`). */
export function loadedFields(resource: CompiledResource, view: View): readonly CompiledField[] {
  let byView = loadedByResource.get(resource);
  if (!byView) {
    byView = new Map();
    loadedByResource.set(resource, byView);
  }
  let fields = byView.get(view);
  if (!fields) {
    fields = Object.freeze(resource.fieldsOn(view).filter((field) => field.kind.load !== undefined));
    byView.set(view, fields);
  }
  return fields;
}

/**
 * Turns the values the view's subqueries loaded into what serializers read (a file's blob into
 * its file object with its URL), in place, for the fields whose type has a `load`.
 */
export function loadSelectedValues(rows: RecordRow[], resource: CompiledResource, view: View, context: FieldLoadContext, only?: ReadonlySet<string>): void {
  const loaded = loadedFields(resource, view);
  const fields = only === undefined ? loaded : loaded.filter((field) => only.has(field.name));
  if (fields.length === 0) return;
  for (const row of rows) {
    for (const field of fields) {
      const key = associationKey(field);
      row[key] = field.kind.load!(row[key], context);
    }
  }
}

/**
 * Builds the select of one records query: the view's columns, and for each field whose type
 * loads a value with a subquery, that correlated subquery (the `belongs_to` label, the
 * `has_many` count, the `has_one` id, the blobs of a `file` or `files` field as JSON). The page comes back in one statement whatever
 * its size and its number of association and file fields. With
 * `all`, every column of the row is selected (a policy deciding on one record may read any).
 * `from` is the query the select is added to: by default the resource's table as `r`; an
 * index page passes its deferred join (see `pageOfRecords`). The subqueries are built once
 * per resource and view, unless `targetScopes` narrows an association to the rows the actor
 * may read (then they are built for the request, still one statement; `NarrowedSelections`
 * when the caller worked them out already). With `only` (a sparse
 * fieldset: field names of the view), the subqueries of the other fields are left out, and so
 * is their work.
 */
export function selectRecords(
  db: Kysely<any>,
  resource: CompiledResource,
  view: View,
  registry: ReadonlyMap<string, CompiledResource>,
  columnSet: 'view' | 'all' = 'view',
  from: RecordsQuery = db.selectFrom(`${resource.table} as ${ROW_ALIAS}`),
  targetScopes?: ReadableRecords | NarrowedSelections,
  only?: ReadonlySet<string>,
): RecordsQuery {
  const columns = new Set<string>([resource.primaryKey]);
  for (const f of resource.fieldsOn(view)) if (f.column && (only === undefined || only.has(f.name))) columns.add(f.column);
  const selected = columnSet === 'all' ? from.selectAll(ROW_ALIAS) : from.select([...columns].map((column) => `${ROW_ALIAS}.${column}`));
  const narrowed = typeof targetScopes === 'function' ? scopedSelections(db, resource, view, registry, targetScopes) : targetScopes;
  const { all, byName } = narrowed ?? viewSelections(resource, view, registry);
  const subqueries = only === undefined ? all : [...byName].filter(([name]) => only.has(name)).map(([, selection]) => selection);
  return subqueries.length === 0 ? selected : selected.select(subqueries);
}
