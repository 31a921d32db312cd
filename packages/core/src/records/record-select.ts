import { expressionBuilder, type AliasedExpression, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { CompiledField, CompiledResource } from '../resources/compiled-resource.js';
import type { View } from '../fields/field-types.js';
import { attachedFilesSubquery, isFileField } from '../attachments/attachment-select.js';

/** The alias of the resource's own table in every records query. */
export const ROW_ALIAS = 'r';

/** A query on a resource's table as a policy scope receives and returns it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RecordsQuery = SelectQueryBuilder<any, any, any>;

/** Narrows a records query; a policy scope's `resolve()` is one. */
export type ScopeFunction = (query: RecordsQuery) => RecordsQuery;

/** The key under which a row carries an association value computed in SQL. */
export const associationKey = (field: CompiledField): string => `__${field.type}__${field.name}`;

/** What a view selects besides its columns: one aliased subquery per association and file field. */
type ViewSelections = readonly AliasedExpression<unknown, string>[];

// Per compiled resource (a panel compiles its own) and view: the subqueries do not depend on
// the request, so they are built once and every query of that view reuses them.
const selectionsByResource = new WeakMap<CompiledResource, Map<View, ViewSelections>>();

/** The association subqueries, then the file subqueries, of a view, correlated to the row alias `r`. */
function viewSelections(resource: CompiledResource, view: View, registry: ReadonlyMap<string, CompiledResource>): ViewSelections {
  let byView = selectionsByResource.get(resource);
  if (!byView) selectionsByResource.set(resource, (byView = new Map()));
  const cached = byView.get(view);
  if (cached) return cached;
  const eb = expressionBuilder<any, any>();
  const associations = resource.fieldsOn(view).filter((f) => f.type === 'belongs_to' || f.type === 'has_many' || f.type === 'has_one');
  const files = resource.fieldsOn(view).filter(isFileField);
  const selections = Object.freeze([
    ...associations.map((f) => {
      const target = registry.get(f.target!)!;
      const from = `${target.table} as t`;
      switch (f.type) {
        case 'belongs_to':
          return eb.selectFrom(from).select(`t.${f.labelColumn}`).whereRef(`t.${target.primaryKey}`, '=', `${ROW_ALIAS}.${f.column}`).as(associationKey(f));
        case 'has_many':
          return eb.selectFrom(from).select((inner) => inner.fn.countAll<number>().as('count')).whereRef(`t.${f.foreignKey}`, '=', `${ROW_ALIAS}.${resource.primaryKey}`).as(associationKey(f));
        default:
          return eb.selectFrom(from).select(`t.${target.primaryKey}`).whereRef(`t.${f.foreignKey}`, '=', `${ROW_ALIAS}.${resource.primaryKey}`).orderBy(`t.${target.primaryKey}`).limit(1).as(associationKey(f));
      }
    }),
    ...files.map((f) => attachedFilesSubquery(eb, resource, f, ROW_ALIAS, associationKey(f))),
  ]);
  byView.set(view, selections);
  return selections;
}

/**
 * Builds the select of one records query: the view's columns, and for each association a
 * correlated subquery (the `belongs_to` label, the `has_many` count, the `has_one` id, the
 * blobs of a `file` or `files` field as JSON). The page comes back in one statement whatever
 * its size and its number of association and file fields. With
 * `all`, every column of the row is selected (a policy deciding on one record may read any).
 * `from` is the query the select is added to: by default the resource's table as `r`; an
 * index page passes its deferred join (see `pageOfRecords`). The subqueries are built once
 * per resource and view.
 */
export function selectRecords(
  db: Kysely<any>,
  resource: CompiledResource,
  view: View,
  registry: ReadonlyMap<string, CompiledResource>,
  columnSet: 'view' | 'all' = 'view',
  from: RecordsQuery = db.selectFrom(`${resource.table} as ${ROW_ALIAS}`),
): RecordsQuery {
  const columns = new Set<string>([resource.primaryKey]);
  for (const f of resource.fieldsOn(view)) if (f.column) columns.add(f.column);
  const selected = columnSet === 'all' ? from.selectAll(ROW_ALIAS) : from.select([...columns].map((column) => `${ROW_ALIAS}.${column}`));
  const subqueries = viewSelections(resource, view, registry);
  return subqueries.length === 0 ? selected : selected.select(subqueries);
}
