import type { Kysely } from 'kysely';
import type { DatabaseTimeouts } from './database-timeouts.js';
import type { ReplicaStatus } from './replicas/replica-set.js';
import type { ChangeNotifications } from './change-notifications.js';

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
