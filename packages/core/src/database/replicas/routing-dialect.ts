import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type QueryCompiler, type QueryResult, type TransactionSettings } from 'kysely';
import { currentReadConsistency, noteCommittedWrite } from './read-consistency.js';
import { isReadStatement } from './read-statement.js';
import type { Replica, ReplicaSet } from './replica-set.js';
import { lastRecordEnd, parseWalPosition } from './wal-position.js';

/** A position no replica reaches: reads that must see an unknown position go to the primary. */
const UNREACHABLE = 0xffffffffffffffffn;
const WAL_POSITION = CompiledQuery.raw('select pg_current_wal_insert_lsn()::text as lsn');

/**
 * The connection Kysely sees: the primary's connection is taken on first need. A read outside
 * a transaction, on a connection that has not used the primary yet, is answered by a replica
 * when one qualifies (each read acquires and releases a replica connection of its own).
 * Everything else, and every statement after the primary was used, runs on the primary.
 */
class RoutingConnection implements DatabaseConnection {
  primaryConnection: DatabaseConnection | undefined;
  inTransaction = false;
  /** A statement that may have written, or a transaction, ended on the primary since acquired. */
  wrote = false;

  constructor(readonly driver: RoutingDriver) {}

  async primary(): Promise<DatabaseConnection> {
    this.primaryConnection ??= await this.driver.primaryDriver.acquireConnection();
    return this.primaryConnection;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const read = isReadStatement(query);
    if (read && !this.inTransaction && !this.primaryConnection) {
      const answered = await this.driver.readOnReplica<R>(query);
      if (answered) return answered.result;
    }
    const result = await (await this.primary()).executeQuery<R>(query);
    if (!read && !this.inTransaction) this.wrote = true;
    return result;
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (!isReadStatement(query) && !this.inTransaction) this.wrote = true;
    yield* (await this.primary()).streamQuery<R>(query, chunkSize);
  }
}

/** The routing connection inside the wrappers Kysely and the error guard put around it. */
function routing(connection: DatabaseConnection): RoutingConnection {
  let current: unknown = connection;
  while (current && !(current instanceof RoutingConnection)) current = (current as { inner?: unknown }).inner;
  if (!(current instanceof RoutingConnection)) throw new Error('Panel database: a connection of another driver reached the read-routing driver.');
  return current;
}

/**
 * The driver of a database with read replicas: transactions, writes and reads inside them on
 * the primary, other reads on a replica that qualifies (`ReplicaSet.pick`), the primary when
 * none does or when the replica fails the read. After a write, the primary's WAL position is
 * noted in the request's read-consistency record (read-your-writes).
 */
export class RoutingDriver implements Driver {
  constructor(
    readonly primaryDriver: Driver,
    readonly replicaDrivers: ReadonlyMap<Replica, Driver>,
    readonly set: ReplicaSet,
    /** Whether this driver owns the pools (destroys them) and sends reads to replicas: false for the primary-only Kysely, which still notes its writes' positions. */
    readonly owner: boolean,
  ) {}

  // PostgreSQL's driver only takes its pool at init: idempotent, so the primary-only Kysely may be used first.
  async init(): Promise<void> {
    await this.primaryDriver.init();
    for (const driver of this.replicaDrivers.values()) await driver.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutingConnection(this);
  }

  /** A read on a replica, or undefined when none qualifies or the one tried failed as a replica. */
  async readOnReplica<R>(query: CompiledQuery): Promise<{ result: QueryResult<R> } | undefined> {
    if (!this.owner) return undefined;
    const replica = this.set.pick(currentReadConsistency()?.readAfter);
    const driver = replica && this.replicaDrivers.get(replica);
    if (!replica || !driver) return undefined;
    let connection: DatabaseConnection | undefined;
    try {
      connection = await driver.acquireConnection();
      return { result: await connection.executeQuery<R>(query) };
    } catch (error) {
      if (this.set.fallsBack(replica, error)) return undefined;
      throw error;
    } finally {
      if (connection) await driver.releaseConnection(connection).catch(() => undefined);
    }
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const route = routing(connection);
    await this.primaryDriver.beginTransaction(await route.primary(), settings);
    route.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const route = routing(connection);
    route.inTransaction = false;
    route.wrote = true;
    await this.primaryDriver.commitTransaction(await route.primary());
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const route = routing(connection);
    route.inTransaction = false;
    await this.primaryDriver.rollbackTransaction(await route.primary());
  }

  async savepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    await this.primaryDriver.savepoint!(await routing(connection).primary(), name, compileQuery);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    await this.primaryDriver.rollbackToSavepoint!(await routing(connection).primary(), name, compileQuery);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    await this.primaryDriver.releaseSavepoint!(await routing(connection).primary(), name, compileQuery);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const route = routing(connection);
    const primary = route.primaryConnection;
    if (!primary) return;
    route.primaryConnection = undefined;
    try {
      // The position after the write: a replica that has replayed it holds the write.
      if (route.wrote) {
        const { rows } = await primary.executeQuery<{ lsn: string }>(WAL_POSITION);
        const position = parseWalPosition(rows[0]?.lsn);
        if (position !== undefined) {
          // In a request, the request's record; outside one (start-up, a script, a job), the process's own floor.
          if (currentReadConsistency()) noteCommittedWrite(lastRecordEnd(position, false));
          else this.set.raiseFloor(lastRecordEnd(position, false));
        }
      }
    } catch {
      // Without the position the answer carries no token; this request's (or this process's) later reads stay on the primary.
      const consistency = currentReadConsistency();
      if (consistency) consistency.readAfter = UNREACHABLE;
      else this.set.raiseFloor(UNREACHABLE);
    } finally {
      route.wrote = false;
      await this.primaryDriver.releaseConnection(primary);
    }
  }

  async destroy(): Promise<void> {
    if (!this.owner) return;
    this.set.stop();
    for (const driver of this.replicaDrivers.values()) await driver.destroy();
    await this.primaryDriver.destroy();
  }
}

/** A dialect whose driver is `driver`, the rest PostgreSQL's. */
export function routingDialect(postgres: Dialect, driver: RoutingDriver): Dialect {
  return {
    createAdapter: () => postgres.createAdapter(),
    createDriver: () => driver,
    createIntrospector: (db) => postgres.createIntrospector(db),
    createQueryCompiler: () => postgres.createQueryCompiler(),
  };
}
