/**
 * `npm run bench`: seeds (or reuses) the large data set in PostgreSQL, starts the demo app
 * and the hand-written baseline each in its own child process, checks that they answer alike,
 * counts the statements and round trips of each endpoint, drives both with autocannon one
 * after the other, prints a table per endpoint and writes the figures under bench/results/.
 */
import { DEMO_COUNT } from '@panel/example-blog/src/demo-count.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { USAGE, parseBenchOptions, type BenchOptions } from './cli/bench-options.js';
import { ensureBenchSeed, resetBenchWrites } from './seed/bench-seed.js';
import { DATASET } from './seed/dataset.js';
import { ensureQueryIndexes } from './seed/query-indexes.js';
import { ServerProcess } from './servers/server-process.js';
import { compileServers } from './servers/compile-servers.js';
import { ESTIMATED_COUNT, benchEndpoints, conditionalWriteEndpoints, equalWorkEndpoints, limitEndpoints, type Endpoint } from './load/endpoints.js';
import { MIX_PATCHED_UP_TO, mixEndpoints, sortIndexes } from './mix/mix-workload.js';
import { requestCensus } from './census/request-census.js';
import { compareResponses } from './load/compare-responses.js';
import { driveLoad, type LoadFigures } from './load/drive-load.js';
import { formatIssue29, formatResults } from './report/print-table.js';
import type { BenchResults, EndpointResult, ServerFigures } from './report/bench-results.js';
import { explainIndexStatements } from './explain/explain-statements.js';
import { freePort } from '@panel/test-support';
import { nodeOption, runOnNode } from './cli/node-version.js';

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

/** The two sides of an endpoint: the API, and what it is compared with (another server, or the API sent `plainRequest`). */
type Side = 'api' | 'reference';

/** One side's share of a round: its figures and its server's peak RSS over the round. */
async function measureRound(server: ServerProcess, endpoint: Endpoint, side: Side, options: BenchOptions): Promise<LoadFigures & { peakRss: number; peakRssTotal: number }> {
  await endpoint.prepare?.('round');
  server.resetPeakRss();
  const request = side === 'reference' && endpoint.plainRequest ? endpoint.plainRequest : endpoint.request;
  const figures = await driveLoad(server.origin, request, { connections: endpoint.connections ?? options.connections, seconds: options.seconds / options.rounds, warmupSeconds: options.warmupSeconds });
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
  // `--node 24`: the whole run again on that Node (cli/node-version.ts).
  const onOtherNode = runOnNode(import.meta.url, process.argv.slice(2));
  if (onOtherNode !== undefined) return onOtherNode;
  const argv = nodeOption(process.argv.slice(2)).rest;
  if (argv.includes('--large')) {
    const { runLarge } = await import('./large/run-large.js');
    return runLarge(argv.filter((arg) => arg !== '--large'));
  }
  const options = parseBenchOptions(argv, process.env, availableParallelism());
  if (options === 'help') {
    console.log(USAGE);
    return 0;
  }
  // The server processes inherit the environment.
  if (options.unnamedStatements) process.env.BENCH_UNNAMED_STATEMENTS = '1';
  if (options.replica) {
    const { runReplica } = await import('./replica/run-replica.js');
    return runReplica(options, compileServers());
  }
  const load = loadavg();
  if (load[0]! > availableParallelism() * 0.75) {
    console.warn(`Load average is ${load[0]!.toFixed(2)} on ${availableParallelism()} cores: other work is running and the figures will be noisy.`);
  }
  // Reads first, so that they see the seeded data; then the writes; the mix last (it adds the sort indexes).
  const all = [...equalWorkEndpoints(DATASET), ...benchEndpoints(DATASET), ...limitEndpoints(DATASET), ...conditionalWriteEndpoints(DATASET)].sort((a, b) => Number(a.writes) - Number(b.writes));
  all.push(...mixEndpoints(DATASET, options.url, options.schema));
  const endpoints = all.filter((endpoint) => options.only.length === 0 || options.only.includes(endpoint.name));
  console.log(`Seeding schema ${options.schema} (1,000 users, 100,000 posts, 1,000,000 comments, files on every tenth post)…`);
  const seed = await ensureBenchSeed(options.url, options.schema);
  await resetBenchWrites(options.url, options.schema, DATASET, MIX_PATCHED_UP_TO);
  await sortIndexes(options.url, options.schema, 'drop');
  console.log(seed.reused ? 'Seed reused.' : `Seeded in ${seed.seconds.toFixed(1)} s.`);
  // The indexes the querying page recommends for the filtered endpoints (kept between runs).
  const queryIndexes = await ensureQueryIndexes(options.url, options.schema);
  if (queryIndexes.created.length > 0) console.log(`Querying indexes created: ${queryIndexes.created.join(', ')}.`);

  const entry = compileServers();
  const common = { entry, url: options.url, schema: options.schema, workers: options.workers };
  const needsLimit = endpoints.some((endpoint) => endpoint.against === 'limit');
  const needsEstimate = endpoints.some((endpoint) => endpoint.api === 'api-estimate');
  const needsScalar = endpoints.some((endpoint) => endpoint.api === 'api-scalar');
  const starting = await Promise.allSettled([
    ServerProcess.start({ ...common, kind: 'api', port: await freePort(), ...(options.count === undefined ? {} : { count: options.count }) }),
    ServerProcess.start({ ...common, kind: 'baseline', port: await freePort() }),
    needsLimit ? ServerProcess.start({ ...common, kind: 'limit', port: await freePort() }) : undefined,
    needsEstimate ? ServerProcess.start({ ...common, kind: 'api', port: await freePort(), count: JSON.stringify(ESTIMATED_COUNT) }) : undefined,
    needsScalar ? ServerProcess.start({ ...common, kind: 'api-scalar', port: await freePort() }) : undefined,
  ]);
  const failed = starting.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    // A server that could not start stops the run, and the ones that did start stop with it.
    await Promise.all(starting.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value?.stop() : undefined)));
    throw failed.reason;
  }
  const [apiExact, baseline, limit, apiEstimate, apiScalar] = starting.map((outcome) => (outcome as PromiseFulfilledResult<ServerProcess | undefined>).value) as [ServerProcess, ServerProcess, ServerProcess | undefined, ServerProcess | undefined, ServerProcess | undefined];
  const apiOf = (endpoint: Endpoint): ServerProcess => (endpoint.api === 'api-estimate' ? apiEstimate! : endpoint.api === 'api-scalar' ? apiScalar! : apiExact);
  const referenceOf = (endpoint: Endpoint): ServerProcess => (endpoint.against === 'limit' ? limit! : endpoint.against === 'api-plain' ? apiOf(endpoint) : baseline);
  const results: EndpointResult[] = [];
  const unmeasured: { name: string; difference: string }[] = [];
  try {
    // An endpoint whose servers answer differently is not timed (its figures would not compare) and fails the run; the others are.
    // Against itself (`api-plain`) there is nothing to compare: the same requests' answers are checked against the baseline by their twin endpoint.
    for (const endpoint of endpoints.filter((e) => e.against !== 'api-plain')) {
      const mix = endpoint.name.startsWith('mix');
      if (mix) await sortIndexes(options.url, options.schema, 'create');
      const difference = await compareResponses(endpoint, apiOf(endpoint).origin, referenceOf(endpoint).origin);
      if (mix) await sortIndexes(options.url, options.schema, 'drop');
      if (difference) {
        console.error(`NOT MEASURED: the servers answer differently, so the figures would not compare: ${difference}`);
        unmeasured.push({ name: endpoint.name, difference });
        endpoints.splice(endpoints.indexOf(endpoint), 1);
      }
    }
    console.log(`The servers answer ${endpoints.length} endpoints alike (bodies byte for byte for reads, status and shape for writes).`);
    if (options.explain) console.log(await explainIndexStatements(options.url, options.schema, apiExact, baseline));
    // Counted before any load, so that no request still in flight from a run adds its statements.
    const censuses = new Map<string, [ServerFigures['census'], ServerFigures['census']]>();
    for (const endpoint of endpoints.filter((e) => e.census)) {
      const [a, b] = [await requestCensus(apiOf(endpoint), endpoint.request(0)), await requestCensus(referenceOf(endpoint), (endpoint.plainRequest ?? endpoint.request)(0))];
      censuses.set(endpoint.name, [{ statements: a.statements, roundTrips: a.roundTrips }, { statements: b.statements, roundTrips: b.roundTrips }]);
      if (options.censusSql) for (const [server, counted] of [['API', a], ['reference', b]] as const) console.log(`${endpoint.name}, ${server}: ${counted.statements} statements\n  ${counted.sql.map((statement) => statement.sql).join('\n  ')}`);
    }
    for (const endpoint of endpoints) {
      const reference = referenceOf(endpoint);
      const api = apiOf(endpoint);
      const [apiCensus, referenceCensus] = censuses.get(endpoint.name) ?? [null, null];
      console.log(`${endpoint.title}: ${options.rounds} rounds, alternating which server goes first…`);
      if (endpoint.name.startsWith('mix')) await sortIndexes(options.url, options.schema, 'create');
      const bySide = new Map<Side, Awaited<ReturnType<typeof measureRound>>[]>([
        ['api', []],
        ['reference', []],
      ]);
      for (let round = 0; round < options.rounds; round += 1) {
        for (const side of round % 2 === 0 ? (['reference', 'api'] as const) : (['api', 'reference'] as const)) bySide.get(side)!.push(await measureRound(side === 'api' ? api : reference, endpoint, side, options));
      }
      if (endpoint.name.startsWith('mix')) await sortIndexes(options.url, options.schema, 'drop');
      const referenceFigures = combineRounds(bySide.get('reference')!, referenceCensus);
      const apiFigures = combineRounds(bySide.get('api')!, apiCensus);
      results.push({
        name: endpoint.name,
        title: endpoint.title,
        target: endpoint.target,
        p99NoWorse: endpoint.p99NoWorse ?? false,
        against: endpoint.against,
        api: apiFigures,
        baseline: referenceFigures,
        ratio: apiFigures.requestsPerSecond / referenceFigures.requestsPerSecond,
      });
    }
  } finally {
    await Promise.all([apiExact.stop(), baseline.stop(), limit?.stop(), apiEstimate?.stop(), apiScalar?.stop()]);
    await sortIndexes(options.url, options.schema, 'drop');
    await resetBenchWrites(options.url, options.schema, DATASET, MIX_PATCHED_UP_TO);
  }

  const report: BenchResults = {
    startedAt,
    node: process.version,
    postgres: await postgresVersion(options.url),
    cores: availableParallelism(),
    loadAverageAtStart: load,
    settings: { workers: options.workers, connections: options.connections, seconds: options.seconds, warmupSeconds: options.warmupSeconds, rounds: options.rounds, count: options.count ?? JSON.stringify(DEMO_COUNT) },
    seed: { reused: seed.reused, seconds: seed.seconds },
    endpoints: results,
    totalSeconds: (performance.now() - started) / 1000,
  };
  console.log(`\n${formatResults(report)}`);
  console.log(`\n${formatIssue29(report)}\nLoad average at the end: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = `${RESULTS_DIR}${report.startedAt.replace(/[:.]/g, '-')}${options.workers > 1 ? '-cluster' : ''}.json`;
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${RESULTS_DIR}latest${options.workers > 1 ? '-cluster' : ''}.json`, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nFigures written to ${file}`);
  for (const { name, difference } of unmeasured) console.error(`\nNot measured, ${name}: the servers answer differently: ${difference}`);
  return unmeasured.length === 0 ? 0 : 1;
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
