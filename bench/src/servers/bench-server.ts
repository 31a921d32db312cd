import type { FastifyInstance } from 'fastify';
import type { TimedStatement } from '../census/round-trips.js';

/** Which server a child process runs: the demo app with Panel API, or the hand-written baseline. */
export type ServerKind = 'api' | 'baseline';

/** A server built in a child process: its Fastify app, a statement listener (start and end times), and how to close it. */
export interface BenchServer {
  readonly app: FastifyInstance;
  onStatement(listener: (statement: TimedStatement) => void): () => void;
  close(): Promise<void>;
}

/** What a child process needs to build its server. */
export interface ServerSettings {
  readonly url: string;
  readonly schema: string;
}

/** Builds the server of that kind (each is imported only in the child that runs it). */
export async function buildBenchServer(kind: ServerKind, settings: ServerSettings): Promise<BenchServer> {
  if (kind === 'api') {
    const { buildDemoApp } = await import('@panel/example-blog/src/build-app.js');
    const { app, database } = await buildDemoApp({ database: { url: settings.url, schema: settings.schema } });
    return {
      app,
      onStatement: (listener) =>
        database.onQuery((query) => {
          const end = performance.now();
          listener({ sql: query.sql, parameters: query.parameters, start: end - query.durationMillis, end });
        }),
      close: () => app.close(),
    };
  }
  const { openBaselineDatabase } = await import('../baseline/baseline-database.js');
  const { baselineApp } = await import('../baseline/baseline-app.js');
  const database = openBaselineDatabase(settings.url, settings.schema);
  const app = baselineApp(database.db);
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
