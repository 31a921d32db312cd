import { sql, type Kysely } from 'kysely';
import { RATE_LIMITS_TABLE } from '@panel/core';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';

/** How often (in increments of one process) the store deletes counters whose window ended long ago. */
const PURGE_EVERY = 500;

/**
 * A `@fastify/rate-limit` store in the panel's PostgreSQL database (`panel_api_rate_limits`,
 * a Panel migration): one row per credential, a fixed window, counted by one upsert, so every
 * process on the database spends one budget per credential. Counters whose window ended over an
 * hour ago are deleted now and then by the increments themselves (no cron).
 */
export class PostgresRateLimitStore implements FastifyRateLimitStore {
  readonly #db: Kysely<any>;
  #increments = 0;

  constructor(db: Kysely<any>) {
    this.#db = db;
  }

  incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
    this.#increment(key, timeWindow).then((result) => callback(null, result), (error: Error) => callback(error));
  }

  child(): FastifyRateLimitStore {
    return this;
  }

  async #increment(key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
    const seconds = windowMs / 1000;
    const table = sql.table(RATE_LIMITS_TABLE);
    const ended = sql`${sql.ref('r.window_started_at')} <= clock_timestamp() - make_interval(secs => ${seconds})`;
    const { rows } = await sql<{ current: number; ttl: number }>`
      insert into ${table} as r (key, count, window_started_at) values (${key}, 1, clock_timestamp())
      on conflict (key) do update set
        count = case when ${ended} then 1 else r.count + 1 end,
        window_started_at = case when ${ended} then clock_timestamp() else r.window_started_at end
      returning count as current, greatest(0, extract(epoch from (window_started_at + make_interval(secs => ${seconds}) - clock_timestamp())) * 1000)::float8 as ttl`.execute(this.#db);
    if (++this.#increments % PURGE_EVERY === 0) {
      await sql`delete from ${table} where key in (select key from ${table} where window_started_at < clock_timestamp() - interval '1 hour' limit 100 for update skip locked)`.execute(this.#db);
    }
    const row = rows[0]!;
    return { current: Number(row.current), ttl: Math.ceil(Number(row.ttl)) };
  }
}
