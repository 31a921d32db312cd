import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { PanelConfigError } from '../../errors/panel-errors.js';
import { consoleDatabaseLogger } from '../database-logger.js';
import type { DatabaseTimeouts } from '../database-timeouts.js';
import type { DatabaseLogger } from '../database-logger.js';
import type { createPostgresPool } from '../postgres-pool.js';
import { withUnavailableErrors } from '../unavailable-error-dialect.js';
import { withSharedTransactions } from '../request-transaction.js';
import type { QueryListeners } from '../query-listeners.js';
import { ReplicaSet, type Replica } from './replica-set.js';
import { RoutingDriver, routingDialect } from './routing-dialect.js';

const DEFAULT_MAX_LAG_MILLIS = 5_000;
const DEFAULT_CHECK_INTERVAL_MILLIS = 500;

/** What `openDatabase` has made already (the primary's pool), and the options it was given. */
export interface OpenWithReplicasInput {
  readonly url: string;
  readonly replicas: readonly string[];
  readonly replicaMaxLagMillis?: number | undefined;
  readonly replicaCheckIntervalMillis?: number | undefined;
  readonly schema?: string | undefined;
  readonly maxConnections?: number | undefined;
  readonly applicationName?: string | undefined;
  readonly logger?: DatabaseLogger | undefined;
  readonly pool: pg.Pool;
  readonly timeouts: DatabaseTimeouts;
  readonly listeners: QueryListeners;
  readonly createPool: typeof createPostgresPool;
}

/** The two Kyselys over the primary and replica pools, the replicas' status, and how to close them. */
export interface OpenedWithReplicas {
  readonly db: Kysely<any>;
  readonly primary: Kysely<any>;
  readonly replicas: { maxLagMillis: number; checkIntervalMillis: number; status: ReplicaSet['status']; check: ReplicaSet['check'] };
  close(): Promise<void>;
}

/** `host:port/database` of a URL: how a replica is named in logs and the health answer (never its password). */
function replicaName(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname}`;
}

function checkMillis(name: string, value: number | undefined, fallback: number): number {
  const millis = value ?? fallback;
  if (!Number.isInteger(millis) || millis < 1) throw new PanelConfigError(`Database ${name} must be a whole number of milliseconds of 1 or more, instead got ${String(value)}. Fix: leave it out for ${fallback}.`);
  return millis;
}

/**
 * Opens a PostgreSQL primary with read replicas: one pool per server, a `ReplicaSet` that
 * checks the replicas' lag, and two Kyselys over the same pools — `db`, which routes reads to
 * the replicas, and `primary`, which never does. The first check runs before it returns, so
 * reads start on the replicas that are healthy at boot.
 */
export async function openWithReplicas(input: OpenWithReplicasInput): Promise<OpenedWithReplicas> {
  if (!Array.isArray(input.replicas) || input.replicas.some((url) => typeof url !== 'string' || !/^postgres(ql)?:\/\//.test(url))) {
    throw new PanelConfigError(`Database replicas must be a list of postgres:// URLs, instead got ${JSON.stringify(input.replicas)}. Fix: replicas: [process.env.DATABASE_REPLICA_URL].`);
  }
  const maxLagMillis = checkMillis('replicaMaxLagMillis', input.replicaMaxLagMillis, DEFAULT_MAX_LAG_MILLIS);
  const checkIntervalMillis = checkMillis('replicaCheckIntervalMillis', input.replicaCheckIntervalMillis, DEFAULT_CHECK_INTERVAL_MILLIS);
  if (checkIntervalMillis >= maxLagMillis) {
    throw new PanelConfigError(`Database replicaCheckIntervalMillis (${checkIntervalMillis}) must be less than replicaMaxLagMillis (${maxLagMillis}): a replica is used only while its lag plus one check interval is within the bound. Fix: check more often, or allow more lag.`);
  }
  const logger = input.logger ?? consoleDatabaseLogger;
  const poolOptions = { schema: input.schema, maxConnections: input.maxConnections ?? 10, applicationName: input.applicationName ?? 'panel', timeouts: input.timeouts, logger };
  const replicaPools = input.replicas.map((url) => ({ name: replicaName(url), pool: input.createPool({ ...poolOptions, url }) }));
  const set = new ReplicaSet({ primary: input.pool, replicas: replicaPools, maxLagMillis, checkIntervalMillis, logger });
  const primaryDriver = new PostgresDialect({ pool: input.pool }).createDriver();
  const replicaDrivers = new Map<Replica, ReturnType<PostgresDialect['createDriver']>>(set.replicas.map((replica) => [replica, new PostgresDialect({ pool: replica.pool }).createDriver()]));
  const postgres = new PostgresDialect({ pool: input.pool });
  // One database: a transaction shared through either handle is joined by statements of both.
  const shared = {};
  const db = new Kysely<any>({ dialect: withSharedTransactions(withUnavailableErrors(routingDialect(postgres, new RoutingDriver(primaryDriver, replicaDrivers, set, true))), shared, input.listeners) });
  const primary = new Kysely<any>({ dialect: withSharedTransactions(withUnavailableErrors(routingDialect(postgres, new RoutingDriver(primaryDriver, new Map(), set, false))), shared, input.listeners) });
  await set.start();
  return {
    db,
    primary,
    replicas: { maxLagMillis, checkIntervalMillis, status: () => set.status(), check: () => set.check() },
    close: async () => {
      set.stop();
      await db.destroy();
    },
  };
}
