import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type QueryCompiler, type QueryResult, type TransactionSettings } from 'kysely';
import type { QueryListeners } from './query-listeners.js';

/** The transaction a running piece of work shares with everything it calls, on one database. */
interface SharedTransaction {
  /** The database whose transaction it is (every Kysely handle of one database has the same). */
  database: object | undefined;
  /** The connection the transaction runs on, from `begin` to `commit`/`rollback`. */
  connection: DatabaseConnection | undefined;
  /** How many transactions begun inside it (as savepoints) so far: names them. */
  savepoints: number;
  /** Its statements, one at a time on its one connection (see `StatementQueue`). */
  queue: StatementQueue;
}

/**
 * Statements of several holders of one connection (the shared transaction's owner and the
 * statements that join it, which may run side by side: two include paths), sent one after the
 * other: a driver's connection runs one statement at a time, and pg queues a second one itself
 * only with a deprecation warning (removed in pg 9). In the order they were issued, as pg's own
 * queue did; a statement that fails lets the next one run.
 */
class StatementQueue {
  #tail: Promise<unknown> | undefined;

  run<T>(statement: () => Promise<T>): Promise<T> {
    const before = this.#tail;
    const result = before ? before.then(statement, statement) : statement();
    const tail = result.then(settled, settled);
    this.#tail = tail;
    void tail.then(() => {
      if (this.#tail === tail) this.#tail = undefined;
    });
    return result;
  }
}

const settled = (): void => undefined;

const storage = new AsyncLocalStorage<SharedTransaction>();

/**
 * Runs `work` so that a transaction it begins is shared: while that transaction is open,
 * every statement issued on the same database by code that `work` calls (a policy, a hook, an
 * overridden action, through `panel.database.db` or any other handle of that database) runs
 * inside it, and a transaction begun meanwhile becomes a savepoint of it. Without this, such a
 * statement would wait for the transaction's lock (PGlite has one connection; a PostgreSQL row
 * lock), which is never released while the transaction waits for that statement.
 *
 * The API runs every conditional or keyed write (`If-Match`, `Idempotency-Key`) so.
 *
 * @example
 * await shareTransaction(() => database.db.transaction().execute((trx) => write(trx)));
 */
export function shareTransaction<T>(work: () => Promise<T>): Promise<T> {
  return storage.run({ database: undefined, connection: undefined, savepoints: 0, queue: new StatementQueue() }, work);
}

/** Whether the running code is inside an open shared transaction on `database` (a `PanelDatabase` or its group). */
function sharedOn(database: object): SharedTransaction | undefined {
  const shared = storage.getStore();
  return shared?.database === database && shared.connection ? shared : undefined;
}

/** Whether the running code is inside a shared transaction open on `database`, whose statements must join it. */
export function insideSharedTransaction(database: object): boolean {
  return sharedOn(database) !== undefined;
}

/** A connection as Kysely holds it: the driver's own (`inner`), or the shared transaction's, borrowed. */
class HeldConnection implements DatabaseConnection {
  /** The savepoint a transaction begun on a borrowed connection stands for. */
  savepoint: string | undefined;

  /** The shared transaction's queue, once this connection is shared (borrowed, or the owner's once it began). */
  queue: StatementQueue | undefined;

  constructor(
    readonly inner: DatabaseConnection,
    readonly borrowed: boolean,
    readonly listeners: QueryListeners | undefined,
  ) {}

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const execute = this.queue ? () => this.queue!.run(() => this.inner.executeQuery<R>(compiledQuery)) : () => this.inner.executeQuery<R>(compiledQuery);
    return this.listeners ? this.listeners.observe(compiledQuery, execute) : execute();
  }

  streamQuery<R>(compiledQuery: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    const stream = () => this.inner.streamQuery<R>(compiledQuery, chunkSize);
    return this.listeners ? this.listeners.observeStream(compiledQuery, stream) : stream();
  }
}

const held = (connection: DatabaseConnection) => connection as HeldConnection;
const raw = (statement: string) => CompiledQuery.raw(statement);

/** The driver around another: inside a shared transaction, statements join it (see `shareTransaction`). */
class SharingDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly database: object,
    private readonly listeners: QueryListeners | undefined,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const shared = sharedOn(this.database);
    if (shared) {
      const borrowed = new HeldConnection(shared.connection!, true, this.listeners);
      borrowed.queue = shared.queue;
      return borrowed;
    }
    return new HeldConnection(await this.inner.acquireConnection(), false, this.listeners);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const own = held(connection);
    if (own.borrowed) {
      const shared = storage.getStore()!;
      shared.savepoints += 1;
      own.savepoint = `panel_shared_${shared.savepoints}`;
      await own.executeQuery(raw(`savepoint ${own.savepoint}`));
      return;
    }
    // The held connection, not its inner one: `onQuery` sees what runs through the object handed out.
    await this.inner.beginTransaction(own, settings);
    const shared = storage.getStore();
    if (shared && shared.connection === undefined) {
      shared.database = this.database;
      shared.connection = own.inner;
      own.queue = shared.queue;
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const own = held(connection);
    if (own.savepoint) return void (await own.executeQuery(raw(`release savepoint ${own.savepoint}`)));
    this.#unshare(own.inner);
    await this.inner.commitTransaction(own);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const own = held(connection);
    if (own.savepoint) {
      await own.executeQuery(raw(`rollback to savepoint ${own.savepoint}`));
      return void (await own.executeQuery(raw(`release savepoint ${own.savepoint}`)));
    }
    this.#unshare(own.inner);
    await this.inner.rollbackTransaction(own);
  }

  savepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    if (!this.inner.savepoint) throw new Error('The `savepoint` method is not supported by this driver');
    return this.inner.savepoint(connection, name, compileQuery);
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    if (!this.inner.rollbackToSavepoint) throw new Error('The `rollbackToSavepoint` method is not supported by this driver');
    return this.inner.rollbackToSavepoint(connection, name, compileQuery);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    if (!this.inner.releaseSavepoint) throw new Error('The `releaseSavepoint` method is not supported by this driver');
    return this.inner.releaseSavepoint(connection, name, compileQuery);
  }

  // A borrowed connection stays with the transaction that holds it.
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const own = held(connection);
    if (!own.borrowed) await this.inner.releaseConnection(own.inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  /** Statements issued after the shared transaction's end take connections of their own again. */
  #unshare(connection: DatabaseConnection): void {
    const shared = storage.getStore();
    if (shared?.connection !== connection) return;
    shared.connection = undefined;
    shared.database = undefined;
  }
}

/**
 * Wraps a Kysely dialect so that its statements join a shared transaction (`shareTransaction`).
 * `database` names the database: every dialect wrapped with the same object (a database's
 * `db` and its `primary`) joins the same transaction. `listeners` are told every statement that
 * runs through a connection it hands out (`begin` and `commit` included).
 */
export function withSharedTransactions(dialect: Dialect, database: object, listeners?: QueryListeners): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new SharingDriver(dialect.createDriver(), database, listeners),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}
