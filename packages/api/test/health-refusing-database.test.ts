import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type PanelDatabase } from '@panel/core';
import { testDatabaseKinds, testDatabaseUrl } from '@panel/test-support';
import { buildLibraryApp, prepareLibrary } from './library-app.js';

const describePostgres = testDatabaseKinds().includes('postgres') ? describe : describe.skip;

/**
 * docs/operating-in-production.md: `GET /api/health/ready` is "200 … when the database answers
 * `select 1`; else 503 … with `Retry-After`", "never a 500". A PostgreSQL database of this
 * test's own (never the shared one) is closed to new connections (`ALLOW_CONNECTIONS false`,
 * SQLSTATE 55000) and its backends terminated, as an operator does before a restore.
 */
describePostgres('readiness when the database refuses new connections [postgres, a database of its own]', () => {
  const name = `panel_api_refusing_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl() });
  const urlOf = (database: string) => {
    const url = new URL(testDatabaseUrl());
    url.pathname = `/${database}`;
    return url.toString();
  };
  const opened: PanelDatabase[] = [];

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create database ${name}`);
  });
  afterAll(async () => {
    for (const database of opened) await database.close().catch(() => undefined);
    await admin.query(`alter database ${name} allow_connections true`).catch(() => undefined);
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]).catch(() => undefined);
    await admin.query(`drop database if exists ${name}`).catch(() => undefined);
    await admin.end();
  });

  it('"else 503", "never a 500": readiness answers 503 with Retry-After (logged with the code 55000) while the database refuses connections, 200 once it accepts them', async () => {
    const database = await openDatabase({ url: urlOf(name), logger: { warn: () => undefined } });
    opened.push(database);
    await prepareLibrary(database);
    const { app, logs } = await buildLibraryApp(database, undefined, {}, 'warn');
    try {
      expect((await app.inject({ url: '/api/health/ready' })).statusCode).toBe(200);
      await admin.query(`alter database ${name} allow_connections false`);
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      // A pooled connection may first report its own termination (57P01); then every new one is refused (55000).
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const ready = await app.inject({ url: '/api/health/ready' });
        expect(ready.statusCode, ready.body).toBe(503);
        expect(ready.headers['retry-after']).toBe('5');
      }
      expect(logs.join('')).toContain('"cause":"55000"');
      await admin.query(`alter database ${name} allow_connections true`);
      expect((await app.inject({ url: '/api/health/ready' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('a database that does not exist (3D000) is a 503 too, logged at error with the driver\'s message: the settings, not time, will fix it', async () => {
    const database = await openDatabase({ url: urlOf(`${name}_missing`), logger: { warn: () => undefined } });
    opened.push(database);
    const { app, logs } = await buildLibraryApp(database, undefined, {}, 'warn');
    try {
      const ready = await app.inject({ url: '/api/health/ready' });
      expect(ready.statusCode, ready.body).toBe(503);
      const line = JSON.parse(logs.find((entry) => entry.includes('"cause":"3D000"'))!) as { level: number; reason: string; detail: string };
      expect(line.level).toBe(50);
      expect(line.reason).toBe('configuration');
      expect(line.detail).toMatch(/does not exist/);
    } finally {
      await app.close();
    }
  });
});
