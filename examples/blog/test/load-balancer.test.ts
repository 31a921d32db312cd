import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivatePostgres, testDatabaseKinds, type PrivatePostgres } from '@panel/test-support';
import { startDemoServer, type DemoServerProcess } from './demo-server-process.js';
import { CookieJar, ensureHaproxy, loadLoop, startHaproxy, type Haproxy } from './load-balancer-support.js';

/**
 * Beyond one machine, proven: a PostgreSQL primary and a streaming replica of it
 * (`pg_basebackup -R`, replaying every commit 2 s late), two app processes (the demo in Edition
 * B, `src/server-cluster.ts`), and HAProxy in front of them, round robin without affinity. All
 * private to this file: clusters on free ports under a temporary folder, never the shared
 * server. HAProxy is installed by scripts/ensure-haproxy.sh when missing. It runs whenever
 * PostgreSQL is among the test databases.
 */
const APPLY_DELAY_MILLIS = 2_000;
const MAX_LAG_MILLIS = 10_000;
/** The stated bound for a revoked token to be refused by every process: authentication reads the primary, so at once. */
const REVOCATION_BOUND_MILLIS = 1_000;
/** The stated bound for a write through one process to reach the cached totals of every process (LISTEN/NOTIFY). */
const INVALIDATION_BOUND_MILLIS = 1_000;
const V1 = '/api/resources/v1';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));
const form = (fields: [string, string][]) => new URLSearchParams(fields).toString();

const describePostgres = testDatabaseKinds().includes('postgres') ? describe : describe.skip;

describePostgres('several processes behind HAProxy, with a streaming replica [private clusters, HAProxy]', () => {
  let primary: PrivatePostgres;
  let replica: PrivatePostgres;
  const apps: DemoServerProcess[] = [];
  let haproxy: Haproxy;
  let secret = '';
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    const [binary, cluster] = await Promise.all([ensureHaproxy(), startPrivatePostgres()]);
    primary = cluster;
    replica = await startPrivatePostgres({ replicaOf: primary, applyDelayMillis: APPLY_DELAY_MILLIS });
    const env = {
      DATABASE_URL: primary.url,
      DATABASE_REPLICA_URLS: replica.url,
      DATABASE_REPLICA_MAX_LAG_MS: String(MAX_LAG_MILLIS),
      DATABASE_REPLICA_CHECK_MS: '100',
      PANEL_SESSION_SECRET: 'load-balancer-suite-session-secret-0123456789abcdef',
      PANEL_API_TOKEN_PEPPER: 'load-balancer-suite-pepper-0123456789abcdef0123',
      PANEL_COUNT_CACHED_MS: '60000',
      SEED_DEMO_TOKENS: '0',
    };
    // One after the other: the first migrates and seeds, the second finds it done.
    apps.push(await startDemoServer(env, 90_000, 'src/server-cluster.ts'));
    apps.push(await startDemoServer(env, 90_000, 'src/server-cluster.ts'));
    haproxy = await startHaproxy(binary, apps.map((app, i) => ({ name: `app${i + 1}`, port: Number(new URL(app.base).port) })));
    // Both servers pass their health check before the suite starts.
    const seen = new Set<string>();
    const started = Date.now();
    while (seen.size < 2 && Date.now() - started < 10_000) {
      const response = await fetch(`${haproxy.base}/api/health`);
      if (response.status === 200) seen.add(response.headers.get('x-panel-server') ?? '');
      else await sleep(100);
    }
    expect([...seen].sort()).toEqual(['app1', 'app2']);
  }, 115_000);

  afterAll(async () => {
    for (const app of apps) app.kill();
    await haproxy?.close();
    await replica?.close();
    await primary?.close();
    if (Object.keys(figures).length > 0) console.log(`Load-balancer figures: ${JSON.stringify(figures)}`);
  });

  const through = (path: string, init: RequestInit = {}) => fetch(`${haproxy.base}${path}`, { redirect: 'manual', ...init });
  const bearer = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${secret}`, ...extra });
  const json = (extra: Record<string, string> = {}) => bearer({ 'content-type': 'application/json', ...extra });

  it('"the token lifecycle (create in the panel screens through one process, reveal through the other, use, revoke → refused by both within the stated bound)"', async () => {
    const jar = new CookieJar();
    const browse = async (path: string, init: RequestInit = {}) => {
      const response = await through(path, { ...init, headers: { ...(init.headers as Record<string, string>), cookie: jar.header() } });
      jar.store(response);
      return response;
    };
    const signIn = await browse('/panel/login', { method: 'POST', headers: FORM, body: form([['email', 'ada@example.com'], ['password', 'demo-password']]) });
    expect(signIn.status).toBe(303);
    const home = await (await browse('/panel')).text();
    const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(home)![1]!;
    const grants = ['index', 'show', 'create', 'update', 'destroy'].map((verb): [string, string] => ['grants[]', `blog_posts:${verb}`]);
    const created = await browse('/panel/api_tokens', { method: 'POST', headers: FORM, body: form([['csrf_token', csrf], ['name', 'Behind HAProxy'], ['expires_at', ''], ...grants]) });
    expect(created.status).toBe(303);
    // The panel session gets read-your-writes without doing anything: the write's answer set the cookie.
    expect(jar.has('panel_read_after')).toBe(true);
    const revealPath = created.headers.get('location')!;
    const other = created.headers.get('x-panel-server') === 'app1' ? 'app2' : 'app1';
    const reveal = await browse(revealPath, { headers: { 'x-suite-server': other } });
    expect(reveal.headers.get('x-panel-server')).not.toBe(created.headers.get('x-panel-server'));
    const page = await reveal.text();
    secret = /data-token-secret>([^<]+)</.exec(page)?.[1] ?? '';
    expect(secret, 'the reveal through the other process shows the secret').toMatch(/^pat_/);
    // Once: a second look, through either process, finds it gone.
    expect(await (await browse(revealPath)).text()).not.toContain(secret);

    const used = await Promise.all(['app1', 'app2'].map((server) => through(`${V1}/blog_posts?per_page=2`, { headers: bearer({ 'x-suite-server': server }) })));
    expect(used.map((r) => r.status)).toEqual([200, 200]);
    expect(new Set(used.map((r) => r.headers.get('x-panel-server'))).size).toBe(2);

    // Revoke with a second token kept for the rest of the suite: make it the same way.
    const tokenId = /api_tokens\/(\d+)\/reveal/.exec(revealPath)![1]!;
    const keeper = await browse('/panel/api_tokens', { method: 'POST', headers: FORM, body: form([['csrf_token', csrf], ['name', 'Suite'], ['expires_at', ''], ...grants]) });
    const keeperSecret = /data-token-secret>([^<]+)</.exec(await (await browse(keeper.headers.get('location')!)).text())![1]!;
    // The rest of the suite uses the kept token, whatever happens below.
    const revokedSecret = secret;
    secret = keeperSecret;
    const revoked = await browse(`/panel/api_tokens/${tokenId}/revoke`, { method: 'POST', headers: FORM, body: form([['csrf_token', csrf]]) });
    expect(revoked.status).toBe(303);
    // The stated bound: the revoking process drops the token at once, the other one when the
    // notification arrives, and in any case once its cached verification is older than the
    // token cache's maxAgeMillis (1 s). So each process is asked in turn until both refuse: a
    // request started after the bound must be refused, and a process that refused once never
    // accepts the token again. (Asking the other process at once races the notification.)
    const revokedAt = performance.now();
    const answers: { server: string; startedAfter: number; status: number }[] = [];
    const refusedAfter = new Map<string, number>();
    while (refusedAfter.size < 2 && performance.now() - revokedAt < 5 * REVOCATION_BOUND_MILLIS) {
      for (const server of ['app1', 'app2']) {
        const startedAfter = performance.now() - revokedAt;
        const response = await through(`${V1}/blog_posts?per_page=2`, { headers: { authorization: `Bearer ${revokedSecret}`, 'x-suite-server': server } });
        expect(response.headers.get('x-panel-server')).toBe(server);
        answers.push({ server, startedAfter: Number(startedAfter.toFixed(1)), status: response.status });
        if (response.status === 401 && !refusedAfter.has(server)) refusedAfter.set(server, startedAfter);
      }
    }
    figures.revocationRefusedByBothWithinMillis = Number(Math.max(...refusedAfter.values()).toFixed(1));
    expect([...refusedAfter.keys()].sort(), JSON.stringify(answers)).toEqual(['app1', 'app2']);
    for (const answer of answers) {
      expect([200, 401], JSON.stringify(answer)).toContain(answer.status);
      if (answer.startedAfter > REVOCATION_BOUND_MILLIS || answer.startedAfter > refusedAfter.get(answer.server)!) expect(answer.status, JSON.stringify(answer)).toBe(401);
    }
    expect(figures.revocationRefusedByBothWithinMillis).toBeLessThanOrEqual(REVOCATION_BOUND_MILLIS);
  }, 30_000);

  it('"read-your-writes under the apply delay": a client that sends back Panel-Read-After sees its write on the other process; one that does not reads the 2 s-late replica', async () => {
    // The earlier tests wrote through the panel screens of both processes, outside any API
    // request: each process then reads from the primary until the replica has replayed those
    // writes ("a process sees its own writes"). Once the delay has passed, the replica serves.
    await sleep(APPLY_DELAY_MILLIS + 300);
    let violations = 0;
    let staleWithout = 0;
    for (let i = 0; i < 5; i += 1) {
      const created = await through(`${V1}/blog_posts`, { method: 'POST', headers: json(), body: JSON.stringify({ blog_post: { title: `Read your writes ${i}`, published: true, published_on: '2026-11-25' } }) });
      expect(created.status).toBe(201);
      const readAfter = created.headers.get('panel-read-after');
      expect(readAfter).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
      const id = ((await created.json()) as { record: { id: number } }).record.id;
      const other = created.headers.get('x-panel-server') === 'app1' ? 'app2' : 'app1';
      const withToken = await through(`${V1}/blog_posts/${id}`, { headers: bearer({ 'panel-read-after': readAfter!, 'x-suite-server': other }) });
      expect(withToken.headers.get('x-panel-server')).not.toBe(created.headers.get('x-panel-server'));
      if (withToken.status !== 200) violations += 1;
      const without = await through(`${V1}/blog_posts/${id}`, { headers: bearer({ 'x-suite-server': other }) });
      if (without.status === 404) staleWithout += 1;
    }
    figures.readYourWritesViolations = violations;
    figures.staleReadsWithoutTheHeader = `${staleWithout} of 5`;
    expect(violations).toBe(0);
    // The replica really is behind: without the header the new post is not there yet.
    expect(staleWithout).toBeGreaterThan(0);
    expect((await through(`${V1}/blog_posts`, { headers: bearer({ 'panel-read-after': 'yesterday' }) })).status).toBe(400);
  }, 30_000);

  it(`"the cached count is invalidated across processes": a write through one process drops the other's cached total (LISTEN/NOTIFY) within ${INVALIDATION_BOUND_MILLIS} ms, and the recount sees the write although the replica is 2 s behind`, async () => {
    const total = async () => {
      const response = await through(`${V1}/blog_posts?per_page=1`, { headers: bearer() });
      return { total: ((await response.json()) as { pagination: { total_count: number } }).pagination.total_count, server: response.headers.get('x-panel-server') };
    };
    await sleep(APPLY_DELAY_MILLIS + 300);
    const before = [await total(), await total()];
    expect(new Set(before.map((b) => b.server)).size).toBe(2);
    expect(before[0]!.total).toBe(before[1]!.total);
    const created = await through(`${V1}/blog_posts`, { method: 'POST', headers: json(), body: JSON.stringify({ blog_post: { title: 'Counted everywhere', published: true, published_on: '2026-11-25' } }) });
    expect(created.status).toBe(201);
    const started = performance.now();
    let after = [await total(), await total()];
    while (after.some((a) => a.total !== before[0]!.total + 1) && performance.now() - started < APPLY_DELAY_MILLIS + 3_000) {
      await sleep(100);
      after = [await total(), await total()];
    }
    figures.cachedCountEverywhereWithinMillis = Number((performance.now() - started).toFixed(0));
    // Without the notification one process would answer its cached total for maxAgeMs (60 s).
    expect(after.map((a) => a.total)).toEqual([before[0]!.total + 1, before[0]!.total + 1]);
    expect(figures.cachedCountEverywhereWithinMillis).toBeLessThan(INVALIDATION_BOUND_MILLIS);
  }, 30_000);

  it('"no answer depends on which process served it": the same sequence of requests round-robined over both processes gives the same answers as one process', async () => {
    const sequence = async (send: (path: string, init?: RequestInit) => Promise<Response>) => {
      const answers: unknown[] = [];
      let readAfter: string | null = null;
      const call = async (method: string, path: string, body?: unknown) => {
        const headers = { ...json(), ...(readAfter ? { 'panel-read-after': readAfter } : {}) };
        const response = await send(path, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
        readAfter = response.headers.get('panel-read-after') ?? readAfter;
        const text = await response.text();
        return { status: response.status, body: text === '' ? null : JSON.parse(text), server: response.headers.get('x-panel-server') };
      };
      const servers = new Set<string | null>();
      const keep = (answer: { status: number; body: unknown; server: string | null }) => {
        servers.add(answer.server);
        answers.push({ status: answer.status, body: answer.body });
        return answer;
      };
      keep(await call('GET', `${V1}/blog_posts?per_page=3&sort_by=title&sort_direction=asc`));
      keep(await call('GET', `${V1}/blog_posts/1`));
      keep(await call('GET', `${V1}/blog_posts/999999`));
      keep(await call('GET', `${V1}/blog_posts?per_page=0`));
      const created = keep(await call('POST', `${V1}/blog_posts`, { blog_post: { title: 'Same everywhere', published: true, published_on: '2026-11-25' } }));
      const id = (created.body as { record: { id: number } }).record.id;
      keep(await call('GET', `${V1}/blog_posts/${id}`));
      keep(await call('PATCH', `${V1}/blog_posts/${id}`, { blog_post: { title: 'Same everywhere, edited' } }));
      keep(await call('GET', `${V1}/blog_posts/${id}`));
      keep(await call('GET', `${V1}/blog_posts?per_page=2&sort_by=title&sort_direction=desc`));
      keep(await call('POST', `${V1}/blog_posts`, { blog_post: { title: '' } }));
      keep(await call('DELETE', `${V1}/blog_posts/${id}`));
      keep(await call('GET', `${V1}/blog_posts/${id}`));
      keep(await call('GET', `${V1}/blog_posts?per_page=3&sort_by=title&sort_direction=asc`));
      // The new record's id, the times and the signed file URLs' expiry differ between the two runs; nothing else may.
      const normalized = JSON.parse(
        JSON.stringify(answers)
          .replaceAll(`"id":${id}`, '"id":"NEW"')
          .replaceAll(`/${id}"`, '/NEW"')
          .replace(/"\d{4}-\d\d-\d\dT[^"]+"/g, '"TIME"')
          .replace(/expires=\d+&signature=[A-Za-z0-9_-]+/g, 'expires=…&signature=…'),
      );
      return { normalized, servers };
    };
    const balanced = await sequence((path, init) => through(path, init));
    const single = await sequence((path, init) => fetch(`${apps[0]!.base}${path}`, { redirect: 'manual', ...init }));
    expect(balanced.servers).toEqual(new Set(['app1', 'app2']));
    expect(balanced.normalized).toEqual(single.normalized);
  }, 30_000);

  it('"a replica stopped and restarted under load (no failed request)"', async () => {
    const load = loadLoop(async () => (await through(`${V1}/blog_posts?per_page=5`, { headers: bearer() })).status, 4);
    await sleep(500);
    await replica.stop();
    await sleep(1_500);
    await replica.start();
    // The replica is taken back: its statement counter moves again under the load.
    const admin = new pg.Client({ connectionString: replica.url });
    await admin.connect();
    // Scans of blog_posts counted by the standby itself (its health checks touch no table).
    const commits = async () => Number((await admin.query<{ n: string }>("select (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::text as n from pg_stat_user_tables where relname = 'blog_posts'")).rows[0]?.n ?? 0);
    let servedByReplica = false;
    const started = Date.now();
    const first = await commits();
    while (!servedByReplica && Date.now() - started < 15_000) {
      await sleep(300);
      servedByReplica = (await commits()) - first > 10;
    }
    await admin.end();
    const outcomes = await load.stop();
    const failed = outcomes.filter((o) => o.status !== 200);
    figures.replicaRestart = { requests: outcomes.length, failed: failed.length, replicaServingAgainWithinMillis: Date.now() - started };
    expect(failed, JSON.stringify(failed.slice(0, 3))).toEqual([]);
    expect(servedByReplica).toBe(true);
  }, 40_000);

  it('"one app process killed under load (only requests in flight on it fail; the next succeed)"', async () => {
    const load = loadLoop(async () => (await through(`${V1}/blog_posts?per_page=5`, { headers: bearer() })).status, 4);
    await sleep(700);
    const killedAt = performance.now();
    apps[1]!.child.kill('SIGKILL');
    await apps[1]!.exited;
    await sleep(1_500);
    const outcomes = await load.stop();
    const failed = outcomes.filter((o) => o.status !== 200);
    figures.processKilled = { requests: outcomes.length, failed: failed.length, failedStatuses: failed.map((o) => o.status) };
    // A failed request was in flight when the process died: it started before the kill.
    for (const outcome of failed) expect(outcome.startedAt).toBeLessThanOrEqual(killedAt + 5);
    expect(failed.length).toBeLessThanOrEqual(4);
    const after = outcomes.filter((o) => o.startedAt > killedAt + 5);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((o) => o.status === 200)).toBe(true);
  }, 30_000);
});
