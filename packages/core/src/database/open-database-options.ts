import { PanelConfigError } from '../errors/panel-errors.js';
import type { DatabaseLogger } from './database-logger.js';
import type { PanelDatabase } from './panel-database-types.js';
import type { PreparedConnections } from './prepared-statement-names.js';

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
  /**
   * PostgreSQL: connecting, and waiting for a free pooled connection; PGlite: waiting for its one
   * connection while another transaction holds it. In milliseconds, default 5000 (0: no bound).
   */
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

/** The `statementCache` option, checked: a boolean, and never false beside named statements asked for. */
export function checkStatementCache(options: OpenDatabaseOptions): boolean {
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
export function preparedStatementNames<N>(option: OpenDatabaseOptions['preparedStatements'], create: (max: number, connections: PreparedConnections) => N, fallback: number): N | undefined {
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
