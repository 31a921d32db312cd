import { expressionBuilder, sql, type Expression, type SqlBool } from 'kysely';
import type { CompiledResource, ReadableRecords } from '../resources/compiled-types.js';
import type { View } from '../fields/field-types.js';
import { ROW_ALIAS, narrowedSelections, selectRecords } from './record-select.js';
import type { RecordsQuery, ScopeFunction } from './records-query.js';
import type { RecordRow } from './record-row.js';
import type { RecordsSort } from './record-reads.js';
import type { TotalCountSource } from './record-counts.js';
import { EXACT_COUNT, DEFAULT_EXACT_BELOW, type CountStrategy } from './count-strategy.js';
import { KEYSET_ID, KEYSET_VALUE, keysetColumns, keysetValueDigest, reversedOrder, rowsAfter, takePosition, type KeysetOrder, type KeysetPosition } from './keyset-order.js';
import { resolveFileUrls } from './record-file-urls.js';
import { countStatements } from './list-statements.js';
import type { RecordsLayer } from './records-layer.js';

/** What `RecordsRepository.keysetPage` takes: a list's scope, filters and order, and where the page starts. */
export interface KeysetPageInput {
  resource: CompiledResource;
  view: View;
  perPage: number;
  /** The order; default the resource's own. The primary key, in the same direction, breaks ties. */
  sort?: RecordsSort | undefined;
  /** The policy scope: the rows the actor may see. */
  scope?: ScopeFunction | undefined;
  /** Filters and search, after the scope. */
  where?: ScopeFunction | undefined;
  /** The actor's scope of each association target. */
  readable?: ReadableRecords | undefined;
  /** A sparse fieldset: the view's field names to load. */
  fields?: ReadonlySet<string> | undefined;
  /** The page that follows this place (the rows after it). */
  after?: KeysetPosition | undefined;
  /** The page that precedes this place (the rows before it); exclusive with `after`. */
  before?: KeysetPosition | undefined;
  /** A total besides the page: `exact` (a count statement) or `estimate` (the planner's, exact below the estimate strategy's threshold); none by default. */
  total?: 'exact' | 'estimate' | undefined;
}

/** One page of a keyset list: its rows in the list's order, whether there are more on each side, and the places a next or previous page starts from. */
export interface KeysetPage {
  readonly rows: RecordRow[];
  readonly hasNextPage: boolean;
  readonly hasPrevPage: boolean;
  /** The place of the page's first row (the previous page ends before it); undefined for an empty page. */
  readonly first: KeysetPosition | undefined;
  /** The place of the page's last row (the next page starts after it); undefined for an empty page. */
  readonly last: KeysetPosition | undefined;
  /** Present when `total` was asked. */
  readonly totalCount?: number;
  /** `estimate` when `totalCount` is the planner's estimate. */
  readonly totalCountSource?: TotalCountSource;
  /**
   * True when the place was a value too long to carry (`KeysetPosition.digest`) and its row is
   * gone or holds another value now: the page cannot be placed, and has no rows.
   */
  readonly staleCursor?: true;
}

/** The alias of the probe's answer: whether a row lies on the other side of the cursor. */
const OTHER_SIDE = 'panel_keyset_other_side';

/** The alias of the text of a long value's row, read to check it against the position's digest. */
const ANCHOR = 'panel_keyset_anchor';

/** The page's ids in `order`, after `cursor` when there is one, at most `limit`: each of `rowsAfter`'s ranges read in order with its own limit, merged. */
function idsAfter(scoped: RecordsQuery, order: KeysetOrder, cursor: KeysetPosition | undefined, limit: number, anchored: Expression<unknown> | undefined): RecordsQuery | Expression<unknown> {
  const column = `${ROW_ALIAS}.${order.column}`;
  const key = `${ROW_ALIAS}.${order.primaryKey}`;
  const ordered = (query: RecordsQuery) => (order.column === order.primaryKey ? query : query.orderBy(column, order.direction)).orderBy(key, order.direction).limit(limit);
  if (cursor === undefined) return ordered(scoped.select(`${key} as id`));
  const ranges = rowsAfter(expressionBuilder<any, any>(), order, cursor, false, anchored);
  if (ranges.length === 1) return ordered(scoped.where(ranges[0]!).select(`${key} as id`));
  const [first, second] = ranges.map((range) => ordered(scoped.where(range).select([`${key} as id`, `${column} as k`])));
  const direction = sql.raw(order.direction);
  return sql`select u.id from ((${first}) union all (${second})) as u order by u.k ${direction}, u.id ${direction} limit ${sql.lit(limit)}`;
}

/** Whether a row of `scoped` lies at or before `cursor` in `order` (the other side of the page): one `exists` per range. */
function probeBefore(scoped: RecordsQuery, order: KeysetOrder, cursor: KeysetPosition | undefined, anchored: Expression<unknown> | undefined): Expression<SqlBool> {
  if (cursor === undefined) return sql<SqlBool>`false`;
  const eb = expressionBuilder<any, any>();
  return eb.or(rowsAfter(eb, reversedOrder(order), cursor, true, anchored).map((range) => eb.exists(scoped.where(range).select(sql`1`.as('one')))));
}

/** The count strategy of `total`: the resource's or the layer's when it is exact (its reuse kept), else the plain exact count; the estimate with its default threshold. */
function totalStrategy(total: 'exact' | 'estimate', own: CountStrategy): CountStrategy {
  if (total === 'estimate') return { strategy: 'estimate', exactBelow: DEFAULT_EXACT_BELOW };
  return own.strategy === 'exact' ? own : EXACT_COUNT;
}

/**
 * One page of a list in keyset (cursor) mode, in one statement: the page's ids are an index
 * seek past the cursor (`rowsAfter`, no `OFFSET`: page 100,000 costs what page 1 does), read
 * `perPage + 1` deep so the extra row says whether more follow, and an `exists` probe in the
 * same statement says whether any row lies on the other side. A page before a cursor reads
 * the order backwards and is turned round. The scope, filters and search apply to every page;
 * the cursor only positions (a deleted boundary row changes nothing: the place is values).
 * Counting is a second statement, only when `total` asks for it.
 */
export async function keysetPage(layer: RecordsLayer, input: KeysetPageInput): Promise<KeysetPage> {
  const { db, registry } = layer;
  const { resource, view, perPage, fields, where } = input;
  const sort = input.sort ?? resource.defaultOrder;
  const order: KeysetOrder = { column: sort.column, direction: sort.direction, primaryKey: resource.primaryKey };
  const backwards = input.before !== undefined;
  const cursor = input.before ?? input.after;
  const reading = backwards ? reversedOrder(order) : order;
  const table = db.selectFrom(`${resource.table} as ${ROW_ALIAS}`);
  const policed = input.scope ? input.scope(table) : table;
  // The keyset's order is the page's: an order a scope added would break the seek.
  const scoped = (where ? where(policed) : policed).clearOrderBy();
  // A value too long for the cursor is read from its row, by its key, in the same statement (`anchor`, never through the scope: it only places the page).
  const anchorOf = (column: string) => sql`(select ${sql.ref(`a.${column}`)} from ${sql.table(resource.table)} as a where ${sql.ref(`a.${resource.primaryKey}`)} = ${cursor!.id})`;
  const anchored = cursor?.digest === undefined ? undefined : anchorOf(order.column);
  const ids = idsAfter(scoped, reading, cursor, perPage + 1, anchored);
  const probe = probeBefore(scoped, reading, cursor, anchored);
  const from = db
    .selectFrom((anchored === undefined ? sql`(select ${probe} as other)` : sql`(select ${probe} as other, ${anchored}::text as anchor)`).as('q'))
    // A left join: the probe's one row comes back even when the page is empty.
    .leftJoin(sql`(select * from unnest(array(${ids})) with ordinality as page(id, position))`.as('p'), (join) => join.onTrue())
    .leftJoin(`${resource.table} as ${ROW_ALIAS}`, `${ROW_ALIAS}.${resource.primaryKey}`, 'p.id');
  const [value, id] = keysetColumns(order);
  const selections = [sql.ref('q.other').as(OTHER_SIDE), value.as(KEYSET_VALUE), id.as(KEYSET_ID), ...(anchored === undefined ? [] : [sql.ref('q.anchor').as(ANCHOR)])];
  const page = selectRecords(db, resource, view, registry, 'view', from, narrowedSelections(db, resource, view, registry, input.readable), fields)
    .select(selections)
    .orderBy('p.position')
    .execute();
  const strategy = input.total === undefined ? undefined : totalStrategy(input.total, resource.count ?? layer.countStrategy);
  const counting = strategy === undefined ? undefined : layer.counts.count({ table: resource.table, statements: countStatements(scoped, strategy), strategy });
  const [selected, counted] = await Promise.all([page, counting]);
  const otherSide = (selected[0] as Record<string, unknown> | undefined)?.[OTHER_SIDE] === true;
  if (cursor?.digest !== undefined) {
    const anchor = (selected[0] as Record<string, unknown> | undefined)?.[ANCHOR];
    if (typeof anchor !== 'string' || keysetValueDigest(anchor) !== cursor.digest) return { rows: [], hasNextPage: false, hasPrevPage: false, first: undefined, last: undefined, staleCursor: true };
  }
  const rows = (selected as Record<string, unknown>[]).filter((row) => row[KEYSET_ID] !== null);
  const more = rows.length > perPage;
  if (more) rows.pop();
  if (backwards) rows.reverse();
  const positions = rows.map((row) => {
    delete row[OTHER_SIDE];
    delete row[ANCHOR];
    return takePosition(row);
  });
  resolveFileUrls(layer, rows as RecordRow[], resource, view, fields);
  return {
    rows: rows as RecordRow[],
    hasNextPage: backwards ? otherSide : more,
    hasPrevPage: backwards ? more : otherSide,
    first: positions[0],
    last: positions.at(-1),
    ...(counted === undefined ? {} : { totalCount: counted.count, ...(counted.source === undefined ? {} : { totalCountSource: counted.source }) }),
  };
}
