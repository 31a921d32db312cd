// Over 250 lines: opening PGlite or PostgreSQL, timeouts, the read replicas' routing and read-your-writes share one handle, which every statement goes through: splitting it would spread one connection's life over several files.
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Kysely, PostgresDialect, type LogEvent } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import { PGliteDialect } from './pglite-dialect.js';
import { PANEL_TYPE_PARSERS } from './type-parsers.js';
import { PanelConfigError } from '../errors/panel-errors.js';
import { normalizeDatabaseTimeouts, type DatabaseTimeouts } from './database-timeouts.js';
import { consoleDatabaseLogger, type DatabaseLogger } from './database-logger.js';
import { withUnavailableErrors } from './unavailable-error-dialect.js';
import { checkSnapshotOptions, readSnapshot, writeSnapshot } from './pglite-snapshot-file.js';
import { lockPgliteFolder } from './pglite-folder-lock.js';
import type { ReplicaStatus } from './replicas/replica-set.js';
import { ChangeNotifications, type ChangeNotificationsOptions } from './change-notifications.js';
import type { PreparedConnections } from './postgres-pool.js';

/** One SQL statement the database ran (or refused), as the query listeners see it. */
export interface ExecutedQuery {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  readonly durationMillis: number;
  readonly failed: boolean;
}

/** Which engine a database runs on: both speak the same SQL. */
export type DatabaseKind = 'pglite' | 'postgres';

/**
 * The database a panel reads and writes: a Kysely instance over PGlite or PostgreSQL, plus a
 * query listener (used by the constant-query tests and the benchmarks) and `close()`.
 */
export interface PanelDatabase {
  // The panel's tables are described by resources at run time, not by a static schema type.
  readonly db: Kysely<any>;
  readonly kind: DatabaseKind;
  /** The PostgreSQL schema first on the search path, when one was given. */
  readonly schema?: string | undefined;
  /** The timeouts in force (PostgreSQL; PGlite runs in the process and has none). */
  readonly timeouts?: DatabaseTimeouts | undefined;
  /**
   * A Kysely on the primary alone (the same pool as `db`): reads that must see the latest
   * commit whatever the replicas' lag (token authentication, session revocations, readiness).
   * Without replicas it is `db` itself.
   */
  readonly primary?: Kysely<any> | undefined;
  /** The read replicas and their health, when `openDatabase` was given `replicas`. */
  readonly replicas?: ReplicaReads | undefined;
  /** Cross-process change notifications (`LISTEN/NOTIFY` on PostgreSQL; in the process on PGlite). */
  readonly changes?: ChangeNotifications | undefined;
  /** False when opened with `statementCache: false`: no statement is named, and a panel on it compiles every statement per request. */
  readonly statementCache?: boolean | undefined;
  /** Calls `listener` for every statement until the returned function is called. */
  onQuery(listener: (query: ExecutedQuery) => void): () => void;
  close(): Promise<void>;
}

/** The read replicas of a database: their health, and the bound on how old a replica's answer may be. */
export interface ReplicaReads {
  /** A replica whose data may be older than this is skipped, in milliseconds. */
  readonly maxLagMillis: number;
  /** How often each replica's replay position and lag are checked, in milliseconds. */
  readonly checkIntervalMillis: number;
  /** Every replica's state at its last check. */
  status(): ReplicaStatus[];
  /** Checks every replica now (tests, and an app that wants a fresh state). */
  check(): Promise<void>;
}

/**
 * A prepared PGlite database kept in a file: `openDatabase({ snapshot })` loads it into memory
 * instead of running initdb, migrations and seed at every start.
 */
export interface PgliteSnapshotOptions {
  /** The file keeping the snapshot (e.g. `.pglite/dev-snapshot.tar`); it and its folders are made when missing or stale. */
  file: string;
  /**
   * What the prepared data depends on, e.g. a hash of the migrations and the seed: a snapshot
   * made under another key (or another PGlite version) is made again.
   */
  key: string;
  /** Prepares a freshly initialized database (migrations, seed) before it is saved; runs once per key. */
  prepare(database: PanelDatabase): Promise<void>;
}

/** Where the data lives: a PostgreSQL URL, a PGlite data folder or snapshot, or (by default) PGlite in memory. */
export interface OpenDatabaseOptions {
  /** A `postgres://` URL; when set, the server is used. */
  url?: string;
  /**
   * PostgreSQL read replicas (`postgres://` URLs of streaming standbys of `url`). Reads outside
   * a write's transaction go to a healthy replica that has replayed what the request must see
   * (read-your-writes); writes, transactions and every read when no replica qualifies go to
   * the primary. A replica that fails or lags beyond `replicaMaxLagMillis` is skipped until
   * a check finds it healthy again. See docs/scaling.md#read-replicas.
   */
  replicas?: readonly string[];
  /** A replica whose data may be older than this is skipped, in milliseconds. Default 5000. */
  replicaMaxLagMillis?: number;
  /** How often each replica's lag is checked, in milliseconds. Default 500. */
  replicaCheckIntervalMillis?: number;
  /** A PostgreSQL schema put first on the search path of every connection (tests use one per file). */
  schema?: string;
  /**
   * A PGlite data folder, kept between runs. Opened by one process at a time: the open takes the
   * folder's lock file (`panel-pglite.lock`, released on close and at exit) and fails with
   * `PgliteFolderInUseError` while another running process holds it.
   */
  dataDir?: string;
  /** A PGlite snapshot made by `dumpDataDir()`, loaded into memory. */
  loadDataDir?: Blob;
  /**
   * PGlite in memory, started from a prepared snapshot kept in a file: the first start runs
   * initdb and `prepare` (migrations, seed) and saves the result; later starts load it, which
   * skips initdb, migrations and seed. A new `key` (or PGlite version) makes it again. Every
   * start begins from the same data, as a fresh in-memory database would. For a dev server or
   * tests; not with `url`, `dataDir` or `loadDataDir`.
   */
  snapshot?: PgliteSnapshotOptions;
  /** Largest number of pooled PostgreSQL connections. Default 10. */
  maxConnections?: number;
  /** PostgreSQL: connecting, and waiting for a free pooled connection, in milliseconds. Default 5000. */
  connectionTimeoutMillis?: number;
  /** PostgreSQL's `statement_timeout` in milliseconds (0 turns it off). Default 10000. */
  statementTimeoutMillis?: number;
  /** PostgreSQL: how long the client waits for a statement's answer. Default the statement timeout + 2000. */
  queryTimeoutMillis?: number;
  /** PostgreSQL: a pooled connection unused this long is closed. Default 10000. */
  idleTimeoutMillis?: number;
  /**
   * PostgreSQL: send statements with parameters as named (prepared) statements, so that each
   * connection plans a statement once and reuses the plan, instead of planning it for every
   * request (a show or list statement with association subqueries plans for longer than it
   * runs). The first 256 statement texts of the process are named (`{ max }`: the first `max`);
   * later texts are sent unnamed.
   *
   * - `'direct'` (the default): only on connections PostgreSQL sees directly (the client
   *   address and port it reports are the connection's own). Behind a pooler such as PgBouncer,
   *   or through NAT or a Unix socket, statements go unnamed, as a transaction-mode pooler needs.
   * - `true`: on every connection (PgBouncer 1.21 or later with `max_prepared_statements`).
   * - `false`: never.
   * - `{ max, connections }`: a bound, and `'direct'` (the default) or `'all'`.
   *
   * A migration that changes a table's columns while the process runs is handled (the statement
   * is prepared again). Ignored by the embedded PGlite. See docs/scaling.md#prepared-statements.
   */
  preparedStatements?: boolean | PreparedConnections | { readonly max?: number; readonly connections?: PreparedConnections };
  /**
   * Whether Panel keeps statements once they are built: the records layer's statements compiled
   * once per shape (a list's page and count per resource, view, order and filters; a find per
   * resource and view; a write per columns) and, on PostgreSQL, named (prepared) statements.
   * Default true. `false` builds and compiles every statement for its request and sends it
   * unnamed: the same answers, for diagnosing a suspected caching fault, and the records suites
   * run that way too (`PANEL_TEST_STATEMENT_CACHE=off`). With `false`, `preparedStatements` must
   * be left out (or false). See docs/scaling.md#the-statement-cache.
   */
  statementCache?: boolean;
  /** PostgreSQL's `application_name` of every connection (seen in `pg_stat_activity`). Default `panel`. */
  applicationName?: string;
  /** Where connection failures outside a request are reported; default one line on standard error. */
  logger?: DatabaseLogger;
}

function createListeners() {
  const listeners = new Set<(query: ExecutedQuery) => void>();
  const log = (event: LogEvent) => {
    if (listeners.size === 0) return;
    const query: ExecutedQuery = {
      sql: event.query.sql,
      parameters: event.query.parameters,
      durationMillis: event.queryDurationMillis,
      failed: event.level === 'error',
    };
    for (const listener of listeners) listener(query);
  };
  const onQuery = (listener: (query: ExecutedQuery) => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return { log, onQuery };
}

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
  const { log, onQuery } = createListeners();
  if (options.url) {
    if (!/^postgres(ql)?:\/\//.test(options.url)) {
      throw new PanelConfigError(`Database url must start with postgres:// or postgresql://, instead got "${options.url}". Fix: set DATABASE_URL to a PostgreSQL URL, or unset it to use the embedded PGlite.`);
    }
    if (options.schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(options.schema)) {
      throw new PanelConfigError(`Database schema must be a lower-case identifier, instead got "${options.schema}".`);
    }
    const timeouts = normalizeDatabaseTimeouts(options);
    // Each engine's client is loaded only when it is used (start-up: an app on one never loads the other).
    const { createPostgresPool, PreparedStatementNames, DEFAULT_MAX_PREPARED_STATEMENTS } = await import('./postgres-pool.js');
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
      const opened = await openWithReplicas({ ...options, url: options.url, replicas: options.replicas, pool, timeouts, log, createPool: (poolOptions) => createPostgresPool({ ...poolOptions, preparedStatements }) });
      return withChanges({ ...opened, kind: 'postgres', schema: options.schema, timeouts, statementCache, onQuery }, listener);
    }
    const db = new Kysely<any>({ dialect: withUnavailableErrors(new PostgresDialect({ pool })), log });
    return withChanges({ db, primary: db, kind: 'postgres', schema: options.schema, timeouts, statementCache, onQuery, close: () => db.destroy() }, listener);
  }
  if (options.replicas !== undefined) {
    throw new PanelConfigError('Database replicas need a PostgreSQL primary, and no url was given. Fix: pass url (the primary) with replicas, or leave replicas out for the embedded PGlite.');
  }
  const pglite = options.snapshot ? await openFromSnapshot(options.snapshot, log, onQuery) : await openPglite(options, log, onQuery);
  return withChanges({ ...pglite, statementCache }, { logger: options.logger ?? consoleDatabaseLogger });
}

/** The `statementCache` option, checked: a boolean, and never false beside named statements asked for. */
function checkStatementCache(options: OpenDatabaseOptions): boolean {
  const { statementCache = true, preparedStatements } = options;
  if (typeof statementCache !== 'boolean') {
    throw new PanelConfigError(`Database statementCache must be true or false, instead got ${JSON.stringify(statementCache) ?? String(statementCache)}. Fix: leave it out (statements compiled once per shape, and named), or pass false to build and send every statement per request.`);
  }
  if (!statementCache && preparedStatements !== undefined && preparedStatements !== false) {
    throw new PanelConfigError(`Database statementCache is false, which sends every statement unnamed, but preparedStatements is ${JSON.stringify(preparedStatements)}. Fix: leave preparedStatements out with statementCache: false, or leave statementCache out to name statements.`);
  }
  return statementCache;
}

/** The names of `preparedStatements` (undefined: off), or a `PanelConfigError` that names the option and the fix. */
function preparedStatementNames<N>(option: OpenDatabaseOptions['preparedStatements'], create: (max: number, connections: PreparedConnections) => N, fallback: number): N | undefined {
  if (option === false) return undefined;
  if (option === undefined || option === 'direct') return create(fallback, 'direct');
  if (option === true || option === 'all') return create(fallback, 'all');
  const { max = fallback, connections = 'direct' } = option;
  if (!Number.isInteger(max) || max < 1) {
    throw new PanelConfigError(`Database preparedStatements.max must be a whole number of statements above 0, instead got ${JSON.stringify(max)}. Fix: pass preparedStatements: true (the first ${fallback} statements) or { max: <number> }.`);
  }
  if (connections !== 'direct' && connections !== 'all') {
    throw new PanelConfigError(`Database preparedStatements.connections must be 'direct' or 'all', instead got ${JSON.stringify(connections)}. Fix: pass 'direct' (connections PostgreSQL sees directly, the default) or 'all' (every connection, e.g. PgBouncer 1.21+ with max_prepared_statements).`);
  }
  return create(max, connections);
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

/** The folder of a PGlite `dataDir` on disk (a path, or `file://…`); undefined for `memory://` and the browser's stores. */
function folderOf(dataDir: string | undefined): string | undefined {
  if (!dataDir) return undefined;
  if (dataDir.startsWith('file://')) return dataDir.slice('file://'.length);
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(dataDir) ? undefined : dataDir;
}

async function openPglite(options: Pick<OpenDatabaseOptions, 'dataDir' | 'loadDataDir'>, log: (event: LogEvent) => void, onQuery: PanelDatabase['onQuery']): Promise<PanelDatabase & { pglite: PGlite }> {
  const folder = folderOf(options.dataDir);
  // PGlite creates its data folder but not the folders above it (`data/pglite` would be ENOENT).
  if (options.dataDir) await mkdir(dirname(resolve(options.dataDir)), { recursive: true });
  // One process at a time on a folder, the server, the CLI and any script alike: a second one fails here, before PGlite touches a file.
  const lock = folder === undefined ? undefined : await lockPgliteFolder(folder);
  let pglite: PGlite;
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    pglite = new PGlite({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      parsers: PANEL_TYPE_PARSERS,
    });
    await pglite.waitReady;
  } catch (error) {
    await lock?.release();
    throw error;
  }
  const db = new Kysely<any>({ dialect: withUnavailableErrors(new PGliteDialect(pglite)), log });
  return {
    db,
    primary: db,
    kind: 'pglite',
    pglite,
    onQuery,
    close: async () => {
      try {
        await db.destroy();
        if (!pglite.closed) await pglite.close();
      } finally {
        await lock?.release();
      }
    },
  };
}

/**
 * Loads the snapshot when its file holds one made under the same key; otherwise (or when the
 * saved one does not start) prepares a fresh database, saves it, and goes on with it.
 */
async function openFromSnapshot(snapshot: PgliteSnapshotOptions, log: (event: LogEvent) => void, onQuery: PanelDatabase['onQuery']): Promise<PanelDatabase> {
  const saved = await readSnapshot(snapshot);
  if (saved) {
    try {
      const { pglite: _, ...database } = await openPglite({ loadDataDir: saved }, log, onQuery);
      return database;
    } catch {
      // A damaged file: made again below.
    }
  }
  const { pglite, ...database } = await openPglite({}, log, onQuery);
  try {
    await snapshot.prepare(database);
    await writeSnapshot(snapshot, pglite);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
