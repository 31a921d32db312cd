// Panel's own Kysely dialect for PGlite. The maintained `kysely-pglite-dialect` declares a peer
// range that stops at PGlite 0.4, so an app installing @panel/core got two copies of PGlite (ours
// and the dialect's); this file replaces it with the same rules and no dependency of its own.
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { PGlite } from '@electric-sql/pglite';

/** The one connection to a PGlite instance: every statement goes through `query`. */
class PGliteConnection implements DatabaseConnection {
  constructor(private readonly client: PGlite) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.client.query<R>(compiledQuery.sql, [...compiledQuery.parameters]);
    return result.affectedRows === undefined ? { rows: result.rows } : { numAffectedRows: BigInt(result.affectedRows), rows: result.rows };
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    if (!Number.isInteger(chunkSize) || chunkSize <= 0) throw new Error('chunkSize must be a positive integer');
    // PGlite has no cursors over its wire: the rows are in memory already, handed out in chunks.
    const { rows } = await this.client.query<R>(compiledQuery.sql, [...compiledQuery.parameters]);
    for (let i = 0; i < rows.length; i += chunkSize) yield { rows: rows.slice(i, i + chunkSize) };
  }
}

/** A savepoint name as a quoted identifier. */
function identifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A statement that waited longer than the bound for PGlite's one connection (see `PGliteDialect`'s `connectionTimeoutMillis`). */
export class PgliteConnectionTimeoutError extends Error {
  /** Read by `databaseUnavailableReason`, as pg-pool's "timeout exceeded when trying to connect". */
  readonly code = 'ETIMEDOUT';

  constructor(millis: number) {
    super(
      `A statement waited ${millis} ms for PGlite's one connection, held all that time by a transaction. ` +
        'A statement issued outside the transaction that holds it (a policy or action querying through another handle while a write\'s transaction is open, ' +
        'from code that does not run in that request, such as a queue or a cache started before it) waits for its end, which may never come. ' +
        'Fix: query through the transaction (the hook\'s `db`), or read what you need before the write; a long transaction can raise `connectionTimeoutMillis`.',
    );
    this.name = 'PgliteConnectionTimeoutError';
  }
}

interface Waiter {
  resolve: (connection: PGliteConnection) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout | undefined;
}

/**
 * PGlite is a single PostgreSQL session: two Kysely "connections" would share one transaction
 * state, and a `begin` from one request would swallow another's statements (or a rollback undo
 * them). So the driver hands out its one connection to one holder at a time, in FIFO order;
 * the others wait until it is released, at most `connectionTimeoutMillis` (then
 * `PgliteConnectionTimeoutError`). A transaction holds it from `begin` to `commit`/`rollback`.
 */
class PGliteDriver implements Driver {
  readonly #client: PGlite;
  readonly #connection: PGliteConnection;
  readonly #waiting: Waiter[] = [];
  readonly #timeoutMillis: number;
  #held = false;
  #destroyed = false;

  constructor(client: PGlite, timeoutMillis: number) {
    this.#client = client;
    this.#connection = new PGliteConnection(client);
    this.#timeoutMillis = timeoutMillis;
  }

  async init(): Promise<void> {
    await this.#client.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#destroyed) throw new Error('The PGlite database is closed.');
    if (!this.#held) {
      this.#held = true;
      return this.#connection;
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, timer: undefined };
      if (this.#timeoutMillis > 0) {
        waiter.timer = setTimeout(() => {
          const index = this.#waiting.indexOf(waiter);
          if (index >= 0) this.#waiting.splice(index, 1);
          reject(new PgliteConnectionTimeoutError(this.#timeoutMillis));
        }, this.#timeoutMillis);
        waiter.timer.unref();
      }
      this.#waiting.push(waiter);
    });
  }

  async releaseConnection(): Promise<void> {
    const next = this.#waiting.shift();
    if (!next) {
      this.#held = false;
      return;
    }
    clearTimeout(next.timer);
    next.resolve(this.#connection);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    // As Kysely's PostgreSQL driver: a plain `begin` unless settings ask for more.
    let statement = settings.isolationLevel || settings.accessMode ? 'start transaction' : 'begin';
    if (settings.isolationLevel) statement += ` isolation level ${settings.isolationLevel}`;
    if (settings.accessMode) statement += ` ${settings.accessMode}`;
    await connection.executeQuery(CompiledQuery.raw(statement));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${identifier(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${identifier(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${identifier(name)}`));
  }

  async destroy(): Promise<void> {
    this.#destroyed = true;
    for (const waiter of this.#waiting.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error('The PGlite database is closed.'));
    }
    if (!this.#client.closed) await this.#client.close();
  }
}

/** The default bound on waiting for PGlite's connection: pg-pool's `connectionTimeoutMillis` default, for the same wait. */
export const DEFAULT_PGLITE_CONNECTION_TIMEOUT_MILLIS = 5_000;

/**
 * A Kysely dialect over an open PGlite instance: PostgreSQL's SQL, adapter and introspector,
 * and a driver that serializes access to PGlite's single session. A statement waits for the
 * session at most `connectionTimeoutMillis` (default 5000; 0: no bound). `db.destroy()` closes PGlite.
 *
 * @example
 * const db = new Kysely<any>({ dialect: new PGliteDialect(new PGlite()) });
 */
export class PGliteDialect implements Dialect {
  constructor(
    private readonly client: PGlite,
    private readonly options: { readonly connectionTimeoutMillis?: number } = {},
  ) {}

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PGliteDriver(this.client, this.options.connectionTimeoutMillis ?? DEFAULT_PGLITE_CONNECTION_TIMEOUT_MILLIS);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}
