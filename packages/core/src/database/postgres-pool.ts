import pg from 'pg';
import { PANEL_TYPE_PARSERS } from './type-parsers.js';
import type { DatabaseTimeouts } from './database-timeouts.js';
import type { DatabaseLogger } from './database-logger.js';
import { databaseUnavailableReason } from './database-unavailable.js';
import type { PreparedStatementNames } from './prepared-statement-names.js';
import { PanelPoolClient } from './panel-pool-client.js';

/** What the PostgreSQL pool is built from (the checked options of `openDatabase`). */
export interface PostgresPoolOptions {
  readonly url: string;
  readonly schema: string | undefined;
  readonly maxConnections: number;
  readonly applicationName: string;
  readonly timeouts: DatabaseTimeouts;
  readonly logger: DatabaseLogger;
  /** Named (prepared) statements, unless the app turned them off (`openDatabase({ preparedStatements: false })`). */
  readonly preparedStatements?: PreparedStatementNames | undefined;
}

/** The fields of a driver error worth a log line; never the statement or its values. */
function describe(error: unknown): Record<string, unknown> {
  const { code, severity, message } = (error ?? {}) as { code?: unknown; severity?: unknown; message?: unknown };
  return { code: typeof code === 'string' ? code : undefined, severity, message };
}

/**
 * Creates the PostgreSQL pool with its timeouts, its client (`PanelPoolClient`: named
 * statements, held `begin`, read timeouts), and listens to its `'error'` events and every
 * client's: a connection that PostgreSQL closes (a restart, a failover,
 * `pg_terminate_backend`, an idle timeout) or that the network drops is logged once, with its
 * PostgreSQL code, and leaves the pool; the process carries on and the next request connects
 * again. Without these listeners Node ends the process on the first such event.
 */
export function createPostgresPool(options: PostgresPoolOptions): pg.Pool {
  const { timeouts, logger } = options;
  // One line per failed connection: PostgreSQL's FATAL message (57P01) and the socket's end that follows are one event.
  const logged = new WeakSet<object>();
  const busy = new WeakSet<object>();
  const report = (error: unknown, client: object) => {
    if (logged.has(client)) return;
    logged.add(client);
    // A busy connection's FATAL message (57P01) went to its statement; the event only says the socket ended.
    const last = (client as PanelPoolClient).lastQueryError;
    const cause = (error as { code?: unknown } | null)?.code === undefined && databaseUnavailableReason(last) !== undefined ? last : error;
    const where = busy.has(client) || cause !== error ? 'busy' : 'idle';
    logger.warn({ ...describe(cause), connection: where }, 'Panel database: a PostgreSQL connection failed and was removed from the pool; the next query opens a new one');
  };
  const pool = new pg.Pool({
    Client: PanelPoolClient as unknown as typeof pg.Client,
    ...(options.preparedStatements ? { panelPreparedStatements: options.preparedStatements } : {}),
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
  // An idle client's error reaches both the pool's listener and the client's own: still one line.
  pool.on('error', (error, client) => report(error, client));
  pool.on('connect', (client) => {
    client.on('error', (error) => report(error, client));
  });
  pool.on('acquire', (client) => busy.add(client));
  pool.on('release', (_error, client) => {
    busy.delete(client);
    (client as unknown as PanelPoolClient).dropHeld();
  });
  return pool;
}
