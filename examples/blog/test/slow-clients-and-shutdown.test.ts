import { connect, type Socket } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskStorage } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { buildDemoApp, type DemoApp } from '../src/build-app.js';
import { runDemoUntilExit, startDemoServer } from './demo-server-process.js';

/** What a raw client saw: when its socket closed and what the server wrote. */
interface RawClient {
  readonly socket: Socket;
  readonly closedAfter: Promise<number>;
  received(): string;
}

function rawClient(port: number, first: string): RawClient {
  const started = performance.now();
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.write(first);
  const closedAfter = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now() - started)));
  return { socket, closedAfter, received: () => received };
}

/** Writes `piece` every `millis` until the socket closes. */
function drip(client: RawClient, piece: string, millis: number): void {
  const timer = setInterval(() => {
    if (client.socket.destroyed) clearInterval(timer);
    else client.socket.write(piece);
  }, millis);
  void client.closedAfter.then(() => clearInterval(timer));
}

const kind = testDatabaseKinds()[0]!;
/** Short server timeouts, so the test is quick: headers within 500 ms, the whole request within 1000 ms. */
const SERVER = { headersTimeout: 500, requestTimeout: 1_000, connectionsCheckingInterval: 100 } as const;

describe(`slow clients on a real socket [${kind}]`, () => {
  let demo: DemoApp;
  let storageRoot: string;
  let port: number;

  beforeAll(async () => {
    storageRoot = await mkdtemp(join(tmpdir(), 'panel-slow-clients-'));
    demo = await buildDemoApp({ database: await openTestDatabase(kind), storage: diskStorage({ root: storageRoot }), server: SERVER });
    await demo.app.listen({ port: 0, host: '127.0.0.1' });
    port = (demo.app.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await demo?.app.close();
    await demo?.database.close();
    if (storageRoot) await rm(storageRoot, { recursive: true, force: true });
  });

  it('"slow-body and slow-header clients are cut and other clients keep being served"', async () => {
    const slowHeaders = Array.from({ length: 10 }, () => rawClient(port, 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n'));
    for (const client of slowHeaders) drip(client, 'X-Slow: 1\r\n', 100);
    const slowBodies = Array.from({ length: 10 }, () =>
      rawClient(port, 'POST /api/resources/v1/blog_posts HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ApiKey demo-admin-key\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"blog_post":{"title":"'),
    );
    for (const client of slowBodies) drip(client, 'xxxxxxxxxx', 100);

    const served: number[] = [];
    let serving = true;
    const others = (async () => {
      while (serving) {
        const response = await fetch(`http://127.0.0.1:${port}/api/resources/v1/blog_posts?per_page=3`, { headers: { authorization: 'ApiKey demo-reader-key' } });
        served.push(response.status);
        await response.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    const headerCuts = await Promise.all(slowHeaders.map((client) => client.closedAfter));
    const bodyCuts = await Promise.all(slowBodies.map((client) => client.closedAfter));
    serving = false;
    await others;

    // Node checks the timeouts every connectionsCheckingInterval; 1500 ms covers that and a busy machine.
    for (const millis of headerCuts) expect(millis).toBeLessThan(SERVER.headersTimeout + 1_500);
    for (const millis of bodyCuts) expect(millis).toBeLessThan(SERVER.requestTimeout + 1_500);
    for (const client of [...slowHeaders, ...slowBodies]) expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(served.length).toBeGreaterThan(3);
    expect(new Set(served)).toEqual(new Set([200]));
  });
});

describe('graceful shutdown of the demo server [pglite, a child process]', () => {
  it('"SIGTERM drains in-flight requests and exits 0": a request whose body is still arriving is answered, new connections are refused', async () => {
    const server = await startDemoServer({ DATABASE_URL: '' });
    try {
      const { port } = new URL(server.base);
      const body = JSON.stringify({ blog_post: { title: 'Written during shutdown', author_id: 1 } });
      const half = Math.floor(body.length / 2);
      const client = rawClient(Number(port), `POST /api/resources/v1/blog_posts HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ApiKey demo-admin-key\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      server.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      await expect(fetch(`${server.base}/api/health`)).rejects.toThrow();
      client.socket.write(body.slice(half));
      await client.closedAfter;
      expect(client.received()).toMatch(/^HTTP\/1\.1 201 /);
      expect(client.received()).toContain('Written during shutdown');
      expect(await server.exited).toBe(0);
    } finally {
      server.kill();
    }
  }, 150_000);
});

// The rule: "Misconfiguration fails fast at boot with a message that names the option and the
// fix." SHUTDOWN_DRAIN_MS=abc was read as NaN, and the first SIGTERM then cut every request in
// flight ("took more than NaN ms", exit 1); PORT=abc ended in Node's RangeError and its stack.
describe('the demo server with a malformed PORT or SHUTDOWN_DRAIN_MS [pglite, a child process]', () => {
  for (const [name, value] of [
    ['SHUTDOWN_DRAIN_MS', 'abc'],
    ['SHUTDOWN_DRAIN_MS', '-5'],
    ['PORT', 'abc'],
    ['PORT', '80000'],
  ] as const) {
    it(`${name}=${value}: one line on standard error naming ${name} and the fix, no stack, exit 1 before listening`, async () => {
      const ended = await runDemoUntilExit({ DATABASE_URL: '', [name]: value }, 'src/server.ts', 60_000);
      expect(ended.stderr).toMatch(new RegExp(`^${name} must be .*, instead got "${value}"\\. Fix: .+\\n$`));
      expect(ended.stderr).not.toMatch(/^\s+at /m);
      expect(ended.stdout).not.toContain('Panel API demo on');
      expect(ended.code).toBe(1);
    }, 90_000);
  }
  it('PORT=abc for the cluster process (src/server-cluster.ts): the same line, before it connects to anything', async () => {
    const ended = await runDemoUntilExit({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/unused', PORT: 'abc' }, 'src/server-cluster.ts', 60_000);
    expect(ended.stderr).toMatch(/^PORT must be .*, instead got "abc"\. Fix: .+\n$/);
    expect(ended.code).toBe(1);
  }, 90_000);
});

