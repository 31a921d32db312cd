import type { Kysely } from 'kysely';
import type { CompiledResource } from '../resources/compiled-types.js';
import type { View } from '../fields/field-types.js';
import { ROW_ALIAS, selectRecords } from './record-select.js';
import { compilePageStatement, type PageStatement } from './page-of-records.js';
import type { RecordsQuery } from './records-query.js';

/** The select of one record on a view, and its statement compiled with the primary key's value at `idAt` among the parameters. */
export interface FindStatement {
  readonly query: RecordsQuery;
  readonly sql: string;
  readonly parameters: readonly unknown[];
  readonly idAt: number;
}

/** A find statement's compiled text, the same on any Kysely of the panel's database. */
type CompiledFind = Pick<FindStatement, 'sql' | 'parameters' | 'idAt'>;

/**
 * The statement cache of the records layer: the select of one record on a view (every column
 * and the view's associations), and an index page's statement around its ids' query
 * (`compilePageStatement`), each built and compiled once per resource and view, so that a find
 * through a scope that lets every record through sends the compiled statement with its id. The
 * records layer of a transaction (`RecordsRepository.within`) builds its select on the
 * transaction, once, and shares the compiled text of the layer it came from (`compiled`).
 */
export class FindStatements {
  readonly #db: Kysely<any>;
  readonly #registry: ReadonlyMap<string, CompiledResource>;
  readonly #statements = new Map<string, FindStatement>();
  /** The compiled texts by resource and view, shared with the transactions' caches. */
  readonly compiled: Map<string, CompiledFind>;
  /** The index pages' statements by resource and view (null: the text has a parameter after the ids, and is compiled whole). */
  readonly #pages = new Map<string, PageStatement | null>();

  constructor(db: Kysely<any>, registry: ReadonlyMap<string, CompiledResource>, compiled: Map<string, CompiledFind> = new Map()) {
    this.#db = db;
    this.#registry = registry;
    this.compiled = compiled;
  }

  /** The statement of one record of `resource` on `view`. */
  statement(resource: CompiledResource, view: View): FindStatement {
    const key = `${resource.name}\u0000${view}`;
    let found = this.#statements.get(key);
    if (!found) {
      const query = selectRecords(this.#db, resource, view, this.#registry, 'all');
      let compiled = this.compiled.get(key);
      if (!compiled) {
        // Where the id's value sits among the compiled parameters: the query is compiled with a
        // unique marker in its place (Kysely's types ask for the column's type; the marker is
        // never sent, it is replaced by the id before each execution).
        const marker = Symbol('id');
        const { sql, parameters } = query.where(`${ROW_ALIAS}.${resource.primaryKey}`, '=', marker as unknown as number).compile();
        compiled = { sql, parameters, idAt: parameters.indexOf(marker) };
        this.compiled.set(key, compiled);
      }
      found = { query, ...compiled };
      this.#statements.set(key, found);
    }
    return found;
  }

  /** The statement of an index page of `resource` on `view`, around a place for its ids' query; undefined when it must be compiled whole. */
  page(resource: CompiledResource, view: View): PageStatement | undefined {
    const key = `${resource.name}\u0000${view}`;
    let found = this.#pages.get(key);
    if (found === undefined) {
      found = compilePageStatement(this.#db, resource, view, this.#registry);
      this.#pages.set(key, found);
    }
    return found ?? undefined;
  }
}
