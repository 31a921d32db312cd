import { CompiledQuery, type Kysely } from 'kysely';
import type { CompiledResource, ReadableRecords } from '../resources/compiled-types.js';
import type { View } from '../fields/field-types.js';
import { RecordNotFoundError } from '../errors/panel-errors.js';
import { ROW_ALIAS, narrowedSelections, selectRecords } from './record-select.js';
import type { ScopeFunction } from './records-query.js';
import type { RecordRow } from './record-row.js';
import type { CountAnswer, TotalCountSource } from './record-counts.js';
import { PAGE_ALIAS, compiledPageIds, pageFrom, pageIdsOf, withCompiledPageIds, withPageIds } from './page-of-records.js';
import { whereShape } from './record-filters.js';
import { countingQuery } from './record-counts.js';
import { resolveFileUrls } from './record-file-urls.js';
import type { RecordsLayer } from './records-layer.js';

/** A column to sort an index by, already checked against the resource's sortable fields. */
export interface RecordsSort {
  readonly column: string;
  readonly direction: 'asc' | 'desc';
}

/** One index page and the total the pagination envelope needs. */
export interface RecordsPage {
  readonly rows: RecordRow[];
  readonly totalCount: number;
  /**
   * Present when `totalCount` is not an exact count started after the request, under an
   * opt-in count strategy: `estimate` (the planner's figure) or `cached` (an exact count at
   * most the strategy's `maxAgeMs` old). Absent for the default exact count.
   */
  readonly totalCountSource?: TotalCountSource;
}

/** What `RecordsRepository.list` takes. */
export interface ListRecordsInput {
  resource: CompiledResource;
  view: View;
  page: number;
  perPage: number;
  sort?: RecordsSort | undefined;
  /** The policy scope: the rows the actor may see. */
  scope?: ScopeFunction | undefined;
  /**
   * Narrows the list after the scope: filters and search (`recordsWhere`). Filters alone, under a
   * scope that lets every row through, are compiled once per shape (`ListTemplates`).
   */
  where?: ScopeFunction | undefined;
  /** The actor's scope of each association target: labels, ids and counts cover only what it may read. */
  readable?: ReadableRecords | undefined;
  /** A sparse fieldset: the view's field names to load (the others' subqueries are not run). */
  fields?: ReadonlySet<string> | undefined;
}

/** What `RecordsRepository.find` takes. */
export interface FindRecordInput {
  resource: CompiledResource;
  view: View;
  id: number;
  scope?: ScopeFunction | undefined;
  readable?: ReadableRecords | undefined;
  fields?: ReadonlySet<string> | undefined;
}

const identity: ScopeFunction = (query) => query;

/** One page of records (see `RecordsRepository.list`). */
export async function listRecords(layer: RecordsLayer, input: ListRecordsInput): Promise<RecordsPage> {
  const { db, registry } = layer;
  const { resource, view, page, perPage, readable, fields, where } = input;
  const order = input.sort ?? resource.defaultOrder;
  const limit = perPage;
  const offset = (page - 1) * perPage;
  const narrowed = narrowedSelections(db, resource, view, registry, readable);
  // The view's whole page statement is compiled once (only the ids' query is compiled per
  // request); a sparse fieldset or association values narrowed to the actor's scopes build theirs.
  const statement = narrowed === undefined && fields === undefined ? layer.statements.page(resource, view) : undefined;
  const strategy = resource.count ?? layer.countStrategy;
  const table = db.selectFrom(`${resource.table} as ${ROW_ALIAS}`);
  // A scope that lets every row through (no policy, an admin's) returns the query it was given.
  const policed = input.scope ? input.scope(table) : table;
  const exact = strategy.strategy === 'exact' ? strategy : undefined;
  const shape = statement && where && policed === table && exact ? whereShape(where) : undefined;
  const shaped =
    shape &&
    layer.listTemplates.statements(`${resource.name}\u0000${view}\u0000${order.column} ${order.direction}\u0000${shape.key}`, [...shape.values, limit, offset], (values) => {
      const scoped = shape.withValues(values.slice(0, -2))(db.selectFrom(`${resource.table} as ${ROW_ALIAS}`));
      const ids = pageIdsOf(resource, scoped, { order, limit: values.at(-2) as number, offset: values.at(-1) as number });
      return { ids: compiledPageIds(statement!, ids), count: countingQuery(scoped.clearOrderBy()).compile() };
    });
  let pageRows: Promise<unknown[]>;
  let counting: Promise<CountAnswer>;
  if (shaped && exact) {
    pageRows = db.executeQuery(withCompiledPageIds(statement!, shaped.ids)).then((result) => result.rows);
    counting = layer.counts.exactCount(shaped.count, exact);
  } else {
    // The scope's conditions (the policy's, the filters', the search's) are built once, for the ids and the count.
    const scoped = where ? where(policed) : policed;
    const ids = pageIdsOf(resource, scoped, { order, limit, offset });
    pageRows = statement
      ? db.executeQuery(withPageIds(statement, ids)).then((result) => result.rows)
      : selectRecords(db, resource, view, registry, 'view', pageFrom(db, resource, ids), narrowed, fields).orderBy(`${PAGE_ALIAS}.position`).execute();
    // A scope may order its query; `count(*)` with an `order by` is refused by PostgreSQL (42803).
    counting = layer.counts.count({ table: resource.table, rows: scoped.clearOrderBy(), strategy });
  }
  const [rows, counted] = await Promise.all([pageRows, counting]);
  resolveFileUrls(layer, rows as RecordRow[], resource, view, fields);
  if (counted.source === undefined) return { rows: rows as RecordRow[], totalCount: counted.count };
  const seen = (page - 1) * perPage + rows.length;
  if (rows.length < perPage && (rows.length > 0 || page === 1)) return { rows: rows as RecordRow[], totalCount: seen };
  return { rows: rows as RecordRow[], totalCount: Math.max(counted.count, seen), totalCountSource: counted.source };
}

/** The record with that id visible through `scope`, on `db` (default the layer's), or `RecordNotFoundError` (see `RecordsRepository.find`). */
export async function findRecord(layer: RecordsLayer, input: FindRecordInput, db: Kysely<any> = layer.db): Promise<RecordRow> {
  const { resource, view, id, readable, fields } = input;
  const scope = input.scope ?? identity;
  const narrowed = narrowedSelections(db, resource, view, layer.registry, readable);
  // A sparse fieldset, or association values narrowed to the actor's scopes, is built for this
  // request; the full view's statement is compiled once.
  const base = db === layer.db && !narrowed && fields === undefined ? layer.statements.statement(resource, view) : undefined;
  const scoped = scope(base?.query ?? selectRecords(db, resource, view, layer.registry, 'all', undefined, narrowed, fields));
  // A scope that lets every record through (no policy, an admin's) returns the query it was
  // given: the statement compiled once for the resource and view is sent with this id.
  const row =
    base !== undefined && base.idAt >= 0 && scoped === base.query
      ? ((await db.executeQuery(CompiledQuery.raw(base.sql, base.parameters.with(base.idAt, id)))).rows[0] as RecordRow | undefined)
      : await scoped.where(`${ROW_ALIAS}.${resource.primaryKey}`, '=', id).executeTakeFirst();
  if (!row) throw new RecordNotFoundError(resource.name, id);
  resolveFileUrls(layer, [row as RecordRow], resource, view, fields);
  return row as RecordRow;
}
