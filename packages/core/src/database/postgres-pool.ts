import pg from 'pg';
import { PANEL_TYPE_PARSERS } from './type-parsers.js';
import type { DatabaseTimeouts } from './database-timeouts.js';
import type { DatabaseLogger } from './database-logger.js';

/** What the PostgreSQL pool is built from (the checked options of `openDatabase`). */
export interface PostgresPoolOptions {
  readonly url: string;
  readonly schema: string | undefined;
  readonly maxConnections: number;
  readonly applicationName: string;
  readonly timeouts: DatabaseTimeouts;
  readonly logger: DatabaseLogger;
}

type QueryArguments = Parameters<pg.Client['query']>;

/**
 * A pg client that closes its connection when a statement gets no answer within the query
 * timeout. pg only stops waiting; the connection would stay busy with the lost statement, and
 * every later statement on it would queue behind it. Closed, it leaves the pool, and the next
 * request opens a fresh one.
 */
class TimeoutClosingClient extends pg.Client {
  // The overloads of pg's query() are many; this passes every call through unchanged.
  override query(...args: unknown[]): never {
    const result = (pg.Client.prototype.query as (...a: QueryArguments) => unknown).apply(this, args as QueryArguments);
    if (result instanceof Promise) {
      return result.catch((error: unknown) => {
        if ((error as Error | null)?.message === 'Query read timeout') {
          (this as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
        }
        throw error;
      }) as never;
    }
    return result as never;
  }
}

/** The fields of a driver error worth a log line; never the statement or its values. */
function describe(error: unknown): Record<string, unknown> {
  const { code, severity, message } = (error ?? {}) as { code?: unknown; severity?: unknown; message?: unknown };
  return { code: typeof code === 'string' ? code : undefined, severity, message };
}

/**
 * Creates the PostgreSQL pool with its timeouts, and listens to its `'error'` events and every
 * client's: a connection that PostgreSQL closes (a restart, a failover,
 * `pg_terminate_backend`, an idle timeout) or that the network drops is logged once, with its
 * PostgreSQL code, and leaves the pool; the process carries on and the next request connects
 * again. Without these listeners Node ends the process on the first such event.
 */
export function createPostgresPool(options: PostgresPoolOptions): pg.Pool {
  const { timeouts, logger } = options;
  // One line per failed connection: PostgreSQL's FATAL message (57P01) and the socket's end that follows are one event.
  const logged = new WeakSet<object>();
  const report = (error: unknown, client: object, where: 'idle' | 'busy') => {
    if (logged.has(client)) return;
    logged.add(client);
    logger.warn({ ...describe(error), connection: where }, 'Panel database: a PostgreSQL connection failed and was removed from the pool; the next query opens a new one');
  };
  const pool = new pg.Pool({
    Client: TimeoutClosingClient,
    connectionString: options.url,
    max: options.maxConnections,
    application_name: options.applicationName,
    options: options.schema ? `-c search_path=${options.schema}` : undefined,
    connectionTimeoutMillis: timeouts.connectionTimeoutMillis,
    idleTimeoutMillis: timeouts.idleTimeoutMillis,
    ...(timeouts.statementTimeoutMillis > 0 ? { statement_timeout: timeouts.statementTimeoutMillis } : {}),
    ...(timeouts.queryTimeoutMillis > 0 ? { query_timeout: timeouts.queryTimeoutMillis } : {}),
    // TCP keepalive notices a peer that vanished without closing (a failed-over host, a dropped route).
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        PANEL_TYPE_PARSERS[oid] ?? pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client's error reaches the pool first, then the client's own listener: still one line.
  pool.on('error', (error, client) => report(error, client, 'idle'));
  pool.on('connect', (client) => {
    client.on('error', (error) => report(error, client, 'busy'));
  });
  return pool;
}
