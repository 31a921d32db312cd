import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPanelError, openDatabase, pingDatabase, type DatabaseUnavailableError, type PanelDatabase } from '@panel/core';
import { testDatabaseKinds, testDatabaseUrl } from '@panel/test-support';

const describePostgres = testDatabaseKinds().includes('postgres') ? describe : describe.skip;

/** What a ping threw. */
const failureOf = (work: Promise<unknown>) => work.then(() => undefined, (error: unknown) => error);

/**
 * docs/operating-in-production.md: readiness is "200 … when the database answers `select 1`;
 * else 503", "never a 500". A database of this test's own (never the shared one) is closed to
 * new connections and its backends terminated, as an operator does before a restore.
 */
describePostgres('a PostgreSQL database that refuses new connections [postgres, a database of its own]', () => {
  const name = `panel_refusing_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl() });
  const urlOf = (database: string, password?: string) => {
    const url = new URL(testDatabaseUrl());
    url.pathname = `/${database}`;
    if (password !== undefined) url.password = password;
    return url.toString();
  };
  const opened: PanelDatabase[] = [];
  const open = async (url: string) => {
    const database = await openDatabase({ url, logger: { warn: () => undefined } });
    opened.push(database);
    return database;
  };

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create database ${name}`);
  });
  afterAll(async () => {
    for (const database of opened) await database.close().catch(() => undefined);
    await admin.query(`alter database ${name} allow_connections true`).catch(() => undefined);
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1`, [name]).catch(() => undefined);
    await admin.query(`drop database if exists ${name}`).catch(() => undefined);
    await admin.end();
  });

  it('"else 503": a database not accepting connections (SQLSTATE 55000, `ALLOW_CONNECTIONS false`) is unavailable (reason connection), and answers again once it accepts them', async () => {
    const database = await open(urlOf(name));
    await pingDatabase(database);
    await admin.query(`alter database ${name} allow_connections false`);
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [name]);
    // A pooled connection may first report its own termination (57P01); the next one is refused with 55000.
    const codes: unknown[] = [];
    for (let attempt = 0; attempt < 3 && codes.at(-1) !== '55000'; attempt += 1) {
      const error = await failureOf(pingDatabase(database));
      expect(isPanelError(error, 'PANEL_ERR_DATABASE_UNAVAILABLE'), String(error)).toBe(true);
      expect((error as DatabaseUnavailableError).reason).toBe('connection');
      codes.push(((error as DatabaseUnavailableError).cause as { code?: string }).code);
    }
    expect(codes.at(-1)).toBe('55000');
    await admin.query(`alter database ${name} allow_connections true`);
    await pingDatabase(database);
  });

  it('a misconfigured connection (a database that does not exist, 3D000) is unavailable with reason configuration, naming the fix in its cause', async () => {
    const database = await open(urlOf(`${name}_missing`));
    const error = await failureOf(pingDatabase(database));
    expect(isPanelError(error, 'PANEL_ERR_DATABASE_UNAVAILABLE'), String(error)).toBe(true);
    expect((error as DatabaseUnavailableError).reason).toBe('configuration');
    expect(((error as DatabaseUnavailableError).cause as { code?: string; message?: string }).message).toMatch(/does not exist/);
  });
});
