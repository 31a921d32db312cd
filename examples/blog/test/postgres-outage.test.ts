import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivatePostgres, testDatabaseKinds, type PrivatePostgres } from '@panel/test-support';
import { ADMIN } from './demo-app-support.js';
import { startDemoServer, type DemoServerProcess } from './demo-server-process.js';

/**
 * The "Done when", on the demo as `npm start` runs it (a child process, the default
 * timeouts) against a PostgreSQL cluster this test owns, stops and starts again. It never
 * touches the shared server. It runs whenever PostgreSQL is among the test databases, and then
 * fails (never skips) when no cluster can be created; `PANEL_TEST_DATABASES=pglite` leaves it out on purpose.
 */
const POSTS = '/api/resources/v1/blog_posts?per_page=5';
const OUTAGE_LIMIT_MILLIS = 10_000;
const RECOVERY_LIMIT_MILLIS = 10_000;

const describePostgres = testDatabaseKinds().includes('postgres') ? describe : describe.skip;

describePostgres('the demo on PostgreSQL through a restart, with the default timeouts [private cluster]', () => {
  let cluster: PrivatePostgres;
  let server: DemoServerProcess;
  const figures: Record<string, string> = {};

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    server = await startDemoServer({ DATABASE_URL: cluster.url });
  }, 150_000);

  afterAll(async () => {
    server?.kill();
    await cluster?.close();
    if (Object.keys(figures).length > 0) console.log(`PostgreSQL outage figures (default timeouts): ${JSON.stringify(figures)}`);
  });

  const timedGet = async (path: string, headers: Record<string, string> = ADMIN) => {
    const started = performance.now();
    const response = await fetch(`${server.base}${path}`, { headers });
    const body = await response.text();
    return { status: response.status, body, headers: response.headers, millis: performance.now() - started };
  };
  const running = () => server.child.exitCode === null && server.child.signalCode === null;

  it('"terminating every backend leaves the process running and the next request answers 200"', async () => {
    expect((await timedGet(POSTS)).status).toBe(200);
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    try {
      const { rows } = await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'panel'");
      expect(rows.length).toBeGreaterThan(0);
      figures.backendsTerminated = String(rows.length);
    } finally {
      await admin.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(running(), server.output()).toBe(true);
    expect((await timedGet(POSTS)).status).toBe(200);
    expect(server.output()).toMatch(/57P01/);
  });

  it('"with PostgreSQL stopped every request answers 503 JSON within 10 s; after PostgreSQL starts again the demo answers 200 within 10 s with no restart"', async () => {
    expect((await timedGet(POSTS)).status).toBe(200);
    await cluster.stop();
    const outage: number[] = [];
    for (const path of [POSTS, POSTS, '/api/resources/v1/blog_posts/1', '/api/health/ready', POSTS]) {
      const answer = await timedGet(path);
      expect(answer.status, `${path}: ${answer.body}`).toBe(503);
      expect(JSON.parse(answer.body)).toEqual({ error: 'Service Unavailable' });
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(answer.millis).toBeLessThan(OUTAGE_LIMIT_MILLIS);
      outage.push(answer.millis);
    }
    expect(running(), server.output()).toBe(true);
    figures.outageLatencyMaxMillis = Math.max(...outage).toFixed(1);

    const startedAt = performance.now();
    await cluster.start();
    const acceptingAt = performance.now();
    let status = 0;
    while (status !== 200 && performance.now() - acceptingAt < RECOVERY_LIMIT_MILLIS) {
      status = (await timedGet(POSTS)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const recoveredAt = performance.now();
    expect(status).toBe(200);
    figures.pgCtlStartMillis = (acceptingAt - startedAt).toFixed(0);
    figures.recoverAfterPostgresAcceptsMillis = (recoveredAt - acceptingAt).toFixed(1);
    expect(recoveredAt - acceptingAt).toBeLessThan(RECOVERY_LIMIT_MILLIS);
    expect((await timedGet('/api/health/ready', {})).status).toBe(200);
  }, 60_000);

  it('"PostgreSQL restarted under load": 8 clients in a loop through stop and start get only 200 or 503 JSON, never a 500, and the process keeps running', async () => {
    const statuses = new Map<number, number>();
    let loading = true;
    const client = async () => {
      while (loading) {
        const answer = await timedGet(POSTS);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status === 503) expect(JSON.parse(answer.body)).toEqual({ error: 'Service Unavailable' });
      }
    };
    const clients = Array.from({ length: 8 }, client);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await cluster.stop();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await cluster.start();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    loading = false;
    await Promise.all(clients);
    figures.restartUnderLoad = JSON.stringify(Object.fromEntries(statuses));
    expect([...statuses.keys()].sort()).toEqual([200, 503]);
    expect(running(), server.output()).toBe(true);
    expect((await timedGet(POSTS)).status).toBe(200);
  }, 60_000);

  it('"SIGTERM drained in-flight requests and exited 0" on PostgreSQL too', async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});

// The rule: "A failing dependency gets a clean 503 … nothing waits without a timeout." A rolling
// deploy during a failover: SIGTERM reaches the demo while its requests wait on a frozen server
// (postmaster and backends stopped by SIGSTOP: no answer, nothing closed). Each such request is
// answered 503 at the query timeout (12 s); a drain bound shorter than that (it was 10 s) exited
// first and cut them without any answer.
describePostgres('the demo on a frozen PostgreSQL when SIGTERM comes, with the default timeouts [private cluster]', () => {
  let cluster: PrivatePostgres;
  let server: DemoServerProcess;
  const pids = async () => {
    const postmaster = (await readFile(join(cluster.folder, 'data', 'postmaster.pid'), 'utf8')).split('\n')[0]!.trim();
    const children = (await new Promise<string>((resolve) => execFile('pgrep', ['-P', postmaster], (_error, stdout) => resolve(stdout)))).split('\n').filter(Boolean);
    return [postmaster, ...children].map(Number);
  };
  const signal = async (name: NodeJS.Signals) => {
    for (const pid of await pids()) process.kill(pid, name);
  };

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    server = await startDemoServer({ DATABASE_URL: cluster.url });
  }, 150_000);

  afterAll(async () => {
    await signal('SIGCONT').catch(() => undefined);
    server?.kill();
    await cluster?.close();
  });

  it('"SIGTERM drains in-flight requests": a request waiting on the frozen server is answered 503 with Retry-After, and the process exits 0', async () => {
    expect((await fetch(`${server.base}${POSTS}`, { headers: ADMIN })).status).toBe(200);
    await signal('SIGSTOP');
    try {
      const started = performance.now();
      const inFlight = fetch(`${server.base}${POSTS}`, { headers: ADMIN }).then(
        async (response) => ({ status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text(), millis: performance.now() - started }),
        (error: unknown) => ({ status: 0, retryAfter: null, body: String((error as Error).cause ?? error), millis: performance.now() - started }),
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      server.child.kill('SIGTERM');
      const answer = await inFlight;
      expect(answer.status, `no answer after ${answer.millis.toFixed(0)} ms: ${answer.body}`).toBe(503);
      expect(answer.retryAfter).toBe('5');
      expect(JSON.parse(answer.body)).toEqual({ error: 'Service Unavailable' });
      expect(await server.exited).toBe(0);
    } finally {
      await signal('SIGCONT');
    }
  }, 60_000);
});
