/**
 * The entry of a server child process: `serve.ts <api|baseline>`, configured by environment
 * (`BENCH_DATABASE_URL`, `BENCH_SCHEMA`, `BENCH_PORT`, `BENCH_WORKERS`, and `BENCH_COUNT`, the API's count strategy as JSON). With more than one
 * worker, the process is a `node:cluster` primary that forks the workers and shares the port.
 * It talks to the harness over IPC: `ready` once listening, `census` to count the statements
 * of one request (run with `inject`, on the first worker), `stop` to close.
 */
import cluster, { type Worker } from 'node:cluster';
import { buildBenchServer, type BenchServer, type ServerKind } from './bench-server.js';
import { census, type TimedStatement } from '../census/round-trips.js';
import type { CensusRequest, ChildMessage, ParentMessage } from './server-messages.js';

const kind = process.argv[2] as ServerKind;
const workers = Number(process.env.BENCH_WORKERS ?? 1);
const port = Number(process.env.BENCH_PORT);
const send = (message: ChildMessage) => process.send?.(message);

async function countStatements(server: BenchServer, request: CensusRequest) {
  const inject = (headers: Record<string, string>) => server.app.inject({ method: request.method, url: request.url, headers, ...(request.payload === undefined ? {} : { payload: request.payload }) });
  // Once unmeasured first: a statement waiting for the pool to open a connection would look like a round trip of its own.
  // With its own Idempotency-Key, if the request has one: the measured request must run, not replay the warm-up's answer.
  const key = request.headers['idempotency-key'];
  await inject(key === undefined ? request.headers : { ...request.headers, 'idempotency-key': `${key}-warm-up` });
  const statements: TimedStatement[] = [];
  const stop = server.onStatement((statement) => statements.push(statement));
  try {
    const response = await inject(request.headers);
    return { status: response.statusCode, ...census(statements) };
  } finally {
    stop();
  }
}

async function runWorker(): Promise<void> {
  const server = await buildBenchServer(kind, { url: process.env.BENCH_DATABASE_URL!, schema: process.env.BENCH_SCHEMA!, count: process.env.BENCH_COUNT, replicas: process.env.BENCH_REPLICAS });
  await server.app.listen({ port, host: '127.0.0.1' });
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'census') void countStatements(server, message.request).then((result) => send({ type: 'census', id: message.id, result }));
    if (message.type === 'stop') void server.close().then(() => process.exit(0));
  });
  send({ type: 'ready', pids: [process.pid] });
}

async function runPrimary(): Promise<void> {
  const forked: Worker[] = [];
  let listening = 0;
  for (let i = 0; i < workers; i += 1) {
    const worker = cluster.fork();
    forked.push(worker);
    worker.on('message', (message: ChildMessage) => {
      if (message.type === 'ready' && ++listening === workers) send({ type: 'ready', pids: forked.map((w) => w.process.pid!) });
      if (message.type === 'census') send(message);
    });
  }
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'census') forked[0]!.send(message);
    if (message.type === 'stop') {
      for (const worker of forked) worker.send(message);
      let exited = 0;
      cluster.on('exit', () => {
        if (++exited === workers) process.exit(0);
      });
    }
  });
}

// A server never outlives the harness (or the cluster primary) that started it.
process.on('disconnect', () => process.exit(0));

if (workers > 1 && cluster.isPrimary) await runPrimary();
else await runWorker();
