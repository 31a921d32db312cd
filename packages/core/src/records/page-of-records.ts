import { CompiledQuery, PostgresQueryCompiler, createQueryId, sql, type Expression, type Kysely } from 'kysely';
import type { View } from '../fields/field-types.js';
import type { CompiledResource } from '../resources/compiled-resource.js';
import { ROW_ALIAS, selectRecords, type RecordsQuery, type ScopeFunction } from './record-select.js';

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

/** The `FROM` of an index page around its ids' query (`pageIds`, or a marker where a compiled statement takes them: `PageStatements`). */
export function pageFrom(db: Kysely<any>, resource: CompiledResource, ids: Expression<unknown>): RecordsQuery {
  // array(…) keeps the subquery's order, and `with ordinality` numbers it: the outer query
  // orders by that number, so even a scope's own `order by` is kept as it was.
  const page = sql`(select * from unnest(array(${ids})) with ordinality as page(id, position))`;
  return db.selectFrom(page.as(PAGE_ALIAS)).innerJoin(`${resource.table} as ${ROW_ALIAS}`, `${ROW_ALIAS}.${resource.primaryKey}`, `${PAGE_ALIAS}.id`);
}

/**
 * The select of an index page on a view (every column of the view and its subqueries, around
 * the page's ids), compiled once with a place for the ids' query: the text before it and after
 * it, and the parameters before it. The ids' query (scope, filters, order, limit and offset) is
 * compiled per request, numbering its parameters after these (`withPageIds`).
 */
export interface PageStatement {
  readonly before: string;
  readonly after: string;
  readonly parameters: readonly unknown[];
}

/** Where the ids' query goes in a page statement's text while it is compiled. */
const PAGE_IDS = '\u0000page ids\u0000';

/** A compiler of an ids' query whose parameters come after `offset` others in the statement (`$<offset + 1>`…). */
class ParametersAfter extends PostgresQueryCompiler {
  readonly #offset: number;

  constructor(offset: number) {
    super();
    this.#offset = offset;
  }

  protected override getCurrentParameterPlaceholder(): string {
    return `$${this.numParameters + this.#offset}`;
  }
}

/** The ids' query compiled to follow a page statement's parameters (`$<n + 1>`…, n the statement's own). */
export function compiledPageIds(statement: PageStatement, ids: RecordsQuery): CompiledQuery {
  return new ParametersAfter(statement.parameters.length).compileQuery(ids.toOperationNode(), createQueryId());
}

/** A page statement with the page's ids' query, compiled by `compiledPageIds`, in its place. */
export function withCompiledPageIds(statement: PageStatement, ids: CompiledQuery): CompiledQuery {
  return CompiledQuery.raw(`${statement.before}(${ids.sql})${statement.after}`, [...statement.parameters, ...ids.parameters]);
}

/**
 * A page statement with the page's ids' query in its place: the same text and parameters as
 * the whole query compiled at once (the ids' parameters follow the subqueries' in the text).
 */
export function withPageIds(statement: PageStatement, ids: RecordsQuery): CompiledQuery {
  return withCompiledPageIds(statement, compiledPageIds(statement, ids));
}

/**
 * The page statement of `resource` on `view`, compiled with a marker where the ids' query goes,
 * or null when its text has a parameter after the ids (the ids' parameters could not simply
 * follow the others): such a view's page is compiled whole per request.
 */
export function compilePageStatement(db: Kysely<any>, resource: CompiledResource, view: View, registry: ReadonlyMap<string, CompiledResource>): PageStatement | null {
  const marked = pageFrom(db, resource, sql.raw(PAGE_IDS));
  const { sql: text, parameters } = selectRecords(db, resource, view, registry, 'view', marked).orderBy(`${PAGE_ALIAS}.position`).compile();
  const [before, after, ...more] = text.split(PAGE_IDS);
  return after !== undefined && more.length === 0 && !/\$\d/.test(after) ? { before: before!, after, parameters } : null;
}
