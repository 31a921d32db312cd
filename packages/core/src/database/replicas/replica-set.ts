import type pg from 'pg';
import type { DatabaseLogger } from '../database-logger.js';
import { databaseUnavailableReason } from '../database-unavailable.js';
import { lastRecordEnd, parseWalPosition, type WalPosition } from './wal-position.js';

/** How a replica stands at its last check (for the health route, logs and tests). */
export interface ReplicaStatus {
  /** `host:port/database` of its URL (never the password). */
  readonly name: string;
  /** Whether reads go to it now. */
  readonly healthy: boolean;
  /** How old its data was at the last check, at most, in milliseconds (undefined: unknown). */
  readonly lagMillis: number | undefined;
  /** The WAL position it had replayed at the last check. */
  readonly replayed: WalPosition | undefined;
  /** Why it is skipped, when it is. */
  readonly problem: string | undefined;
}

/** One replica: its pool and what the checks learned. */
export interface Replica {
  readonly name: string;
  readonly pool: pg.Pool;
  healthy: boolean;
  lagMillis: number | undefined;
  replayed: WalPosition | undefined;
  problem: string | undefined;
}

/** What the replica set is built from. */
export interface ReplicaSetOptions {
  readonly primary: pg.Pool;
  readonly replicas: readonly { name: string; pool: pg.Pool }[];
  /** A replica whose data may be older than this is skipped. */
  readonly maxLagMillis: number;
  /** How often the primary's WAL position and each replica's replay position are read. */
  readonly checkIntervalMillis: number;
  readonly logger: DatabaseLogger;
  readonly now?: () => number;
}

interface Sample {
  readonly at: number;
  readonly position: WalPosition;
}

/** The SQLSTATEs after which a read that a replica refused is sent to the primary. */
function replicaRefusal(error: unknown): 'down' | 'statement' | undefined {
  const reason = databaseUnavailableReason(error);
  // 40001 (as a DatabaseUnavailableError of reason `conflict` too): cancelled by a conflict with recovery (the replica replayed a vacuum under the read); the replica is not down.
  if (reason === 'conflict') return 'statement';
  if (reason !== undefined && (error as { code?: unknown })?.code !== '57014') return 'down';
  const code = (error as { code?: unknown } | null)?.code;
  // 25006: a write (a function with side effects) in the replica's read-only transaction.
  if (code === '25006') return 'statement';
  return undefined;
}

/**
 * The read replicas of a primary and how far behind each is. Every `checkIntervalMillis` it
 * reads the primary's WAL insert position, then each replica's replay position
 * (`pg_last_wal_replay_lsn()`). A replica's lag is bounded by the age of the newest primary
 * sample it has replayed: when it has replayed everything the primary had at time t, its data
 * is at most `now − t` old. A replica is used while that bound, plus one check interval (the
 * time until the next check), is within `maxLagMillis`; one that fails a check or a query, or
 * falls behind, is skipped until a check finds it healthy again.
 */
export class ReplicaSet {
  readonly replicas: readonly Replica[];
  readonly #options: ReplicaSetOptions;
  readonly #now: () => number;
  #samples: Sample[] = [];
  /** The position of this process's last write made outside any request: every read must see it. */
  #floor: WalPosition | undefined;
  #next = 0;
  #timer: NodeJS.Timeout | undefined;
  #checking: Promise<void> | undefined;

  constructor(options: ReplicaSetOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.replicas = options.replicas.map(({ name, pool }) => ({ name, pool, healthy: false, lagMillis: undefined, replayed: undefined, problem: 'not checked yet' }));
  }

  /** Runs the first check, then one every `checkIntervalMillis` (the timer never keeps the process alive). */
  async start(): Promise<void> {
    await this.check();
    this.#timer = setInterval(() => void this.check(), this.#options.checkIntervalMillis);
    this.#timer.unref();
  }

  /** Stops the checks. */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /**
   * A healthy replica that has replayed `requested` (when given) and this process's floor, taking turns among those
   * that qualify; undefined when none does (the primary then answers).
   */
  pick(requested: WalPosition | undefined): Replica | undefined {
    const floor = this.#floor;
    const readAfter = floor !== undefined && (requested === undefined || floor > requested) ? floor : requested;
    const count = this.replicas.length;
    for (let i = 0; i < count; i += 1) {
      const replica = this.replicas[(this.#next + i) % count]!;
      if (!replica.healthy) continue;
      if (readAfter !== undefined && (replica.replayed === undefined || replica.replayed < readAfter)) continue;
      this.#next = (this.#next + i + 1) % count;
      return replica;
    }
    return undefined;
  }

  /**
   * Raises the process's floor: after a write made outside any request (migrations at
   * start-up, a script, a job), every later read of this process, in a request or not, sees
   * it — a replica answers only once it has replayed it. A process sees its own writes.
   * Unreachable positions (a write whose position could not be read) are forgotten once
   * `maxLagMillis` has passed: by then every replica in use has replayed it.
   */
  raiseFloor(position: WalPosition): void {
    if (this.#floor !== undefined && this.#floor >= position) return;
    this.#floor = position;
    if (position === 0xffffffffffffffffn) {
      setTimeout(() => {
        if (this.#floor === position) this.#floor = undefined;
      }, this.#options.maxLagMillis).unref();
    }
  }

  /**
   * Whether a read that failed on `replica` goes to the primary: yes when the replica is down
   * (then it is skipped until a check finds it back) or refused the statement as a replica
   * (25006, 40001); no for an error the primary would give too.
   */
  fallsBack(replica: Replica, error: unknown): boolean {
    const refusal = replicaRefusal(error);
    if (refusal === 'down' && replica.healthy) this.#mark(replica, false, `a query failed: ${(error as Error)?.message ?? String(error)}`);
    return refusal !== undefined;
  }

  /** Every replica's state. */
  status(): ReplicaStatus[] {
    return this.replicas.map(({ name, healthy, lagMillis, replayed, problem }) => ({ name, healthy, lagMillis, replayed, problem }));
  }

  /** Reads the primary's position and every replica's, and updates their health (one check at a time). */
  check(): Promise<void> {
    this.#checking ??= this.#check().finally(() => {
      this.#checking = undefined;
    });
    return this.#checking;
  }

  async #check(): Promise<void> {
    const at = this.#now();
    try {
      const { rows } = await this.#options.primary.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn');
      const position = parseWalPosition(rows[0]?.lsn);
      if (position !== undefined) this.#samples.push({ at, position: lastRecordEnd(position, true) });
    } catch {
      // The primary cannot answer: the samples age, and so do the replicas' bounds.
    }
    const keepFrom = at - this.#options.maxLagMillis - 2 * this.#options.checkIntervalMillis;
    while (this.#samples.length > 1 && this.#samples[1]!.at <= keepFrom) this.#samples.shift();
    await Promise.all(this.replicas.map((replica) => this.#checkReplica(replica)));
  }

  async #checkReplica(replica: Replica): Promise<void> {
    let replayed: WalPosition | undefined;
    try {
      const { rows } = await replica.pool.query<{ lsn: string | null }>('select pg_last_wal_replay_lsn()::text as lsn');
      replayed = parseWalPosition(rows[0]?.lsn);
      if (replayed === undefined) return this.#mark(replica, false, 'it is not in recovery (pg_last_wal_replay_lsn() is null): not a streaming replica');
    } catch (error) {
      return this.#mark(replica, false, `the check failed: ${(error as Error)?.message ?? String(error)}`);
    }
    replica.replayed = replayed;
    const now = this.#now();
    let newest: Sample | undefined;
    for (const sample of this.#samples) if (sample.position <= replayed) newest = sample;
    replica.lagMillis = newest ? Math.max(0, now - newest.at) : undefined;
    const within = replica.lagMillis !== undefined && replica.lagMillis + this.#options.checkIntervalMillis <= this.#options.maxLagMillis;
    this.#mark(replica, within, within ? undefined : `its data is older than the bound of ${this.#options.maxLagMillis} ms`);
  }

  #mark(replica: Replica, healthy: boolean, problem: string | undefined): void {
    if (replica.healthy !== healthy) {
      if (healthy) this.#options.logger.warn({ replica: replica.name }, 'Panel database: a read replica is healthy again; reads go to it');
      else this.#options.logger.warn({ replica: replica.name, problem }, 'Panel database: a read replica is skipped; the primary answers its reads');
    }
    replica.healthy = healthy;
    replica.problem = problem;
  }
}
