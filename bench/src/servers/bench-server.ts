import { fileURLToPath } from 'node:url';
import type { BenchServer, ServerSettings } from './server-types.js';
import { preparedStatementsOption } from './prepared-statements-option.js';
import { panelStatements } from './panel-statements.js';

export type { BenchServer, ServerSettings } from './server-types.js';

/**
 * Which server a child process runs: the demo app with Panel API, the hand-written baseline,
 * or the limit (the least work that gives the same answers: see `limit/limit-app.ts`); `api-scalar`
 * is the equal-work API (`scalar/scalar-api.ts`), one scalar resource and nothing else.
 */
export type ServerKind = 'api' | 'api-scalar' | 'baseline' | 'limit';

/** The bench's controllers (its own API-key check over the demo's blog posts), next to this file once compiled. */
const BENCH_CONTROLLERS = fileURLToPath(new URL('../../app/controllers/panel/api/resources', import.meta.url));

/** Builds the server of that kind (each is imported only in the child that runs it). */
export async function buildBenchServer(kind: ServerKind, settings: ServerSettings): Promise<BenchServer> {
  if (kind === 'api') {
    const { buildDemoApp } = await import('@panel/example-blog/src/build-app.js');
    // The limit is counted on every request (its cost is measured) but never reached by the load.
    const BENCH_RATE_LIMIT = { max: 1_000_000_000 };
    const { app, database } = await buildDemoApp({ database: { url: settings.url, schema: settings.schema, ...preparedStatementsOption(), ...(settings.replicas ? { replicas: settings.replicas.split(',') } : {}) }, api: { controllersDir: BENCH_CONTROLLERS, rateLimit: BENCH_RATE_LIMIT }, ...(settings.count ? { count: JSON.parse(settings.count) } : {}) });
    return {
      app,
      onStatement: (listener) => panelStatements(database, listener),
      close: () => app.close(),
    };
  }
  if (kind === 'api-scalar') {
    const { scalarApiServer } = await import('../scalar/scalar-api.js');
    return scalarApiServer(settings);
  }
  if (kind === 'limit') {
    const { limitServer } = await import('../limit/limit-app.js');
    return limitServer(settings);
  }
  const { openBaselineDatabase } = await import('../baseline/baseline-database.js');
  const { baselineApp } = await import('../baseline/baseline-app.js');
  const { loadBenchKeys } = await import('../auth/bench-keys.js');
  const { ensureKeyedWritesTable } = await import('../baseline/keyed-writes.js');
  const database = openBaselineDatabase(settings.url, settings.schema);
  await ensureKeyedWritesTable(database.db);
  const app = baselineApp(database.db, await loadBenchKeys(database.db));
  app.addHook('onClose', () => database.db.destroy());
  return {
    app,
    onStatement: (listener) =>
      database.onQuery((event) => {
        const end = performance.now();
        listener({ sql: event.query.sql, parameters: event.query.parameters, start: end - event.queryDurationMillis, end });
      }),
    close: () => app.close(),
  };
}

