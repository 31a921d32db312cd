/**
 * `npm run bench -- --replica` (issue 25): the realistic mix on the demo with its reads on a
 * streaming replica and its writes on the primary, against the same demo on the primary alone.
 * It starts two private PostgreSQL clusters (`initdb`, then `pg_basebackup -R` for the replica,
 * as the load-balancer suite does, through `@panel/test-support`), seeds the bench's data set
 * on the primary, and runs two API servers: one with `replicas: [replica]`, one without. Then:
 *
 * - throughput: the mix, in alternating rounds, on each server;
 * - replica lag: while the replicated server is driven, every 20 ms the primary's WAL position
 *   is noted and the replica's replay position read; the time from a position's note to its
 *   replay is the lag observed (20 ms resolution), and the bytes behind at each tick;
 * - read-your-writes: while the mix drives the replicated server, clients PATCH a post and read
 *   it back at once, half sending back the write's `Panel-Read-After`, half not; a read that
 *   does not show the write is a violation (the target: none with the header).
 *
 * Not in CI: it seeds a cluster of its own (about half a minute) and copies it.
 */
import { availableParallelism, loadavg } from 'node:os';
import pg from 'pg';
import { freePort, startPrivatePostgres, type PrivatePostgres } from '@panel/test-support';
import type { BenchOptions } from '../cli/bench-options.js';
import { ensureBenchSeed } from '../seed/bench-seed.js';
import { DATASET } from '../seed/dataset.js';
import { mixEndpoints, sortIndexes } from '../mix/mix-workload.js';
import { driveLoad, type LoadFigures } from '../load/drive-load.js';
import { ServerProcess } from '../servers/server-process.js';

const POSTS = '/api/resources/v1/blog_posts';
const ADMIN = 'ApiKey demo-admin-key';
/** The posts the read-your-writes clients patch: far from the mix's (ids up to 5,999), published, so the reader scope is no question. */
const RYW_FIRST_POST = 60_001;

interface LagFigures {
  readonly samples: number;
  readonly p50Millis: number;
  readonly p99Millis: number;
  readonly maxMillis: number;
  readonly maxBytes: number;
}

const percentile = (sorted: readonly number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);

/** Samples the replica's lag until stopped: positions noted on the primary, the time until the replica has replayed each. */
function sampleLag(primaryUrl: string, replicaUrl: string): { stop(): Promise<LagFigures> } {
  const primary = new pg.Client({ connectionString: primaryUrl });
  const replica = new pg.Client({ connectionString: replicaUrl });
  const pending: { lsn: string; at: number }[] = [];
  const lags: number[] = [];
  let maxBytes = 0;
  let running = true;
  const loop = (async () => {
    await Promise.all([primary.connect(), replica.connect()]);
    while (running) {
      const at = performance.now();
      const { rows } = await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
      pending.push({ lsn: rows[0]!.lsn, at });
      // Every noted position the replica has replayed is done: its lag is now minus when it was noted.
      const replayed = await replica.query<{ done: boolean[]; behind: string }>(
        'select array(select pg_last_wal_replay_lsn() >= p from unnest($1::pg_lsn[]) as p) as done, pg_wal_lsn_diff($2::pg_lsn, pg_last_wal_replay_lsn())::text as behind',
        [pending.map((p) => p.lsn), rows[0]!.lsn],
      );
      const now = performance.now();
      maxBytes = Math.max(maxBytes, Number(replayed.rows[0]!.behind));
      const done = replayed.rows[0]!.done;
      for (let i = done.length - 1; i >= 0; i -= 1) {
        if (done[i]) {
          lags.push(now - pending[i]!.at);
          pending.splice(i, 1);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await Promise.all([primary.end(), replica.end()]);
      const sorted = lags.sort((a, b) => a - b);
      return { samples: sorted.length, p50Millis: percentile(sorted, 50), p99Millis: percentile(sorted, 99), maxMillis: sorted.at(-1) ?? 0, maxBytes };
    },
  };
}

/** Waits until the replica has replayed everything the primary has written (after a round's preparation). */
async function caughtUp(primaryUrl: string, replicaUrl: string): Promise<void> {
  const primary = new pg.Client({ connectionString: primaryUrl });
  const replica = new pg.Client({ connectionString: replicaUrl });
  await Promise.all([primary.connect(), replica.connect()]);
  try {
    const { rows } = await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
    for (;;) {
      const { rows: done } = await replica.query<{ ok: boolean }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as ok', [rows[0]!.lsn]);
      if (done[0]!.ok) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await Promise.all([primary.end(), replica.end()]);
  }
}

interface ReadYourWrites {
  readonly checks: number;
  readonly violations: number;
  readonly errors: number;
}

/** One client: PATCH a post, read it back at once (with or without the write's `Panel-Read-After`), `count` times. */
async function readYourWrites(origin: string, client: number, count: number, sendPosition: boolean): Promise<ReadYourWrites> {
  let violations = 0;
  let errors = 0;
  for (let i = 0; i < count; i += 1) {
    const id = RYW_FIRST_POST + client * 1_000 + i;
    const title = `Read-your-writes ${client}-${i}-${Date.now()}`;
    const write = await fetch(`${origin}${POSTS}/${id}`, { method: 'PATCH', headers: { authorization: ADMIN, 'content-type': 'application/json' }, body: JSON.stringify({ blog_post: { title } }) });
    await write.arrayBuffer();
    const position = write.headers.get('panel-read-after');
    if (write.status !== 200 || position === null) {
      errors += 1;
      continue;
    }
    const read = await fetch(`${origin}${POSTS}/${id}`, { headers: { authorization: ADMIN, ...(sendPosition ? { 'panel-read-after': position } : {}) } });
    if (read.status !== 200) {
      errors += 1;
      await read.arrayBuffer();
      continue;
    }
    const body = (await read.json()) as { record: { title: string } };
    if (body.record.title !== title) violations += 1;
  }
  return { checks: count, violations, errors };
}

const sum = (figures: readonly ReadYourWrites[]): ReadYourWrites => ({
  checks: figures.reduce((n, f) => n + f.checks, 0),
  violations: figures.reduce((n, f) => n + f.violations, 0),
  errors: figures.reduce((n, f) => n + f.errors, 0),
});

function combine(rounds: readonly LoadFigures[]): LoadFigures {
  const requests = rounds.reduce((n, r) => n + r.requests, 0);
  const seconds = rounds.reduce((n, r) => n + r.seconds, 0);
  const p50s = rounds.map((r) => r.p50).sort((a, b) => a - b);
  return { requests, seconds, requestsPerSecond: requests / seconds, p50: p50s[Math.floor(p50s.length / 2)]!, p99: Math.max(...rounds.map((r) => r.p99)), errors: rounds.reduce((n, r) => n + r.errors, 0) };
}

/** Runs the replica bench; returns the exit code. */
export async function runReplica(options: BenchOptions, entry: string): Promise<number> {
  const loadAtStart = loadavg();
  const clusters: PrivatePostgres[] = [];
  const servers: ServerProcess[] = [];
  try {
    console.log('Starting a private PostgreSQL primary and seeding it…');
    const primary = await startPrivatePostgres();
    clusters.push(primary);
    const seed = await ensureBenchSeed(primary.url, options.schema);
    console.log(`Seeded in ${seed.seconds.toFixed(1)} s; copying it to a streaming replica (pg_basebackup -R)…`);
    const started = performance.now();
    const replica = await startPrivatePostgres({ replicaOf: primary });
    clusters.push(replica);
    await caughtUp(primary.url, replica.url);
    console.log(`Replica streaming after ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    const common = { entry, kind: 'api' as const, url: primary.url, schema: options.schema, workers: options.workers };
    const [single, replicated] = await Promise.all([ServerProcess.start({ ...common, port: await freePort() }), ServerProcess.start({ ...common, port: await freePort(), replicas: replica.url })]);
    servers.push(single, replicated);
    const mix = mixEndpoints(DATASET, primary.url, options.schema)[0]!;
    await sortIndexes(primary.url, options.schema, 'create');
    const settings = { connections: options.connections, seconds: options.seconds / options.rounds, warmupSeconds: options.warmupSeconds };
    const byServer = new Map<ServerProcess, LoadFigures[]>([
      [single, []],
      [replicated, []],
    ]);
    const lagRounds: LagFigures[] = [];
    for (let round = 0; round < options.rounds; round += 1) {
      for (const server of round % 2 === 0 ? [single, replicated] : [replicated, single]) {
        await mix.prepare!('round');
        await caughtUp(primary.url, replica.url);
        const lag = server === replicated ? sampleLag(primary.url, replica.url) : undefined;
        byServer.get(server)!.push(await driveLoad(server.origin, mix.request, settings));
        if (lag) lagRounds.push(await lag.stop());
      }
    }
    // Read-your-writes under the mix's load on the replicated server: 4 clients with the header, 4 without.
    await mix.prepare!('round');
    await caughtUp(primary.url, replica.url);
    const perClient = 25;
    const load = mixInBackground(replicated.origin, mix, Math.max(5, settings.seconds));
    const [withHeader, withoutHeader] = await Promise.all([
      Promise.all([0, 1, 2, 3].map((client) => readYourWrites(replicated.origin, client, perClient, true))).then(sum),
      Promise.all([4, 5, 6, 7].map((client) => readYourWrites(replicated.origin, client, perClient, false))).then(sum),
    ]);
    await load;
    await sortIndexes(primary.url, options.schema, 'drop');

    const [one, two] = [combine(byServer.get(single)!), combine(byServer.get(replicated)!)];
    const lag = lagRounds.reduce<LagFigures>(
      (all, r) => ({ samples: all.samples + r.samples, p50Millis: Math.max(all.p50Millis, r.p50Millis), p99Millis: Math.max(all.p99Millis, r.p99Millis), maxMillis: Math.max(all.maxMillis, r.maxMillis), maxBytes: Math.max(all.maxBytes, r.maxBytes) }),
      { samples: 0, p50Millis: 0, p99Millis: 0, maxMillis: 0, maxBytes: 0 },
    );
    const row = (name: string, f: LoadFigures) => `${name.padEnd(22)} ${f.requestsPerSecond.toFixed(0).padStart(7)} ${String(f.p50).padStart(7)} ${String(f.p99).padStart(7)} ${String(f.errors).padStart(7)}`;
    console.log(
      [
        '',
        `Replica bench: the realistic mix (${options.connections} connections, ${options.rounds} alternating rounds of ${settings.seconds} s per server), private clusters (fsync off, synchronous_commit off), ${availableParallelism()} cores shared by both clusters, the servers and the load`,
        `${'server'.padEnd(22)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(7)}`,
        row('primary alone', one),
        row('primary + replica', two),
        `ratio (primary + replica) / primary alone: ${(two.requestsPerSecond / one.requestsPerSecond).toFixed(2)}×`,
        `replica lag under the mix (a WAL position noted on the primary every 20 ms until the replica replayed it; ${lag.samples} positions): p50 ≤ ${lag.p50Millis.toFixed(0)} ms, p99 ≤ ${lag.p99Millis.toFixed(0)} ms, max ${lag.maxMillis.toFixed(0)} ms; at most ${lag.maxBytes.toLocaleString('en')} bytes of WAL behind`,
        `read-your-writes under the mix (PATCH then GET at once, 4 clients each): with Panel-Read-After ${withHeader.violations} violations of ${withHeader.checks} (${withHeader.errors} errors; target 0); without ${withoutHeader.violations} of ${withoutHeader.checks} (${withoutHeader.errors} errors)`,
        `load average at start ${loadAtStart.map((n) => n.toFixed(2)).join(' ')}, at the end ${loadavg().map((n) => n.toFixed(2)).join(' ')}`,
      ].join('\n'),
    );
    return withHeader.violations === 0 ? 0 : 1;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    for (const cluster of clusters.reverse()) await cluster.close();
  }
}

/** The mix on one server for `seconds`, as background load (its figures are not reported). */
async function mixInBackground(origin: string, mix: ReturnType<typeof mixEndpoints>[number], seconds: number): Promise<void> {
  await driveLoad(origin, mix.request, { connections: 10, seconds, warmupSeconds: 0 });
}
