import { sql, type CompiledQuery, type Kysely } from 'kysely';
import type { CompiledResource } from '../resources/compiled-types.js';
import type { View } from '../fields/field-types.js';
import type { CountStrategy } from './count-strategy.js';
import { PAGE_ALIAS, pageFrom, pageIdsOf, type PageOrder } from './page-of-records.js';
import { selectRecords, type NarrowedSelections } from './record-select.js';
import { countingQuery } from './record-counts.js';
import type { RecordsQuery } from './records-query.js';

/**
 * The statements of an index page: the page (its rows with the view's columns and association
 * values, through the deferred join on its ids) and the count of the list's rows; under the
 * `estimate` count strategy, also the statement whose plan estimates that count. (A type, not
 * an interface: the statement cache takes it as a record of statements by name.)
 */
export type ListStatements = {
  readonly page: CompiledQuery;
  readonly count: CompiledQuery;
  readonly estimate?: CompiledQuery;
};

/**
 * The most list shapes the statement cache keeps per records layer. A shape is the set of
 * filters and operators a client sends with a sort, so a client could otherwise grow the cache
 * without bound; past this many, a new shape is built per request, and nothing more is kept.
 */
export const MAX_LIST_SHAPES = 256;

/** The statement cache's bucket of list shapes (one per records layer). */
export const LIST_SHAPES = 'list';

/** What an index page's statements are built from: the list's rows (`scoped`: the table through the scope and filters), the page and the view. */
export interface ListStatementsInput {
  readonly db: Kysely<any>;
  readonly resource: CompiledResource;
  readonly view: View;
  readonly registry: ReadonlyMap<string, CompiledResource>;
  readonly scoped: RecordsQuery;
  readonly order: PageOrder;
  readonly limit: number;
  readonly offset: number;
  readonly strategy: CountStrategy;
  readonly narrowed?: NarrowedSelections | undefined;
  readonly fields?: ReadonlySet<string> | undefined;
}

/**
 * Builds and compiles an index page's statements. The scope's conditions (the policy's, the
 * filters', the search's) are in `scoped`, built once for the ids and the count. The records
 * layer calls this for every list; the statement cache may answer instead with the same
 * statements compiled once for the list's shape (`StatementCache`).
 */
export function listStatements(input: ListStatementsInput): ListStatements {
  const { db, resource, view, registry, scoped, order, limit, offset, strategy, narrowed, fields } = input;
  const ids = pageIdsOf(resource, scoped, { order, limit, offset });
  const page = selectRecords(db, resource, view, registry, 'view', pageFrom(db, resource, ids), narrowed, fields).orderBy(`${PAGE_ALIAS}.position`).compile();
  return { page, ...countStatements(scoped, strategy) };
}

/**
 * The count of a list's rows (`scoped`) compiled, and, under the `estimate` strategy, the
 * statement whose plan estimates it (`RecordCounts.count` takes both).
 */
export function countStatements(scoped: RecordsQuery, strategy: CountStrategy): { readonly count: CompiledQuery; readonly estimate?: CompiledQuery } {
  // A scope may order its query; `count(*)` with an `order by` is refused by PostgreSQL (42803).
  const rows = scoped.clearOrderBy();
  const count = countingQuery(rows).compile();
  if (strategy.strategy !== 'estimate') return { count };
  return { count, estimate: rows.clearSelect().select(sql<number>`1`.as('one')).compile() };
}
