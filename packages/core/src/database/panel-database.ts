import { PostgresDialect } from 'kysely';
import { PanelConfigError } from '../errors/panel-errors.js';
import { normalizeDatabaseTimeouts } from './database-timeouts.js';
import { checkDatabaseUrl, urlWithoutSecrets } from './database-url.js';
import { consoleDatabaseLogger } from './database-logger.js';
import { withUnavailableErrors } from './unavailable-error-dialect.js';
import { withSharedTransactions } from './request-transaction.js';
import { QueryListeners } from './query-listeners.js';
import { DirectStatementsKysely } from './direct-statements.js';
import { checkSnapshotOptions } from './pglite-snapshot-file.js';
import { ChangeNotifications, type ChangeNotificationsOptions } from './change-notifications.js';
import { DEFAULT_MAX_PREPARED_STATEMENTS, PreparedStatementNames } from './prepared-statement-names.js';
import type { ExecutedQuery, PanelDatabase } from './panel-database-types.js';
import { checkStatementCache, preparedStatementNames, type OpenDatabaseOptions } from './open-database-options.js';
import { openFromSnapshot, openPglite } from './pglite-database.js';

export type { DatabaseKind, ExecutedQuery, PanelDatabase, ReplicaReads } from './panel-database-types.js';
export type { OpenDatabaseOptions, PgliteSnapshotOptions } from './open-database-options.js';

/**
 * Opens the panel's database. Without a URL it starts PGlite (PostgreSQL compiled to WASM) in
 * the process, so a demo or a test needs no server.
 *
 * @example
 * const database = await openDatabase({ url: process.env.DATABASE_URL });
 */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<PanelDatabase> {
  checkSnapshotOptions(options);
  const statementCache = checkStatementCache(options);
  const listeners = new QueryListeners();
  const onQuery = (listener: (query: ExecutedQuery) => void) => listeners.add(listener);
  if (options.url) {
    if (!/^postgres(ql)?:\/\//.test(options.url)) {
      throw new PanelConfigError(`Database url must start with postgres:// or postgresql://, instead got "${urlWithoutSecrets(options.url)}". Fix: set DATABASE_URL to a PostgreSQL URL, or unset it to use the embedded PGlite.`);
    }
    checkDatabaseUrl(options.url);
    if (options.schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(options.schema)) {
      throw new PanelConfigError(`Database schema must be a lower-case identifier, instead got "${options.schema}".`);
    }
    const timeouts = normalizeDatabaseTimeouts(options);
    // Each engine's client is loaded only when it is used (start-up: an app on one never loads the other).
    const { createPostgresPool } = await import('./postgres-pool.js');
    const preparedStatements = preparedStatementNames(statementCache ? options.preparedStatements : false, (max, connections) => new PreparedStatementNames(max, connections), DEFAULT_MAX_PREPARED_STATEMENTS);
    const pool = createPostgresPool({
      preparedStatements,
      url: options.url,
      schema: options.schema,
      maxConnections: options.maxConnections ?? 10,
      applicationName: options.applicationName ?? 'panel',
      timeouts,
      logger: options.logger ?? consoleDatabaseLogger,
    });
    const { connectListener } = await import('./postgres-listener.js');
    const url = options.url;
    const listener = { connect: () => connectListener({ url, applicationName: options.applicationName ?? 'panel', timeouts }), schema: options.schema, logger: options.logger ?? consoleDatabaseLogger };
    if (options.replicas !== undefined) {
      const { openWithReplicas } = await import('./replicas/open-with-replicas.js');
      const opened = await openWithReplicas({ ...options, url: options.url, replicas: options.replicas, pool, timeouts, listeners, createPool: (poolOptions) => createPostgresPool({ ...poolOptions, preparedStatements }) });
      return withChanges({ ...opened, kind: 'postgres', schema: options.schema, timeouts, statementCache, onQuery }, listener);
    }
    const group = {};
    const db = new DirectStatementsKysely({ dialect: withSharedTransactions(withUnavailableErrors(new PostgresDialect({ pool })), group, listeners) }, pool, listeners, group);
    return withChanges({ db, primary: db, kind: 'postgres', schema: options.schema, timeouts, statementCache, onQuery, close: () => db.destroy() }, listener);
  }
  if (options.replicas !== undefined) {
    throw new PanelConfigError('Database replicas need a PostgreSQL primary, and no url was given. Fix: pass url (the primary) with replicas, or leave replicas out for the embedded PGlite.');
  }
  // PGlite has one connection: a statement waits for it at most connectionTimeoutMillis, as pg's pool bounds the wait for one of its own.
  const { connectionTimeoutMillis } = normalizeDatabaseTimeouts(options);
  const pglite = options.snapshot ? await openFromSnapshot(options.snapshot, listeners, onQuery, connectionTimeoutMillis) : await openPglite({ ...options, connectionTimeoutMillis }, listeners, onQuery);
  return withChanges({ ...pglite, statementCache }, { logger: options.logger ?? consoleDatabaseLogger });
}

/** The database with its change notifications, closed with it. */
function withChanges<D extends PanelDatabase>(database: D, listener: Pick<ChangeNotificationsOptions, 'connect' | 'schema' | 'logger'>): D {
  const changes = new ChangeNotifications({ ...listener, primary: database.primary ?? database.db });
  return {
    ...database,
    changes,
    close: async () => {
      await changes.close();
      await database.close();
    },
  };
}
