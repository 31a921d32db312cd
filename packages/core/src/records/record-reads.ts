import type { Kysely } from 'kysely';
import type { CompiledResource, ReadableRecords } from '../resources/compiled-types.js';
import type { View } from '../fields/field-types.js';
import { RecordNotFoundError } from '../errors/panel-errors.js';
import { ROW_ALIAS, narrowedSelections, selectRecords } from './record-select.js';
import type { RecordsQuery, ScopeFunction } from './records-query.js';
import type { RecordRow } from './record-row.js';
import type { TotalCountSource } from './record-counts.js';
import { whereShape } from './record-filters.js';
import { LIST_SHAPES, MAX_LIST_SHAPES, listStatements } from './list-statements.js';
import { resolveFileUrls } from './record-file-urls.js';
import type { RecordsLayer } from './records-layer.js';
import type { RecordId } from '../resources/record-key.js';

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
   * scope that lets every row through, are compiled once per shape (`StatementCache`).
   */
  where?: ScopeFunction | undefined;
  /** The actor's scope of each association target: labels, ids and counts cover only what it may read. */
  readable?: ReadableRecords | undefined;
  /** A sparse fieldset: the view's field names to load (the others' subqueries are not run). */
  fields?: ReadonlySet<string> | undefined;
  /**
   * Work on the page's rows that needs no total (serializing them, loading what `include`
   * embeds): started as soon as the rows arrive, while the count is still being read, so that
   * its statements and its CPU do not wait for the count. The list resolves once both are done.
   */
  withRows?: ((rows: RecordRow[]) => Promise<void> | void) | undefined;
}

/** What `RecordsRepository.find` takes. */
export interface FindRecordInput {
  resource: CompiledResource;
  view: View;
  id: RecordId;
  /**
   * The row's columns: `'all'` (the default: a policy deciding on the record may read any) or
   * `'view'`, the view's own (what its serializers read), when nothing else reads the row.
   */
  columns?: 'view' | 'all' | undefined;
  scope?: ScopeFunction | undefined;
  readable?: ReadableRecords | undefined;
  fields?: ReadonlySet<string> | undefined;
}

/** The shape of a list narrowed by nothing: its statements depend on the resource, view, order and strategy alone. */
const UNFILTERED = Object.freeze({ key: '', values: Object.freeze([]) as readonly unknown[], withValues: () => (query: RecordsQuery) => query });

/** The statement cache's bucket of finds (per resource and view: the app's own shapes). */
const FINDS = 'find';

/**
 * One page of records (see `RecordsRepository.list`). One path: the list's statements are built
 * by `listStatements` from the values of this request, unless the statement cache answers with
 * the same statements compiled once for the list's shape. A list has a shape when its
 * statements depend on nothing but the resource, view, order, count strategy and which filters
 * it has: the scope lets every row through (no policy, an admin's: it returns the query it was
 * given), no association is narrowed to the actor, no sparse fieldset, and it is narrowed by
 * nothing or by filters whose SQL is fixed by their operators (`whereShape`).
 */
export async function listRecords(layer: RecordsLayer, input: ListRecordsInput): Promise<RecordsPage> {
  const { db, registry } = layer;
  const { resource, view, page, perPage, readable, fields, where } = input;
  const order = input.sort ?? resource.defaultOrder;
  const strategy = resource.count ?? layer.countStrategy;
  const narrowed = narrowedSelections(db, resource, view, registry, readable);
  const table = db.selectFrom(`${resource.table} as ${ROW_ALIAS}`);
  const policed = input.scope ? input.scope(table) : table;
  const shape = narrowed === undefined && fields === undefined && policed === table ? (where ? whereShape(where) : UNFILTERED) : undefined;
  const values = [...(shape?.values ?? []), perPage, (page - 1) * perPage];
  const build = (values: readonly unknown[]) => {
    // With a shape, its conditions are built from `values` (markers, when the cache compiles it once); else the request's own.
    const scoped = shape ? shape.withValues(values.slice(0, -2))(db.selectFrom(`${resource.table} as ${ROW_ALIAS}`)) : where ? where(policed) : policed;
    return listStatements({ db, resource, view, registry, scoped, order, limit: values.at(-2) as number, offset: values.at(-1) as number, strategy, narrowed, fields });
  };
  const key = shape && `${resource.name}\u0000${view}\u0000${order.column} ${order.direction}\u0000${strategy.strategy}\u0000${shape.key}`;
  const statements = (key !== undefined && layer.statements.statements({ bucket: LIST_SHAPES, max: MAX_LIST_SHAPES, key, values }, build)) || build(values);
  // The count first: it is the longer of the two statements, and the page's rows are read while it runs.
  const counting = layer.counts.count({ table: resource.table, statements, strategy });
  const pageRows = db.executeQuery(statements.page).then(async (result) => {
    const rows = result.rows as RecordRow[];
    resolveFileUrls(layer, rows, resource, view, fields);
    await input.withRows?.(rows);
    return rows;
  });
  const [rows, counted] = await Promise.all([pageRows, counting]);
  if (counted.source === undefined) return { rows, totalCount: counted.count };
  const seen = (page - 1) * perPage + rows.length;
  if (rows.length < perPage && (rows.length > 0 || page === 1)) return { rows, totalCount: seen };
  return { rows, totalCount: Math.max(counted.count, seen), totalCountSource: counted.source };
}

/**
 * The record with that id visible through `scope`, on `db` (default the layer's), or
 * `RecordNotFoundError` (see `RecordsRepository.find`). One path, as for lists: the find's
 * statement is built for this request unless the statement cache answers with the one compiled
 * once for the resource and view (a scope that lets every record through, no narrowed
 * association, no sparse fieldset).
 */
export async function findRecord(layer: RecordsLayer, input: FindRecordInput, db: Kysely<any> = layer.db): Promise<RecordRow> {
  const { resource, view, id, readable, fields } = input;
  const columns = input.columns ?? 'all';
  const narrowed = narrowedSelections(db, resource, view, layer.registry, readable);
  // Without a scope, the table is built only when the statement cache does not answer.
  const table = input.scope ? db.selectFrom(`${resource.table} as ${ROW_ALIAS}`) : undefined;
  const policed = table && input.scope!(table);
  const whole = narrowed === undefined && fields === undefined && policed === table;
  const build = (values: readonly unknown[]) => ({
    find: selectRecords(db, resource, view, layer.registry, columns, policed, narrowed, fields).where(`${ROW_ALIAS}.${resource.primaryKey}`, '=', values[0] as RecordId).compile(),
  });
  const statements = (whole && layer.statements.statements({ bucket: FINDS, key: `${resource.name}\u0000${view}\u0000${columns}`, values: [id] }, build)) || build([id]);
  const row = (await db.executeQuery(statements.find)).rows[0] as RecordRow | undefined;
  if (!row) throw new RecordNotFoundError(resource.name, id);
  resolveFileUrls(layer, [row], resource, view, fields);
  return row;
}
