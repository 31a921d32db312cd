/**
 * `npm run bench:screens`: the panel's index screen against the API's index, for the same
 * signed-in user (Ada's panel session) and the same query, on the bench's data set (schema
 * `panel_bench`: 100,000 posts, seeded by `npm run bench`'s seed when missing), then page 1 of
 * the index screen on 10,000,000 posts with the estimated count (schema `panel_bench_10m`,
 * `npm run bench:large`'s seed; `--skip-large` leaves it out). Each figure is the time to first
 * byte (the response's status line) of sequential requests over one kept-alive connection,
 * p50 and p99, after a warm-up; the ratio and the load average are printed with them. Target
 * (issue 43): the screen within the API's p50 + 2 ms; at 10,000,000 rows, p99 < 100 ms.
 */
import { request, Agent } from 'node:http';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { CountStrategyInput } from '@panel/core';
import { freePort } from '@panel/test-support';
import { ensureBenchSeed } from '../seed/bench-seed.js';
import { LARGE_DATASET, LARGE_SCHEMA } from '../large/large-dataset.js';
import { seedLarge } from '../large/seed-large.js';
import { ScreensServer } from './screens-server-process.js';

const BENCH_SCHEMA = 'panel_bench';
const ESTIMATE: CountStrategyInput = { strategy: 'estimate', exactBelow: 100_000 };
const TARGET_EXTRA_P50_MS = 2;
const TARGET_P99_MS = 100;

interface Timing {
  readonly p50: number;
  readonly p99: number;
  readonly statuses: ReadonlySet<number>;
}

/** Times `count` sequential GETs of `url` to their first byte, after `warmup` untimed ones. */
async function timeToFirstByte(url: string, cookie: string, count: number, warmup: number): Promise<Timing> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const once = () =>
    new Promise<{ ms: number; status: number }>((resolve, reject) => {
      const started = performance.now();
      const req = request(url, { agent, headers: { cookie, accept: 'text/html,application/json' } }, (response) => {
        const ms = performance.now() - started;
        response.resume();
        response.on('end', () => resolve({ ms, status: response.statusCode ?? 0 }));
      });
      req.on('error', reject);
      req.end();
    });
  for (let i = 0; i < warmup; i++) await once();
  const times: number[] = [];
  const statuses = new Set<number>();
  for (let i = 0; i < count; i++) {
    const { ms, status } = await once();
    times.push(ms);
    statuses.add(status);
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p99: at(0.99), statuses };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const load = () => loadavg().map((l) => l.toFixed(2)).join(', ');

const USAGE = `npm run bench:screens [-- --requests N] [--warmup N] [--skip-large]
  DATABASE_URL  the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/test)`;

async function main(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({ args: [...argv], options: { requests: { type: 'string' }, warmup: { type: 'string' }, 'skip-large': { type: 'boolean', default: false }, help: { type: 'boolean', default: false } } });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const requests = Number(values.requests ?? 400);
  const warmup = Number(values.warmup ?? 50);
  if (!Number.isInteger(requests) || requests < 10 || !Number.isInteger(warmup) || warmup < 0) throw new Error('--requests must be a whole number of at least 10, --warmup a whole number.');
  const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  console.log(`Machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown'}); load average at start ${load()}`);
  console.log(`Seeding schema ${BENCH_SCHEMA} (reused when complete)…`);
  await ensureBenchSeed(url, BENCH_SCHEMA);

  const rows: string[][] = [['page', 'p50', 'p99', 'statuses', 'load']];
  const server = await ScreensServer.start({ url, schema: BENCH_SCHEMA, port: await freePort(), count: 'exact' });
  let screen: Timing;
  let api: Timing;
  try {
    for (const [name, path] of [['API index (JSON)', '/api/resources/v1/blog_posts'], ['index screen (HTML)', '/panel/resources/blog_posts']] as const) {
      const timing = await timeToFirstByte(`${server.origin}${path}`, server.cookie, requests, warmup);
      rows.push([`${name}, 100,000 posts`, ms(timing.p50), ms(timing.p99), [...timing.statuses].join(' '), loadavg()[0]!.toFixed(2)]);
      if (path.startsWith('/api')) api = timing;
      else screen = timing;
    }
  } finally {
    await server.stop();
  }
  let large: Timing | undefined;
  if (!values['skip-large']) {
    await seedLarge(url);
    const big = await ScreensServer.start({ url, schema: LARGE_SCHEMA, port: await freePort(), count: ESTIMATE });
    try {
      large = await timeToFirstByte(`${big.origin}/panel/resources/blog_posts`, big.cookie, Math.max(100, Math.floor(requests / 2)), Math.min(warmup, 20));
      rows.push([`index screen, page 1, ${LARGE_DATASET.posts.toLocaleString('en')} posts, estimated count`, ms(large.p50), ms(large.p99), [...large.statuses].join(' '), loadavg()[0]!.toFixed(2)]);
    } finally {
      await big.stop();
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const [index, row] of rows.entries()) {
    console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
    if (index === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
  const extra = screen!.p50 - api!.p50;
  console.log(`\nIndex screen against the API index, p50: ${ms(screen!.p50)} / ${ms(api!.p50)} = ${(screen!.p50 / api!.p50).toFixed(2)}× (+${ms(extra)}); target within +${TARGET_EXTRA_P50_MS} ms: ${extra <= TARGET_EXTRA_P50_MS ? 'met' : 'NOT met'}.`);
  if (large) console.log(`Index screen, page 1 of ${LARGE_DATASET.posts.toLocaleString('en')} posts, estimated count: p99 ${ms(large.p99)}; target < ${TARGET_P99_MS} ms: ${large.p99 < TARGET_P99_MS ? 'met' : 'NOT met'}.`);
  console.log(`Load average at the end: ${load()}.`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
