import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseKind, type PanelDatabase } from '@panel/core';
import { pgliteSnapshot } from './pglite-snapshot.js';

/** The PostgreSQL server the suite uses unless `DATABASE_URL` says otherwise. */
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

/**
 * The databases every records-layer and HTTP test runs on: PGlite and PostgreSQL. Set
 * `PANEL_TEST_DATABASES=pglite` (or `postgres`) to run one on purpose; an unreachable server
 * is a failing test, never a silent skip.
 */
export function testDatabaseKinds(env: NodeJS.ProcessEnv = process.env): DatabaseKind[] {
  const wanted = (env.PANEL_TEST_DATABASES ?? 'pglite,postgres').split(',').map((s) => s.trim()).filter(Boolean);
  for (const kind of wanted) {
    if (kind !== 'pglite' && kind !== 'postgres') throw new Error(`PANEL_TEST_DATABASES: unknown database "${kind}"; use pglite, postgres or both, comma-separated.`);
  }
  return wanted as DatabaseKind[];
}

/**
 * Whether the test databases keep statements (`openDatabase`'s `statementCache`): true unless
 * `PANEL_TEST_STATEMENT_CACHE=off`, which runs a suite with every statement built per request
 * and sent unnamed, to show it gives the same answers (CI runs the records suites so).
 */
export function testStatementCache(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.PANEL_TEST_STATEMENT_CACHE ?? 'on';
  if (value !== 'on' && value !== 'off') throw new Error(`PANEL_TEST_STATEMENT_CACHE must be on or off, instead got "${value}".`);
  return value === 'on';
}

/** The server URL the PostgreSQL tests use. */
export function testDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.DATABASE_URL || DEFAULT_DATABASE_URL;
}

/** A schema of its own on the PostgreSQL test server, and how to drop it. */
export interface TestSchema {
  readonly url: string;
  readonly schema: string;
  drop(): Promise<void>;
}

/** Creates a new schema on the PostgreSQL test server (a failing test, naming the fix, when the server is unreachable). */
export async function createTestSchema(): Promise<TestSchema> {
  const url = testDatabaseUrl();
  const schema = `panel_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${url} (${(error as Error).message}). Start the server, set DATABASE_URL to one, ` +
        'or run on PGlite alone with PANEL_TEST_DATABASES=pglite.',
    );
  }
  try {
    await admin.query(`create schema ${schema}`);
  } finally {
    await admin.end();
  }
  return {
    url,
    schema,
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      try {
        await cleanup.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

/**
 * Opens a database for one test file: a fresh in-memory PGlite (loaded from a snapshot of a
 * newly initialized one, which is faster than initdb), or a new schema of its own on the
 * PostgreSQL server (dropped on close), so parallel files never collide.
 */
export async function openTestDatabase(kind: DatabaseKind): Promise<PanelDatabase> {
  const statementCache = testStatementCache();
  if (kind === 'pglite') return openDatabase({ loadDataDir: await pgliteSnapshot(), statementCache });
  const { url, schema, drop } = await createTestSchema();
  const database = await openDatabase({ url, schema, maxConnections: 4, statementCache });
  return {
    ...database,
    close: async () => {
      await database.close();
      await drop();
    },
  };
}

/** Counts the SQL statements a piece of work runs on a database. */
export async function countQueries<T>(database: PanelDatabase, work: () => Promise<T>): Promise<{ result: T; count: number; statements: string[] }> {
  const statements: string[] = [];
  const stop = database.onQuery((query) => statements.push(query.sql));
  try {
    const result = await work();
    return { result, count: statements.length, statements };
  } finally {
    stop();
  }
}
