/**
 * `npm run bench`: seeds (or reuses) the large data set in PostgreSQL, starts the demo app
 * and the hand-written baseline each in its own child process, checks that they answer alike,
 * counts the statements and round trips of each endpoint, drives both with autocannon one
 * after the other, prints a table per endpoint and writes the figures under bench/results/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { USAGE, parseBenchOptions, type BenchOptions } from './cli/bench-options.js';
import { ensureBenchSeed, resetBenchWrites } from './seed/bench-seed.js';
import { DATASET } from './seed/dataset.js';
import { ServerProcess } from './servers/server-process.js';
import { compileServers } from './servers/compile-servers.js';
import { benchEndpoints, type Endpoint } from './load/endpoints.js';
import { requestCensus } from './census/request-census.js';
import { compareResponses } from './load/compare-responses.js';
import { driveLoad, type LoadFigures } from './load/drive-load.js';
import { formatResults } from './report/print-table.js';
import type { BenchResults, EndpointResult, ServerFigures } from './report/bench-results.js';
import { explainIndexStatements } from './explain/explain-statements.js';
import { freePort } from '@panel/test-support';

const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));

async function postgresVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string }>('show server_version');
    return `PostgreSQL ${rows[0]!.server_version.split(' ')[0]}`;
  } finally {
    await client.end();
  }
}

/** One server's share of a round: its figures and its peak RSS over the round. */
async function measureRound(server: ServerProcess, endpoint: Endpoint, options: BenchOptions): Promise<LoadFigures & { peakRss: number; peakRssTotal: number }> {
  server.resetPeakRss();
  const figures = await driveLoad(server.origin, endpoint, { connections: options.connections, seconds: options.seconds / options.rounds, warmupSeconds: options.warmupSeconds });
  const rss = server.peakRss();
  return { ...figures, peakRss: rss.max, peakRssTotal: rss.total };
}

/** Sums the rounds of one server: requests over time, the median p50, the worst p99, all errors, the highest peak RSS. */
function combineRounds(rounds: readonly (LoadFigures & { peakRss: number; peakRssTotal: number })[], census: ServerFigures['census']): ServerFigures {
  const sortedP50 = rounds.map((round) => round.p50).sort((a, b) => a - b);
  const requests = rounds.reduce((sum, round) => sum + round.requests, 0);
  const seconds = rounds.reduce((sum, round) => sum + round.seconds, 0);
  return {
    requests,
    seconds,
    requestsPerSecond: requests / seconds,
    p50: sortedP50[Math.floor(sortedP50.length / 2)]!,
    p99: Math.max(...rounds.map((round) => round.p99)),
    errors: rounds.reduce((sum, round) => sum + round.errors, 0),
    peakRss: Math.max(...rounds.map((round) => round.peakRss)),
    peakRssTotal: Math.max(...rounds.map((round) => round.peakRssTotal)),
    census,
  };
}

async function main(): Promise<number> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  if (process.argv.includes('--large')) {
    const { runLarge } = await import('./large/run-large.js');
    return runLarge(process.argv.slice(2).filter((arg) => arg !== '--large'));
  }
  const options = parseBenchOptions(process.argv.slice(2), process.env, availableParallelism());
  if (options === 'help') {
    console.log(USAGE);
    return 0;
  }
  const load = loadavg();
  if (load[0]! > availableParallelism() * 0.75) {
    console.warn(`Load average is ${load[0]!.toFixed(2)} on ${availableParallelism()} cores: other work is running and the figures will be noisy.`);
  }
  const endpoints = benchEndpoints(DATASET).filter((endpoint) => options.only.length === 0 || options.only.includes(endpoint.name));
  console.log(`Seeding schema ${options.schema} (1,000 users, 100,000 posts, 1,000,000 comments, files on every tenth post)…`);
  const seed = await ensureBenchSeed(options.url, options.schema);
  await resetBenchWrites(options.url, options.schema);
  console.log(seed.reused ? 'Seed reused.' : `Seeded in ${seed.seconds.toFixed(1)} s.`);

  const entry = compileServers();
  const common = { entry, url: options.url, schema: options.schema, workers: options.workers };
  const [api, baseline] = await Promise.all([
    ServerProcess.start({ ...common, kind: 'api', port: await freePort() }),
    ServerProcess.start({ ...common, kind: 'baseline', port: await freePort() }),
  ]);
  const results: EndpointResult[] = [];
  try {
    for (const endpoint of endpoints) {
      const difference = await compareResponses(endpoint, api.origin, baseline.origin);
      if (difference) throw new Error(`The servers answer differently, so the figures would not compare: ${difference}`);
    }
    console.log(`Both servers answer ${endpoints.length} endpoints alike (bodies byte for byte for reads, status and shape for writes).`);
    if (options.explain) console.log(await explainIndexStatements(options.url, options.schema, api, baseline));
    // Counted before any load, so that no request still in flight from a run adds its statements.
    const censuses = new Map<string, [ServerFigures['census'], ServerFigures['census']]>();
    for (const endpoint of endpoints.filter((e) => e.census)) {
      const [a, b] = [await requestCensus(api, endpoint.request(0)), await requestCensus(baseline, endpoint.request(0))];
      censuses.set(endpoint.name, [{ statements: a.statements, roundTrips: a.roundTrips }, { statements: b.statements, roundTrips: b.roundTrips }]);
    }
    for (const endpoint of endpoints) {
      const [apiCensus, baselineCensus] = censuses.get(endpoint.name) ?? [null, null];
      console.log(`${endpoint.title}: ${options.rounds} rounds, alternating which server goes first…`);
      const byServer = { api: [] as Awaited<ReturnType<typeof measureRound>>[], baseline: [] as Awaited<ReturnType<typeof measureRound>>[] };
      for (let round = 0; round < options.rounds; round += 1) {
        for (const server of round % 2 === 0 ? [baseline, api] : [api, baseline]) byServer[server.kind].push(await measureRound(server, endpoint, options));
      }
      const baselineFigures = combineRounds(byServer.baseline, baselineCensus);
      const apiFigures = combineRounds(byServer.api, apiCensus);
      results.push({
        name: endpoint.name,
        title: endpoint.title,
        target: endpoint.target,
        api: apiFigures,
        baseline: baselineFigures,
        ratio: apiFigures.requestsPerSecond / baselineFigures.requestsPerSecond,
      });
    }
  } finally {
    await Promise.all([api.stop(), baseline.stop()]);
    await resetBenchWrites(options.url, options.schema);
  }

  const report: BenchResults = {
    startedAt,
    node: process.version,
    postgres: await postgresVersion(options.url),
    cores: availableParallelism(),
    loadAverageAtStart: load,
    settings: { workers: options.workers, connections: options.connections, seconds: options.seconds, warmupSeconds: options.warmupSeconds, rounds: options.rounds },
    seed: { reused: seed.reused, seconds: seed.seconds },
    endpoints: results,
    totalSeconds: (performance.now() - started) / 1000,
  };
  console.log(`\n${formatResults(report)}`);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = `${RESULTS_DIR}${report.startedAt.replace(/[:.]/g, '-')}${options.workers > 1 ? '-cluster' : ''}.json`;
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${RESULTS_DIR}latest${options.workers > 1 ? '-cluster' : ''}.json`, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nFigures written to ${file}`);
  return 0;
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
