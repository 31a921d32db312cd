import { sql, type Expression, type Kysely } from 'kysely';
import type { CompiledResource } from '../resources/compiled-resource.js';
import { ROW_ALIAS, type RecordsQuery, type ScopeFunction } from './record-select.js';

/** The alias of the page's ids (`id`, `position`) in an index query. */
export const PAGE_ALIAS = 'p';

/** An order already checked against the resource's sortable fields. */
export interface PageOrder {
  readonly column: string;
  readonly direction: 'asc' | 'desc';
}

/**
 * The deferred join of an index page: the ids of the page are selected first, through the
 * scope, in the page's order, with `LIMIT/OFFSET` (an index-only scan when an index covers the
 * order, so a deep `OFFSET` skips index entries rather than rows), then joined back to the
 * table by primary key in that order. The view's columns and association subqueries are then
 * computed for the page's rows only, never for the skipped ones. PostgreSQL computes the
 * select list of every row an `OFFSET` skips when the order needs no sort node; on page 2000
 * of 100,000 rows that was 48,000 times each association subquery.
 *
 * `pageIds` is the ids' query, `pageFrom` the `FROM` of the page query around it (`p.id`,
 * `p.position` joined to the table as `r`).
 */
export function pageIds(db: Kysely<any>, resource: CompiledResource, input: { scope: ScopeFunction; order: PageOrder; limit: number; offset: number }): RecordsQuery {
  return pageIdsOf(resource, input.scope(db.selectFrom(`${resource.table} as ${ROW_ALIAS}`)), input);
}

/**
 * `pageIds` from the table already narrowed by the scope (`scoped`, the rows of the list): a
 * list builds the scope's conditions once, for its ids and for its count.
 */
export function pageIdsOf(resource: CompiledResource, scoped: RecordsQuery, input: { order: PageOrder; limit: number; offset: number }): RecordsQuery {
  const { order, limit, offset } = input;
  const key = `${ROW_ALIAS}.${resource.primaryKey}`;
  let ids = scoped.select(key).orderBy(`${ROW_ALIAS}.${order.column}`, order.direction);
  if (order.column !== resource.primaryKey) ids = ids.orderBy(key, order.direction);
  return ids.limit(limit).offset(offset);
}

/** The `FROM` of an index page around its ids' query (`pageIds`). */
export function pageFrom(db: Kysely<any>, resource: CompiledResource, ids: Expression<unknown>): RecordsQuery {
  // array(…) keeps the subquery's order, and `with ordinality` numbers it: the outer query
  // orders by that number, so even a scope's own `order by` is kept as it was.
  const page = sql`(select * from unnest(array(${ids})) with ordinality as page(id, position))`;
  return db.selectFrom(page.as(PAGE_ALIAS)).innerJoin(`${resource.table} as ${ROW_ALIAS}`, `${ROW_ALIAS}.${resource.primaryKey}`, `${PAGE_ALIAS}.id`);
}
