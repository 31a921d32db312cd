import { isCompilable, Kysely, type CompiledQuery, type Compilable, type KyselyConfig, type QueryResult } from 'kysely';
import type pg from 'pg';
import { asDatabaseUnavailable } from './database-unavailable.js';
import type { QueryListeners } from './query-listeners.js';
import { insideSharedTransaction } from './request-transaction.js';

/** What Kysely's PostgreSQL driver answers of a statement: its rows, and the rows a write changed. */
function resultOf<R>({ command, rowCount, rows }: pg.QueryResult): QueryResult<R> {
  const wrote = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
  return { rows: (rows ?? []) as R[], ...(wrote ? { numAffectedRows: BigInt(rowCount ?? 0) } : {}) };
}

/**
 * The Kysely of a PostgreSQL database without replicas. `executeQuery` of a compiled statement
 * outside a transaction (the records layer's reads: a find, a page and its count, an include)
 * takes a connection from the pool, sends the statement and gives the connection back itself,
 * with the same listeners (`onQuery`) and the same typed errors (`DatabaseUnavailableError`),
 * instead of going through Kysely's executor and the driver wrappers around it: three promises
 * a statement instead of some twenty-five, which were most of a show's own. Everything else
 * (query builders, transactions, a statement inside a shared transaction, which must join it)
 * is Kysely's, unchanged. See docs/decisions.md, "A statement outside a transaction goes to the
 * pool directly".
 */
export class DirectStatementsKysely extends Kysely<any> {
  readonly #pool: pg.Pool;
  readonly #listeners: QueryListeners;
  readonly #group: object;

  constructor(config: KyselyConfig, pool: pg.Pool, listeners: QueryListeners, group: object) {
    super(config);
    this.#pool = pool;
    this.#listeners = listeners;
    this.#group = group;
  }

  override executeQuery<R>(query: CompiledQuery<R> | Compilable<R>, queryId?: unknown): Promise<QueryResult<R>> {
    if (queryId !== undefined || isCompilable(query) || insideSharedTransaction(this.#group)) return super.executeQuery(query, queryId as never);
    return this.#listeners.observe(query, () => this.#send<R>(query));
  }

  #send<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> {
    return new Promise<QueryResult<R>>((resolve, reject) => {
      this.#pool.connect((error, client) => {
        if (error || !client) return reject(asDatabaseUnavailable(error ?? new Error('The pool gave no connection.')));
        let sent: Promise<pg.QueryResult>;
        try {
          sent = client.query(query.sql, [...query.parameters]);
        } catch (thrown) {
          client.release();
          return reject(asDatabaseUnavailable(thrown));
        }
        sent.then(
          (result) => {
            client.release();
            resolve(resultOf<R>(result));
          },
          (failed: unknown) => {
            client.release();
            reject(asDatabaseUnavailable(failed));
          },
        );
      });
    });
  }
}
