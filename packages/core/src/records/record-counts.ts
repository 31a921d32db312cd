import { CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import type { CountStrategy } from './count-strategy.js';
import type { RecordsQuery } from './records-query.js';
import { StatementBatcher, statementKey } from './statement-batcher.js';
import type { ChangeNotifications } from '../database/change-notifications.js';
import { currentReadConsistency, runWithReadConsistency } from '../database/replicas/read-consistency.js';
import { formatWalPosition, parseWalPosition, type WalPosition } from '../database/replicas/wal-position.js';

/**
 * Where a `total_count` came from when it is not an exact count started after the request:
 * `estimate` (the planner's estimate) or `cached` (an exact count this process made earlier,
 * at most the strategy's `maxAgeMs` ago).
 */
export type TotalCountSource = 'estimate' | 'cached';

/** A list's total and, when it is not a fresh exact count, where it came from. */
export interface CountAnswer {
  readonly count: number;
  readonly source?: TotalCountSource;
}

interface CachedCount {
  readonly count: number;
  /** When the count started (its answer is at least this fresh). */
  readonly startedAt: number;
  readonly table: string;
}

/** An exact count with the snapshot its statement saw (`pg_current_snapshot()`), on the primary. */
interface UnchangedCount {
  readonly count: number;
  readonly snapshot: string;
  /** When the statement that made it was sent (`performance.now()`). */
  readonly sentAt: number;
}

/** The `exact` strategy when it reuses counts (`reuseUnchangedMs` above 0). */
type Reuse = Extract<CountStrategy, { readonly reuseUnchangedMs: number }>;

/** Sets `key` as the newest entry of `map`, then drops the oldest ones beyond `maxEntries`. */
function keepNewest<V>(map: Map<string, V>, key: string, value: V, maxEntries: number): void {
  map.delete(key);
  map.set(key, value);
  for (const oldest of map.keys()) {
    if (map.size <= maxEntries) break;
    map.delete(oldest);
  }
}

/**
 * The count statement of the `exact` strategy with `reuseUnchangedMs`: the plain `count`
 * statement as a subquery that runs only when the database's snapshot is not `$<n+1>` (the
 * snapshot an earlier count of the same statement saw), or when the server is a standby, whose
 * snapshot does not list the transactions in progress. PostgreSQL runs an uncorrelated
 * subquery (an InitPlan) only when its value is needed, so an unchanged snapshot costs no scan.
 * The second column is the statement's snapshot on a primary, null on a standby.
 */
function unlessUnchanged(countSql: string, parameters: number): string {
  return `select case when not pg_is_in_recovery() and pg_current_snapshot()::text = $${parameters + 1} then null else (${countSql}) end as "count", case when pg_is_in_recovery() then null else pg_current_snapshot()::text end as "snapshot"`;
}

/** The count statement of a list's rows (`select count(*) as "count" from …` with the scope's conditions). */
export function countingQuery(rows: RecordsQuery): RecordsQuery {
  return rows.clearSelect().select((eb) => eb.fn.countAll<number>().as('count'));
}

/** The `count` column of a count statement's one row. */
function countOf(result: QueryResult<unknown>): number {
  return Number((result.rows[0] as { count: number | string }).count);
}

/** The top plan node of `EXPLAIN (FORMAT JSON)`. */
interface PlanNode {
  readonly 'Plan Rows'?: number;
}

/** The planner's row estimate from `EXPLAIN (FORMAT JSON)` output (a JSON value, or its text on drivers that do not parse it). */
function planRows(value: unknown): number {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  const rows = (parsed as { Plan?: PlanNode }[] | undefined)?.[0]?.Plan?.['Plan Rows'];
  if (typeof rows !== 'number' || !Number.isFinite(rows)) throw new Error('EXPLAIN (FORMAT JSON) gave no "Plan Rows"; the planner estimate is unavailable.');
  return Math.max(0, Math.round(rows));
}

/**
 * The total of an index page under a count strategy. The exact count is shared with the
 * identical counts other requests ask for before it starts (`StatementBatcher`); `estimate`
 * asks the planner first and counts only below its threshold; `cached` keeps exact counts per
 * list and scope for a bounded time, in bounded memory, in this process only.
 */
export class RecordCounts {
  readonly #db: Kysely<any>;
  readonly #batcher = new StatementBatcher();
  readonly #cache = new Map<string, CachedCount>();
  /** The `exact` strategy's counts kept with their snapshots (`reuseUnchangedMs`), by statement and parameters. */
  readonly #unchanged = new Map<string, UnchangedCount>();
  /** False once the server lacked `pg_current_snapshot()` (PostgreSQL before 13): counts are then made plainly. */
  #snapshots = true;
  /** Per table, how many times its counts were dropped: a count that started before a drop is not kept. */
  readonly #writes = new Map<string, number>();
  /** Raised when every count is dropped (changes from other processes may have been missed). */
  #epoch = 0;
  readonly #changes: ChangeNotifications | undefined;
  /**
   * Per table, the WAL position of the last write heard of: a count of that table that will be
   * kept is made on a server that has replayed it (the primary, or a replica caught up), so a
   * lagging replica's count is never cached as if it were new.
   */
  readonly #after = new Map<string, WalPosition>();
  #subscribed = false;

  /**
   * `changes` (the database's `LISTEN/NOTIFY` channel) makes the `cached` strategy hold across
   * processes: a write to a table through any process drops that table's counts in every
   * process, and while the channel is not live no count is answered from memory.
   */
  constructor(db: Kysely<any>, changes?: ChangeNotifications) {
    this.#db = db;
    this.#changes = changes;
  }

  /**
   * The total of a list under `strategy`, from its statements (`listStatements`): `count` (the
   * rows the scope lets through, counted) and, for the `estimate` strategy, `estimate` (the
   * same rows, whose plan estimates how many there are).
   */
  async count(input: { table: string; statements: { readonly count: CompiledQuery; readonly estimate?: CompiledQuery | undefined }; strategy: CountStrategy }): Promise<CountAnswer> {
    const { table, statements, strategy } = input;
    const compiled = statements.count;
    if (strategy.strategy === 'exact') return this.exactCount(compiled, strategy);
    if (strategy.strategy === 'estimate') {
      const estimate = await this.#estimate(statements.estimate!);
      return estimate >= strategy.exactBelow ? { count: estimate, source: 'estimate' } : { count: await this.#exact(compiled) };
    }
    const key = statementKey(compiled.sql, compiled.parameters);
    if (key === undefined) return { count: await this.#exact(compiled) };
    this.#subscribe();
    // The first cached count waits for the channel (a connection being made), so that it can be kept.
    if (this.#changes && !this.#changes.live) await this.#changes.ready();
    const cached = this.#cache.get(key);
    const now = strategy.now();
    // Not from memory while other processes' writes cannot be heard, nor to a request that must
    // read after its own write (read-your-writes over replicas): those count afresh.
    const mayReuse = (this.#changes === undefined || this.#changes.live) && currentReadConsistency()?.readAfter === undefined;
    if (mayReuse && cached && now - cached.startedAt <= strategy.maxAgeMs) return { count: cached.count, source: 'cached' };
    const writes = this.#writes.get(table) ?? 0;
    const epoch = this.#epoch;
    const after = this.#after.get(table);
    const own = currentReadConsistency()?.readAfter;
    const count = after === undefined ? await this.#exact(compiled) : await runWithReadConsistency(own !== undefined && own > after ? own : after, () => this.#exact(compiled));
    // A write heard while the count ran may be missing from it: not kept then.
    if ((this.#writes.get(table) ?? 0) !== writes || this.#epoch !== epoch) return { count };
    keepNewest(this.#cache, key, { count, startedAt: now, table }, strategy.maxEntries);
    return { count };
  }

  /** The exact total by a count statement (`countingQuery`, compiled). */
  async exactCount(compiled: CompiledQuery, strategy: CountStrategy & { readonly strategy: 'exact' }): Promise<CountAnswer> {
    return { count: await this.#exact(compiled, 'reuseUnchangedMs' in strategy ? strategy : undefined) };
  }

  /**
   * After a write to `table`: drops its counts here and, when its strategy is `cached`, tells
   * every other process to drop theirs (`{ kind: 'records', table }` on the change channel).
   */
  async written(table: string, strategy: CountStrategy): Promise<void> {
    if (strategy.strategy !== 'cached' || !this.#changes) return this.forget(table);
    try {
      // The write's WAL position (read-your-writes over replicas), so that every process recounts at or after it.
      const wrote = currentReadConsistency()?.wrote;
      await this.#changes.publish({ kind: 'records', table, ...(wrote === undefined ? {} : { after: formatWalPosition(wrote) }) });
    } catch {
      // Delivered here already (publish does that first); the other processes' counts expire within maxAgeMs.
    }
  }

  /** Drops the cached counts of a table (after a write to it through this process). */
  forget(table: string): void {
    this.#writes.set(table, (this.#writes.get(table) ?? 0) + 1);
    for (const [key, cached] of this.#cache) if (cached.table === table) this.#cache.delete(key);
  }

  #subscribe(): void {
    if (this.#subscribed || !this.#changes) return;
    this.#subscribed = true;
    this.#changes.subscribe({
      change: (change) => {
        if (change.kind !== 'records' || typeof change.table !== 'string') return;
        const after = parseWalPosition(change.after);
        if (after !== undefined && after > (this.#after.get(change.table) ?? 0n)) this.#after.set(change.table, after);
        this.forget(change.table);
      },
      reset: () => {
        this.#epoch += 1;
        this.#cache.clear();
      },
    });
  }

  /** How many counts the `cached` strategy holds (for tests: bounded by `maxEntries`). */
  get cachedCounts(): number {
    return this.#cache.size;
  }

  /**
   * The exact count of `query`, shared with the identical counts asked for before it starts.
   * With `reuse`, its statement skips the scan when the snapshot is still the one an earlier
   * count of the same statement and parameters saw, at most `reuseUnchangedMs` ago: no
   * transaction has committed since, so that count is the count now.
   */
  async #exact(compiled: CompiledQuery, reuse?: Reuse): Promise<number> {
    const key = statementKey(compiled.sql, compiled.parameters);
    if (key === undefined) return countOf(await this.#db.executeQuery(compiled));
    const plain = () => this.#db.executeQuery(compiled).then(countOf);
    return this.#batcher.run(key, reuse && this.#snapshots ? () => this.#countUnlessUnchanged(compiled, key, reuse).catch((error: unknown) => this.#withoutSnapshots(error, plain)) : plain);
  }

  async #countUnlessUnchanged(compiled: CompiledQuery, key: string, reuse: Reuse): Promise<number> {
    const sentAt = performance.now();
    const held = this.#unchanged.get(key);
    const candidate = held !== undefined && sentAt - held.sentAt <= reuse.reuseUnchangedMs ? held : undefined;
    const statement = CompiledQuery.raw(unlessUnchanged(compiled.sql, compiled.parameters.length), [...compiled.parameters, candidate?.snapshot ?? '']);
    const row = (await this.#db.executeQuery(statement)).rows[0] as { count: number | string | null; snapshot: string | null };
    if (candidate !== undefined && row.snapshot === candidate.snapshot) return candidate.count;
    const count = Number(row.count);
    if (row.snapshot === null) return count;
    keepNewest(this.#unchanged, key, { count, snapshot: row.snapshot, sentAt }, reuse.maxEntries);
    return count;
  }

  /** After a failed count: a server without `pg_current_snapshot()` is said once and counted plainly from then on. */
  #withoutSnapshots(error: unknown, plain: () => Promise<number>): Promise<number> {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    if (code !== '42883' || typeof message !== 'string' || !message.includes('pg_current_snapshot')) throw error;
    if (this.#snapshots) {
      this.#snapshots = false;
      process.emitWarning('Panel: the count strategy\'s reuseUnchangedMs needs pg_current_snapshot(), which this server lacks (PostgreSQL 13 or later has it): every page now counts its rows. Fix: upgrade PostgreSQL, or leave reuseUnchangedMs out.', { code: 'PANEL_WARN_COUNT_REUSE_UNAVAILABLE' });
    }
    return plain();
  }

  /** The planner's estimate of the rows `compiled` returns: `EXPLAIN (FORMAT JSON)`, planned with its parameters, never run. */
  async #estimate(compiled: CompiledQuery): Promise<number> {
    const { rows } = await this.#db.executeQuery(CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]));
    return planRows((rows[0] as Record<string, unknown>)['QUERY PLAN']);
  }
}
