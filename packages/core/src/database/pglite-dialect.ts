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

/**
 * PGlite is a single PostgreSQL session: two Kysely "connections" would share one transaction
 * state, and a `begin` from one request would swallow another's statements (or a rollback undo
 * them). So the driver hands out its one connection to one holder at a time, in FIFO order;
 * the others wait until it is released. A transaction holds it from `begin` to `commit`/`rollback`.
 */
class PGliteDriver implements Driver {
  readonly #client: PGlite;
  readonly #connection: PGliteConnection;
  readonly #waiting: { resolve: (connection: PGliteConnection) => void; reject: (error: Error) => void }[] = [];
  #held = false;
  #destroyed = false;

  constructor(client: PGlite) {
    this.#client = client;
    this.#connection = new PGliteConnection(client);
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
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }

  async releaseConnection(): Promise<void> {
    const next = this.#waiting.shift();
    if (next) next.resolve(this.#connection);
    else this.#held = false;
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
    for (const waiter of this.#waiting.splice(0)) waiter.reject(new Error('The PGlite database is closed.'));
    if (!this.#client.closed) await this.#client.close();
  }
}

/**
 * A Kysely dialect over an open PGlite instance: PostgreSQL's SQL, adapter and introspector,
 * and a driver that serializes access to PGlite's single session. `db.destroy()` closes PGlite.
 *
 * @example
 * const db = new Kysely<any>({ dialect: new PGliteDialect(new PGlite()) });
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly client: PGlite) {}

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PGliteDriver(this.client);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}
