import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseUnavailableError, isPanelError, openDatabase, pingDatabase, type DatabaseLogger, type OpenDatabaseOptions, type PanelDatabase } from '@panel/core';
import { createTestSchema, startTcpFaultProxy, testDatabaseKinds, type TcpFaultProxy, type TestSchema } from '@panel/test-support';

/** What a failed query threw, for assertions. */
async function failure(work: Promise<unknown>): Promise<DatabaseUnavailableError> {
  const error = await work.then(() => undefined, (e: unknown) => e);
  expect(isPanelError(error, 'PANEL_ERR_DATABASE_UNAVAILABLE'), String(error)).toBe(true);
  return error as DatabaseUnavailableError;
}

const describePostgres = testDatabaseKinds().includes('postgres') ? describe : describe.skip;

describePostgres('openDatabase on PostgreSQL when the database fails [postgres, through a fault-injecting proxy]', () => {
  let schema: TestSchema;
  let proxy: TcpFaultProxy;
  const opened: PanelDatabase[] = [];
  const lines: { details: Record<string, unknown>; message: string }[] = [];
  const logger: DatabaseLogger = { warn: (details, message) => void lines.push({ details, message }) };

  beforeAll(async () => {
    schema = await createTestSchema();
    const target = new URL(schema.url);
    proxy = await startTcpFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
  });
  afterAll(async () => {
    for (const database of opened) await database.close().catch(() => undefined);
    await proxy?.close();
    await schema?.drop();
  });

  const open = async (options: Partial<OpenDatabaseOptions> = {}) => {
    const url = new URL(schema.url);
    url.host = proxy.address;
    const database = await openDatabase({ url: url.toString(), schema: schema.schema, logger, ...options });
    opened.push(database);
    return database;
  };
  const elapsed = async <T>(work: () => Promise<T>) => {
    const started = performance.now();
    const result = await work();
    return { result, millis: performance.now() - started };
  };

  it('"connection refused" is a DatabaseUnavailableError (reason connection, the socket error as its cause), and the next query after the server is back succeeds', async () => {
    const database = await open();
    await proxy.refuse();
    try {
      const error = await failure(pingDatabase(database));
      expect(error.reason).toBe('connection');
      expect((error.cause as { code?: string }).code).toBe('ECONNREFUSED');
    } finally {
      await proxy.heal();
    }
    await pingDatabase(database);
  });

  it('"waiting for a pooled connection" is bounded by connectionTimeoutMillis: reason timeout', async () => {
    const database = await open({ maxConnections: 1, connectionTimeoutMillis: 300 });
    let release!: () => void;
    const held = database.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      await new Promise<void>((resolve) => (release = resolve));
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { result, millis } = await elapsed(() => failure(pingDatabase(database)));
    expect(result.reason).toBe('timeout');
    expect(result.message).toMatch(/timeout exceeded when trying to connect/);
    expect(millis).toBeLessThan(2_000);
    release();
    await held;
    await pingDatabase(database);
  });

  it('"each statement (statement_timeout)": a statement longer than statementTimeoutMillis is cancelled by the server (57014), reason timeout', async () => {
    const database = await open({ statementTimeoutMillis: 200 });
    const { result, millis } = await elapsed(() => failure(sql`select pg_sleep(3)`.execute(database.db)));
    expect(result.reason).toBe('timeout');
    expect((result.cause as { code?: string }).code).toBe('57014');
    expect(millis).toBeLessThan(2_000);
    await pingDatabase(database);
  });

  it('"a frozen database makes requests fail within a bounded time": connecting is bounded by connectionTimeoutMillis and an unanswered statement by queryTimeoutMillis, whose connection is closed, not reused', async () => {
    const database = await open({ connectionTimeoutMillis: 300, queryTimeoutMillis: 400 });
    await pingDatabase(database);
    await proxy.stall();
    try {
      const pooled = await elapsed(() => failure(pingDatabase(database)));
      expect(pooled.result.reason, pooled.result.message).toBe('timeout');
      expect(pooled.result.message).toMatch(/Query read timeout/);
      expect(pooled.millis).toBeLessThan(2_000);
      const fresh = await elapsed(() => failure(pingDatabase(database)));
      expect(fresh.result.reason, fresh.result.message).toBe('timeout');
      expect(fresh.millis).toBeLessThan(2_000);
    } finally {
      await proxy.heal();
    }
    const before = proxy.connectionsOpened;
    const next = await elapsed(() => pingDatabase(database));
    expect(next.millis).toBeLessThan(1_000);
    expect(proxy.connectionsOpened, 'the timed-out connection was closed and a new one opened').toBeGreaterThan(before);
  });

  it('"the pool\'s and every client\'s error events are handled (logged once, with the PostgreSQL code)": idle and busy connections terminated by the server', async () => {
    const applicationName = `panel_pool_${randomBytes(3).toString('hex')}`;
    const database = await open({ applicationName, maxConnections: 3 });
    await Promise.all([1, 2, 3].map(() => sql`select pg_sleep(0.05)`.execute(database.db)));
    const admin = new pg.Client({ connectionString: schema.url });
    await admin.connect();
    try {
      const from = lines.length;
      // One busy connection (in a statement) and the idle others.
      const busy = sql`select pg_sleep(2)`.execute(database.db).then(() => undefined, (e: unknown) => e);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const { rows } = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [applicationName]);
      expect(rows).toHaveLength(3);
      const busyError = await busy;
      expect(isPanelError(busyError, 'PANEL_ERR_DATABASE_UNAVAILABLE')).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const logged = lines.slice(from);
      expect(logged).toHaveLength(3);
      expect(logged.map((line) => line.details.code)).toEqual(['57P01', '57P01', '57P01']);
      expect(logged.map((line) => line.details.connection).sort()).toEqual(['busy', 'idle', 'idle']);
      expect(JSON.stringify(logged)).not.toContain('pg_sleep');
    } finally {
      await admin.end();
    }
    await pingDatabase(database);
  });
});

describe('openDatabase on PGlite when the database is closed [pglite]', () => {
  it('answers queries after close() with an error the API maps to 503, never a crash', async () => {
    const database = await openDatabase();
    await pingDatabase(database);
    await database.close();
    await expect(pingDatabase(database)).rejects.toThrow(/destroyed|closed/);
  });
});
