import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDatabase, type PanelDatabase } from '@panel/core';

/** The PostgreSQL server the in-process benchmarks use. */
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The mean time of `work`, in microseconds, over `count` runs after a short warm-up. */
export async function meanMicros(count: number, work: () => Promise<unknown> | unknown): Promise<number> {
  for (let i = 0; i < Math.min(50, count); i += 1) await work();
  const start = performance.now();
  for (let i = 0; i < count; i += 1) await work();
  return ((performance.now() - start) * 1000) / count;
}

/** Runs `run` on a PostgreSQL schema of its own (prefix `prefix`), dropped afterwards. */
export async function withPostgresSchema<T>(prefix: string, run: (database: PanelDatabase) => Promise<T>): Promise<T> {
  const schema = `${prefix}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  try {
    return await run(await openDatabase({ url: DATABASE_URL, schema }));
  } finally {
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  }
}
