/**
 * `npm run bench:cpu`: the CPU time one request costs the serving process, the API against the
 * limit (`limit/limit-app.ts`), for show and index page 1, in one process with `inject` and ten
 * requests in flight. Unlike requests per second, CPU time per request hardly moves with the
 * rest of the machine's load, so it shows what a change to the request path costs or saves.
 * Each figure is the lowest of several alternating rounds.
 *
 * Then, per phase (routing, hooks, authentication, current user, policy, statement,
 * serialization, reply…: see `cpu-phases.ts`), the CPU of one request to the equal-work show
 * and index (a scalar resource, `app/scalar/`) for the API, the hand-written route and the
 * limit, and of the demo's show for the API and the limit; and the promises one request of
 * each makes (`promises-per-request.ts`).
 */
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildDemoApp } from '@panel/example-blog/src/build-app.js';
import { ensureBenchSeed } from '../seed/bench-seed.js';
import { limitServer } from '../limit/limit-app.js';
import { scalarApiServer } from '../scalar/scalar-api.js';
import { SCALAR_PATH } from '../scalar/scalar-routes.js';
import { openBaselineDatabase } from '../baseline/baseline-database.js';
import { baselineApp } from '../baseline/baseline-app.js';
import { loadBenchKeys } from '../auth/bench-keys.js';
import { cpuByPhase, formatPhases } from './cpu-phases.js';
import { promisesPerRequest } from './promises-per-request.js';
import { nodeOption, runOnNode } from '../cli/node-version.js';

const URL_DEFAULT = 'postgres://postgres@127.0.0.1:5432/test';
const CONTROLLERS = fileURLToPath(new URL('../../app/controllers/panel/api/resources', import.meta.url));
const PATHS = { show: (n: number) => `/api/resources/v1/blog_posts/${1 + ((n * 7919) % 100_000)}`, 'index page 1': () => '/api/resources/v1/blog_posts' };

/** CPU microseconds per request over `count` requests, ten in flight. */
async function cpuPerRequest(app: FastifyInstance, path: (n: number) => string, count: number): Promise<number> {
  let next = 0;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < count) {
        const response = await app.inject({ url: path(next++), headers: { authorization: 'ApiKey demo-admin-key' } });
        if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
      }
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}

// `--node 24`: the same measurement on that Node (cli/node-version.ts).
const onOtherNode = runOnNode(import.meta.url, process.argv.slice(2));
if (onOtherNode !== undefined) process.exit(onOtherNode);
const url = process.env.DATABASE_URL || URL_DEFAULT;
const schema = nodeOption(process.argv.slice(2)).rest[0] ?? 'panel_bench';
await ensureBenchSeed(url, schema);
const { app } = await buildDemoApp({ database: { url, schema }, api: { controllersDir: CONTROLLERS, rateLimit: { max: 1_000_000_000 } } });
const limit = (await limitServer({ url, schema })).app;
await Promise.all([app.ready(), limit.ready()]);
console.log(`CPU per request in the serving process (µs, lowest of 5 rounds of 2,000), load average ${loadavg()[0]!.toFixed(2)} on ${availableParallelism()} cores`);
for (const [name, path] of Object.entries(PATHS)) {
  const best = { api: Number.POSITIVE_INFINITY, limit: Number.POSITIVE_INFINITY };
  await cpuPerRequest(app, path, 500);
  await cpuPerRequest(limit, path, 500);
  for (let round = 0; round < 5; round += 1) {
    best.api = Math.min(best.api, await cpuPerRequest(app, path, 2_000));
    best.limit = Math.min(best.limit, await cpuPerRequest(limit, path, 2_000));
  }
  console.log(`${name.padEnd(14)} API ${best.api.toFixed(0).padStart(5)}  limit ${best.limit.toFixed(0).padStart(5)}  limit/API ${(best.limit / best.api).toFixed(2)}`);
}

// Per phase: the equal-work resource (API, hand-written route, limit) and the demo's show (API, limit).
const scalar = (await scalarApiServer({ url, schema })).app;
const baselineDatabase = openBaselineDatabase(url, schema);
const handWritten = baselineApp(baselineDatabase.db, await loadBenchKeys(baselineDatabase.db));
await Promise.all([scalar.ready(), handWritten.ready()]);
const SCALAR_PATHS = { show: (n: number) => `${SCALAR_PATH}/${1 + ((n * 7919) % 100_000)}`, 'index page 1': () => SCALAR_PATH };
const ADMIN = 'ApiKey demo-admin-key';
for (const [name, path] of Object.entries(SCALAR_PATHS)) {
  const servers = [
    { name: 'API', app: scalar },
    { name: 'hand-written', app: handWritten },
    { name: 'limit', app: limit },
  ];
  for (const server of servers) await cpuByPhase(server.app, path, 500, ADMIN);
  const promises = [];
  for (const server of servers) promises.push(`${server.name} ${(await promisesPerRequest(server.app, path, 500, ADMIN)).toFixed(1)}`);
  console.log(`\nEqual work, ${name}: promises per request (inject included), ${promises.join(', ')}`);
  const columns = [];
  for (const server of servers) columns.push({ name: server.name, phases: await cpuByPhase(server.app, path, 3_000, ADMIN) });
  console.log(`\nEqual work, ${name} (scalar fields), CPU by phase over 3,000 requests, load average ${loadavg()[0]!.toFixed(2)}:\n${formatPhases(columns)}`);
}
await cpuByPhase(app, PATHS.show, 500, ADMIN);
const demoColumns = [
  { name: 'API', phases: await cpuByPhase(app, PATHS.show, 3_000, ADMIN) },
  { name: 'limit', phases: await cpuByPhase(limit, PATHS.show, 3_000, ADMIN) },
];
console.log(`\nThe demo's show (associations, files, policy), CPU by phase over 3,000 requests, load average ${loadavg()[0]!.toFixed(2)}:\n${formatPhases(demoColumns)}`);
await Promise.all([app.close(), limit.close(), scalar.close(), handWritten.close()]);
await baselineDatabase.db.destroy();
