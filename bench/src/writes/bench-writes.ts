/**
 * `npm run bench:writes`: the writes beyond one record, on the demo over PostgreSQL (its own
 * schema), through a real socket.
 *
 * - 100 creates of products: as 100 single `POST /products` one after the other, as one
 *   `POST /products/batch`, and as the hand-written bulk insert (one `insert … values (…) × 100
 *   returning *` through Kysely on the same pool, its rows as JSON). Prints the time of each and
 *   the ratios the issue targets (batch ≥ 10× the singles, ≥ 0.8× the hand-written bulk). Beside
 *   it, the same bulk as a hand-written route over the same kind of socket (the same JSON body,
 *   its key checked, each operation's values checked by type, the categories' existence in one
 *   statement, the insert in a transaction, each row answered): the bulk insert alone does no
 *   HTTP, no parsing and no check, so the batch is compared with both.
 * - An upload of 5 MiB through `POST /api/uploads` (multipart, sent in 64 KiB chunks): the
 *   throughput and the process's peak RSS over its baseline (streamed: far under the file's size).
 *
 * Prints the load average: figures taken on a busy machine are not figures. `-- --node 22|24`
 * runs the whole bench on that Node (installed on first use).
 */
import { request } from 'node:http';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { diskStorage } from '@panel/core';
import { buildDemoApp } from '@panel/example-blog/src/build-app.js';
import { openTestDatabase } from '@panel/test-support';
import type { PanelDatabase } from '@panel/core';
import { runOnNode } from '../cli/node-version.js';

const ADMIN = 'ApiKey demo-admin-key';
const ROUNDS = Number(process.env.BENCH_WRITES_ROUNDS ?? 5);
const PER_BATCH = 100;
const MIB = 1024 * 1024;

function send(port: number, method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = request({ host: '127.0.0.1', port, method, path, headers: { authorization: ADMIN, ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const product = (round: number, i: number) => ({ name: `Bench ${round}-${i}`, price: 9.5, in_stock: true, product_category_id: 1, status: 'active' });

/** The median of a list of milliseconds. */
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Sends a multipart upload of `size` bytes in 64 KiB chunks, never holding the file whole. */
function streamUpload(port: number, size: number): Promise<number> {
  const boundary = 'panel-bench-boundary';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/api/uploads', headers: { authorization: ADMIN, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.write(head);
    const chunk = Buffer.alloc(64 * 1024, 7);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

const STATUSES = new Set(['draft', 'active', 'archived']);

/** The hand-written batch route: what a developer writes for this one import, at its best. */
function handBatchRoute(database: PanelDatabase) {
  const app = Fastify();
  app.post('/hand/products/batch', async (request, reply) => {
    if (request.headers.authorization !== ADMIN) return reply.code(401).send({ error: 'Unauthorized' });
    const { operations } = request.body as { operations: { op: string; data: Record<string, unknown> }[] };
    const rows = operations.map(({ op, data }) => {
      const ok = op === 'create' && typeof data.name === 'string' && data.name !== '' && typeof data.price === 'number' && typeof data.in_stock === 'boolean' && Number.isInteger(data.product_category_id) && STATUSES.has(String(data.status));
      if (!ok) throw Object.assign(new Error('invalid operation'), { statusCode: 422 });
      return { name: data.name as string, price: data.price as number, in_stock: data.in_stock as boolean, product_category_id: data.product_category_id as number, status: data.status as string, tags: '{}', specs: '{}' };
    });
    return database.db.transaction().execute(async (trx) => {
      const categories = [...new Set(rows.map((row) => row.product_category_id))];
      const found = await sql<{ id: number }>`select id from product_categories where id = any(${categories})`.execute(trx);
      if (found.rows.length !== categories.length) return reply.code(422).send({ error: 'unknown category' });
      const inserted = await trx.insertInto('products').values(rows).returningAll().execute();
      return { results: inserted.map((record) => ({ status: 201, record })) };
    });
  });
  return app;
}

async function main(): Promise<void> {
  const storageRoot = await mkdtemp(join(tmpdir(), 'panel-bench-writes-'));
  const database = await openTestDatabase('postgres');
  const demo = await buildDemoApp({ database, storage: diskStorage({ root: storageRoot }) });
  await demo.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = demo.app.server.address() as { port: number };
  const hand = handBatchRoute(database);
  await hand.listen({ host: '127.0.0.1', port: 0 });
  const handPort = (hand.server.address() as { port: number }).port;
  try {
    const singles: number[] = [];
    const batches: number[] = [];
    const bulks: number[] = [];
    const handRoutes: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      singles.push(
        await timed(async () => {
          for (let i = 0; i < PER_BATCH; i += 1) {
            const { status } = await send(port, 'POST', '/api/resources/v1/products', { product: product(round, i) });
            if (status !== 201) throw new Error(`single create answered ${status}`);
          }
        }),
      );
      batches.push(
        await timed(async () => {
          const operations = Array.from({ length: PER_BATCH }, (_, i) => ({ op: 'create', data: product(round + 1000, i) }));
          const { status, text } = await send(port, 'POST', '/api/resources/v1/products/batch', { operations });
          if (status !== 200) throw new Error(`batch answered ${status}: ${text.slice(0, 200)}`);
        }),
      );
      bulks.push(
        await timed(async () => {
          const rows = await database.db
            .insertInto('products')
            .values(Array.from({ length: PER_BATCH }, (_, i) => ({ ...product(round + 2000, i), tags: '{}', specs: '{}' })))
            .returningAll()
            .execute();
          JSON.stringify({ records: rows });
        }),
      );
      handRoutes.push(
        await timed(async () => {
          const operations = Array.from({ length: PER_BATCH }, (_, i) => ({ op: 'create', data: product(round + 3000, i) }));
          const { status, text } = await send(handPort, 'POST', '/hand/products/batch', { operations });
          if (status !== 200) throw new Error(`the hand-written route answered ${status}: ${text.slice(0, 200)}`);
        }),
      );
    }
    const [single, batch, bulk, handRoute] = [median(singles), median(batches), median(bulks), median(handRoutes)];
    console.log(`100 creates of products, median of ${ROUNDS} rounds (PostgreSQL, the demo through a socket):`);
    console.log(`  100 single POSTs     ${single.toFixed(1)} ms`);
    console.log(`  one batch of 100     ${batch.toFixed(1)} ms   ${(single / batch).toFixed(1)}× the singles (target ≥ 10×)`);
    console.log(`  hand-written bulk    ${bulk.toFixed(1)} ms   the batch runs at ${(bulk / batch).toFixed(2)}× its speed (target ≥ 0.8×)`);
    console.log(`  hand-written route   ${handRoute.toFixed(1)} ms   the same bulk over HTTP, its body checked, in a transaction: the batch runs at ${(handRoute / batch).toFixed(2)}× its speed`);

    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 2);
    const size = 5 * MIB;
    const uploadMs = await timed(async () => {
      const status = await streamUpload(port, size);
      if (status !== 201) throw new Error(`the upload answered ${status}`);
    });
    clearInterval(sampler);
    console.log(`upload of 5 MiB (multipart, 64 KiB chunks): ${uploadMs.toFixed(1)} ms, ${(size / MIB / (uploadMs / 1000)).toFixed(1)} MiB/s; peak RSS ${(peak / MIB).toFixed(1)} MiB, ${((peak - baseline) / MIB).toFixed(1)} MiB over the ${(baseline / MIB).toFixed(1)} MiB before it (the file: 5 MiB)`);
    console.log(`Node ${process.version}; load average (1, 5, 15 min): ${loadavg().map((value) => value.toFixed(2)).join(', ')}`);
  } finally {
    await hand.close();
    await demo.app.close();
    await database.close();
    await rm(storageRoot, { recursive: true, force: true });
  }
}

// `--node 24`: the whole bench again on that Node (cli/node-version.ts).
const onOtherNode = runOnNode(import.meta.url, process.argv.slice(2));
if (onOtherNode !== undefined) process.exit(onOtherNode);
await main();
