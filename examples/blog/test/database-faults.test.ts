import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskStorage, openDatabase, type PanelDatabase } from '@panel/core';
import { createTestSchema, startTcpFaultProxy, testDatabaseKinds, type TcpFaultProxy, type TestSchema } from '@panel/test-support';
import { buildDemoApp, type DemoApp } from '../src/build-app.js';
import { ADMIN } from './demo-app-support.js';

/**
 * The fault-injection suite: the demo on PostgreSQL, through a TCP proxy that cuts every
 * connection, refuses new ones, or stalls the traffic. Timeouts are short here so that the
 * bounds are quick to check: connect 1000 ms, statement 1000 ms, query 2000 ms.
 */
const TIMEOUTS = { connectionTimeoutMillis: 1_000, statementTimeoutMillis: 1_000, queryTimeoutMillis: 2_000 } as const;
/** The slowest a refused request may be: the longest timeout (a request's first query meets it) and a margin for a loaded machine. */
const BOUND_MILLIS = 5_000;
const POSTS = '/api/resources/v1/blog_posts';

interface LogLine {
  readonly details: Record<string, unknown>;
  readonly message: string;
}

const describePostgres = testDatabaseKinds().includes('postgres') ? describe : describe.skip;

describePostgres('the demo survives the database and the network [postgres, through a fault-injecting proxy]', () => {
  let schema: TestSchema;
  let proxy: TcpFaultProxy;
  let database: PanelDatabase;
  let demo: DemoApp;
  let storageRoot: string;
  let admin: pg.Client;
  const applicationName = `panel_faults_${randomBytes(4).toString('hex')}`;
  const databaseLog: LogLine[] = [];

  beforeAll(async () => {
    schema = await createTestSchema();
    const target = new URL(schema.url);
    proxy = await startTcpFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const proxied = new URL(schema.url);
    proxied.host = proxy.address;
    database = await openDatabase({
      url: proxied.toString(),
      schema: schema.schema,
      maxConnections: 4,
      applicationName,
      ...TIMEOUTS,
      logger: { warn: (details, message) => void databaseLog.push({ details, message }) },
    });
    storageRoot = await mkdtemp(join(tmpdir(), 'panel-faults-storage-'));
    demo = await buildDemoApp({ database, storage: diskStorage({ root: storageRoot }) });
    await demo.app.ready();
    admin = new pg.Client({ connectionString: schema.url });
    await admin.connect();
    await admin.query(`set search_path = ${schema.schema}`);
  });

  afterAll(async () => {
    await admin?.end();
    await demo?.app.close();
    await database?.close();
    await proxy?.close();
    await schema?.drop();
    if (storageRoot) await rm(storageRoot, { recursive: true, force: true });
  });

  const get = (url: string) => demo.app.inject({ method: 'GET', url, headers: ADMIN });
  /** Sends a request and measures how long the answer took. */
  const timed = async (request: () => Promise<{ statusCode: number; headers: Record<string, unknown>; json(): unknown }>) => {
    const started = performance.now();
    const response = await request();
    return { response, millis: performance.now() - started };
  };
  /**
   * Several requests at once, so that the pool holds several connections. On a loaded machine
   * opening four at once can outlast the short connect timeout: it tries again (a 503 there is
   * the rule working, not the point of this step).
   */
  const warmPool = async () => {
    let statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      statuses = (await Promise.all([1, 2, 3, 4].map(() => get(`${POSTS}?per_page=2`)))).map((a) => a.statusCode);
      if (statuses.every((status) => status === 200)) return;
    }
    expect(statuses).toEqual([200, 200, 200, 200]);
  };
  const expectServiceUnavailable = (answer: { response: { statusCode: number; headers: Record<string, unknown>; json(): unknown }; millis: number }, what: string) => {
    expect(answer.response.statusCode, what).toBe(503);
    expect(answer.response.json(), what).toEqual({ error: 'Service Unavailable' });
    expect(answer.response.headers['retry-after'], what).toBe('5');
    expect(String(answer.response.headers['content-type']), what).toMatch(/^application\/json/);
    expect(answer.millis, `${what} took ${Math.round(answer.millis)} ms`).toBeLessThan(BOUND_MILLIS);
  };
  const rowsTitled = async (title: string) => Number((await admin.query('select count(*) as n from blog_posts where title = $1', [title])).rows[0].n);
  const create = (title: string) => demo.app.inject({ method: 'POST', url: POSTS, headers: { ...ADMIN, 'content-type': 'application/json' }, payload: { blog_post: { title, author_id: 1 } } });
  const waitFor = async (condition: () => boolean, millis: number) => {
    const deadline = Date.now() + millis;
    while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return condition();
  };

  it('"A database failure never kills the process": pg_terminate_backend on every pooled connection is logged once per connection with its PostgreSQL code, and the next request answers 200', async () => {
    await warmPool();
    const before = databaseLog.length;
    const { rows } = await admin.query('select pg_terminate_backend(pid) as done from pg_stat_activity where application_name = $1', [applicationName]);
    expect(rows.length).toBeGreaterThan(0);
    expect(await waitFor(() => databaseLog.length - before >= rows.length, 2_000)).toBe(true);
    const lines = databaseLog.slice(before);
    expect(lines).toHaveLength(rows.length);
    expect(lines.every((line) => line.details.code === '57P01')).toBe(true);
    expect(lines[0]!.message).toMatch(/removed from the pool/);
    expect((await get(POSTS)).statusCode).toBe(200);
  });

  it('"the next request gets a fresh connection" after the network cuts every connection (no PostgreSQL code, a reset socket)', async () => {
    await warmPool();
    const opened = proxy.connectionsOpened;
    proxy.cutAll();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const answer = await get(POSTS);
    expect(answer.statusCode).toBe(200);
    expect(proxy.connectionsOpened).toBeGreaterThan(opened);
  });

  it('"Database unavailable → 503 { "error": "Service Unavailable" } with Retry-After" for every route while connections are refused, "never a 500", and the liveness check stays 200', async () => {
    await warmPool();
    const { headers } = await get(`${POSTS}/1`);
    expect(headers['x-request-id']).toBeDefined();
    await proxy.refuse();
    try {
      const json = { ...ADMIN, 'content-type': 'application/json' };
      const requests: [string, () => ReturnType<typeof get>][] = [
        ['index', () => get(POSTS)],
        ['show', () => get(`${POSTS}/1`)],
        ['create', () => create('refused-while-down')],
        ['update', () => demo.app.inject({ method: 'PATCH', url: `${POSTS}/1`, headers: json, payload: { blog_post: { title: 'changed while down' } } })],
        ['destroy', () => demo.app.inject({ method: 'DELETE', url: `${POSTS}/2`, headers: ADMIN })],
        ['readiness', () => demo.app.inject({ method: 'GET', url: '/api/health/ready' })],
      ];
      for (const [what, request] of requests) expectServiceUnavailable(await timed(request), what);
      const live = await demo.app.inject({ method: 'GET', url: '/api/health' });
      expect(live.statusCode).toBe(200);
      expect(live.json()).toEqual({ status: 'ok' });
    } finally {
      await proxy.heal();
    }
    expect(await rowsTitled('refused-while-down')).toBe(0);
    expect((await admin.query('select title from blog_posts where id = 1')).rows[0].title).not.toBe('changed while down');
    expect((await admin.query('select count(*) as n from blog_posts where id = 2')).rows[0].n).toBe('1');
  });

  it('"Recovery by itself: when PostgreSQL returns, the next request succeeds — no restart"', async () => {
    await proxy.refuse();
    expect((await get(POSTS)).statusCode).toBe(503);
    await proxy.heal();
    const answer = await get(POSTS);
    expect(answer.statusCode).toBe(200);
    expect((await demo.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
  });

  it('"A frozen database makes requests fail within a bounded time, never hang": stalled traffic gives 503 within the connect and query timeouts, then recovers', async () => {
    await warmPool();
    await proxy.stall();
    try {
      // Pooled connections wait for an answer (query timeout); new ones wait to connect (connect timeout).
      const answers = await Promise.all([1, 2, 3, 4, 5, 6].map(() => timed(() => get(POSTS))));
      for (const [index, answer] of answers.entries()) expectServiceUnavailable(answer, `stalled request ${index + 1}`);
      expectServiceUnavailable(await timed(() => demo.app.inject({ method: 'GET', url: '/api/health/ready' })), 'readiness while stalled');
    } finally {
      await proxy.heal();
    }
    const deadline = Date.now() + 5_000;
    let status = 0;
    while (status !== 200 && Date.now() < deadline) status = (await get(POSTS)).statusCode;
    expect(status).toBe(200);
  });

  it('"Writes that fail this way leave nothing half-written": a create whose connection is cut before COMMIT is a 503 and no row exists', async () => {
    const title = `cut-before-commit-${randomBytes(3).toString('hex')}`;
    proxy.cutWhenClientSends(/\bcommit\b/i);
    const answer = await timed(() => create(title));
    expectServiceUnavailable(answer, 'create cut before commit');
    expect(await rowsTitled(title)).toBe(0);
    expect((await create(title)).statusCode).toBe(201);
    expect(await rowsTitled(title)).toBe(1);
  });

  it('"a statement timeout → 503 too": an update blocked by a row lock past statement_timeout (57014) is 503 within the bound, changes nothing, and works once the lock is gone', async () => {
    const before = (await admin.query('select title from blog_posts where id = 3')).rows[0].title as string;
    await admin.query('begin');
    await admin.query('select id from blog_posts where id = 3 for update');
    const patch = () => demo.app.inject({ method: 'PATCH', url: `${POSTS}/3`, headers: { ...ADMIN, 'content-type': 'application/json' }, payload: { blog_post: { title: 'locked out' } } });
    try {
      const answer = await timed(patch);
      expectServiceUnavailable(answer, 'update behind a lock');
      expect(answer.millis).toBeGreaterThanOrEqual(TIMEOUTS.statementTimeoutMillis - 50);
    } finally {
      await admin.query('rollback');
    }
    expect((await admin.query('select title from blog_posts where id = 3')).rows[0].title).toBe(before);
    expect((await patch()).statusCode).toBe(200);
  });

  it('answers the attachment URL with the same 503 and Retry-After while the database is down', async () => {
    // The seed gives every sixth post a cover.
    const shown = await get(`${POSTS}/6`);
    expect(shown.statusCode, shown.body).toBe(200);
    const url = (shown.json() as { record: { cover: { url: string } | null } }).record.cover?.url;
    expect(url, `the seeded post 6 has a cover: ${shown.body}`).toBeDefined();
    expect((await demo.app.inject({ method: 'GET', url: url! })).statusCode).toBe(200);
    await proxy.refuse();
    try {
      expectServiceUnavailable(await timed(() => demo.app.inject({ method: 'GET', url: url! })), 'attachment');
    } finally {
      await proxy.heal();
    }
    expect((await demo.app.inject({ method: 'GET', url: url! })).statusCode).toBe(200);
  });
});

describe.each(testDatabaseKinds())('health checks [%s]', (kind) => {
  it('answer 200 { "status": "ok" } without credentials, and a closed database makes readiness 503 (never 500)', async () => {
    const database = kind === 'pglite' ? await openDatabase() : await (async () => {
      const { openTestDatabase } = await import('@panel/test-support');
      return openTestDatabase(kind);
    })();
    const storageRoot = await mkdtemp(join(tmpdir(), 'panel-health-storage-'));
    const { app } = await buildDemoApp({ database, storage: diskStorage({ root: storageRoot }) });
    try {
      for (const url of ['/api/health', '/api/health/ready']) {
        const response = await app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(200);
        expect(response.json(), url).toEqual({ status: 'ok' });
        expect(response.headers['cache-control']).toBe('no-store');
      }
      await database.close();
      const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ error: 'Service Unavailable' });
      expect(ready.headers['retry-after']).toBe('5');
      expect((await app.inject({ method: 'GET', url: POSTS, headers: ADMIN })).statusCode).toBe(503);
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await rm(storageRoot, { recursive: true, force: true });
    }
  }, 120_000);
});
