import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryCompiler, QueryResult, TransactionSettings } from 'kysely';
import { asDatabaseUnavailable } from './database-unavailable.js';

const rethrowTyped = (error: unknown): never => {
  throw asDatabaseUnavailable(error);
};

/** `work()`, its failure typed; one promise, not an async function's two (every statement passes here). */
function guard<T>(work: () => Promise<T>): Promise<T> {
  let pending: Promise<T>;
  try {
    pending = work();
  } catch (error) {
    return Promise.reject(asDatabaseUnavailable(error));
  }
  return pending.then(undefined, rethrowTyped);
}

const guardedConnection = (connection: DatabaseConnection) => new GuardedConnection(connection);

/** A connection whose failures come out as `DatabaseUnavailableError` when the database is unavailable. */
class GuardedConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return guard(() => this.inner.executeQuery<R>(compiledQuery));
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(compiledQuery, chunkSize);
    } catch (error) {
      throw asDatabaseUnavailable(error);
    }
  }
}

// The drivers run begin, commit, rollback and savepoints through the connection they are given:
// the guarded one, which Kysely also wraps with its query log. Only releasing needs the driver's own.
const unwrap = (connection: DatabaseConnection) => (connection instanceof GuardedConnection ? connection.inner : connection);

/** The driver around another: same work, unavailable-database errors typed. */
class GuardedDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return guard(() => this.inner.init());
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return guard(() => this.inner.acquireConnection()).then(guardedConnection);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return guard(() => this.inner.beginTransaction(connection, settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return guard(() => this.inner.commitTransaction(connection));
  }

  // A rollback on a lost connection fails too; PostgreSQL has already rolled the transaction back.
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return guard(() => this.inner.rollbackTransaction(connection));
  }

  savepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    if (!this.inner.savepoint) throw new Error('The `savepoint` method is not supported by this driver');
    return guard(() => this.inner.savepoint!(connection, name, compileQuery));
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    if (!this.inner.rollbackToSavepoint) throw new Error('The `rollbackToSavepoint` method is not supported by this driver');
    return guard(() => this.inner.rollbackToSavepoint!(connection, name, compileQuery));
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    if (!this.inner.releaseSavepoint) throw new Error('The `releaseSavepoint` method is not supported by this driver');
    return guard(() => this.inner.releaseSavepoint!(connection, name, compileQuery));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(unwrap(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/**
 * Wraps a Kysely dialect so that every error meaning "the database cannot answer now"
 * (connection refused or lost, a timeout, a server shutting down; see
 * `databaseUnavailableReason`) is thrown as a `DatabaseUnavailableError`, whoever ran the
 * query: the records layer, the attachments, a custom route. Other errors pass unchanged.
 */
export function withUnavailableErrors(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new GuardedDriver(dialect.createDriver()),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}
