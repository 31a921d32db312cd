// Malformed headers on every route the demo draws, over a real socket (Node's own parser included): a bad Host is 400 JSON, nothing is a 5xx or carries an internal code.
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { describeOnEachDatabase } from './demo-app-support.js';
import type { DemoApp } from '../src/build-app.js';

/** One route and the methods it answers (HEAD left out: it runs GET's handler). */
interface DrawnRoute {
  readonly path: string;
  readonly methods: readonly string[];
}

/** Every route of the app, read from Fastify's own route tree (`printRoutes`), so that a route added later is fuzzed too. */
function drawnRoutes(app: FastifyInstance): DrawnRoute[] {
  const routes: DrawnRoute[] = [];
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const parsed = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?) \(([^)]*)\)$/.exec(line);
    if (!parsed) continue;
    const depth = parsed[1]!.length / 4;
    const segment = parsed[2]!;
    const path = `${parents[depth - 1] ?? ''}${depth > 0 && !segment.startsWith('/') ? '/' : ''}${segment}`;
    parents[depth] = path;
    parents.length = depth + 1;
    routes.push({ path, methods: parsed[3]!.split(', ').filter((method) => method !== 'HEAD') });
  }
  return routes;
}

/** A URL for a route: its parameters filled with an existing record's id and a plausible file key. */
const concrete = (path: string) => path.replace(/:id\b/g, '2').replace(':key', 'k3y').replace(':filename', 'f.txt').replace(/\*$/, 'elsewhere');

/** A raw request's answer: the status of its status line (0 when there was none), its headers and body. */
interface RawAnswer {
  readonly status: number;
  readonly head: string;
  readonly body: string;
}

/**
 * Sends header lines as given (latin1 bytes, nothing validated by a client library) on a socket
 * of its own, and reads until the server closes it (`Connection: close`). The socket is not
 * half-closed first: Node's server drops a request whose client ended its side before the answer.
 */
function rawRequest(port: number, lines: readonly string[], body: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), head: text.slice(0, split), body: text.slice(split + 4) });
      socket.destroy();
    });
    socket.on('error', reject);
    socket.write(Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`, 'latin1'));
  });
}

/** Host values RFC 9112 §3.2 makes a 400: not `uri-host [":" port]`. */
const MALFORMED_HOSTS = ['[::1', 'a b', '', ':', '[', '\xe9', '%zz', 'a/b', 'a?b', 'a#b', 'a@b', '::1', '[::1]:80x', 'x:99999', '[fe80::1%eth0]', '[v1.x]'];

/** Other headers, each with values a client should not send: every route gets every header, its value rotating over the list. */
const MALFORMED_HEADERS: Readonly<Record<string, readonly string[]>> = {
  'content-type': ['', ';', 'application/json; charset=latin1', 'multipart/form-data; boundary=', 'application/json; charset="', 'text/plain', 'application/x-www-form-urlencoded', '\xe9/\xe9'],
  accept: ['', '*/*;q=x', 'text/html;q=2', ',', 'text/html', '\xe9'],
  'accept-encoding': ['gzip;q=x', '*;q=0', 'br'],
  'accept-language': ['\xe9;q=x', '*;q=-1'],
  'if-match': ['', '*', 'W/"x"', '"', '"a", ', 'x'.repeat(10_000), '\xe9'],
  'if-none-match': ['', '*', 'W/"x"', '"', '\xe9', 'x'.repeat(10_000)],
  'if-modified-since': ['garbage', 'Mon, 99 Foo 9999 99:99:99 GMT'],
  'if-unmodified-since': ['garbage', ''],
  'idempotency-key': ['', '\xe9', 'x'.repeat(10_000), ' ', '"'],
  cookie: ['panel_session=%', 'panel_session="', '=;=;', `panel_session=${'x'.repeat(4000)}`, 'per_page=abc', 'per_page=-1', 'per_page=1e400', 'panel_flash=%ff', '\xe9=\xe9'],
  authorization: ['Bearer', 'Bearer ', 'Basic %%%', 'Basic Og==', 'ApiKey \xe9', `Bearer ${'x'.repeat(10_000)}`, 'Basic \xe9'],
  origin: ['null', 'http://[', '\xe9', '://'],
  referer: ['http://[', 'x', '\xe9'],
  'x-forwarded-for': ['[::1', 'garbage, ,,'],
  'x-forwarded-proto': ['\xe9', 'https, http'],
  'x-forwarded-host': ['[::1', 'a b'],
  forwarded: ['for=[', 'proto=\xe9'],
  'x-request-id': ['\xe9', 'x'.repeat(1000)],
  range: ['bytes=abc', 'bytes=99999999999999999999-'],
  'content-encoding': ['gzip', '\xe9'],
  expect: ['x'],
  'x-http-method-override': ['DELETE'],
  'x-csrf-token': ['\xe9', ''],
};

/**
 * How much of the matrix a run sends. The suite sends every route a share of the cases, turning
 * over the routes so that every case meets several routes (about a third of the headers and a
 * quarter of the hosts per route and method); `PANEL_HEADER_FUZZ=full` sends every case to every
 * route and method (some 5,500 requests per database, a minute or more on 2 cores).
 */
const SHARE = process.env.PANEL_HEADER_FUZZ === 'full' ? 1 : undefined;
const HEADER_SHARE = SHARE ?? 3;
const HOST_SHARE = SHARE ?? 4;

/** Whether case `index` is sent on the `turn`-th route and method: every case once in `share` turns. */
const inShare = (index: number, turn: number, share: number) => (index + turn) % share === 0;

/** A fuzz pass sends some thousand requests: on a loaded 2-core machine that can take minutes. */
const FUZZ_TIMEOUT = 300_000;

/** What a fuzzed answer must not be: a 5xx, no status line at all, or a body naming an internal code. */
function problemOf(answer: RawAnswer): string | undefined {
  if (answer.status === 0) return 'no answer';
  if (answer.status >= 500) return `${answer.status} ${answer.body.slice(0, 160)}`;
  // Fastify's own error bodies name their code (`FST_ERR_…`), Node's errors theirs (`ERR_INVALID_URL`).
  if (/"code"\s*:/.test(answer.body)) return `an internal code: ${answer.body.slice(0, 160)}`;
  return undefined;
}

function headerFuzz(edition: 'A' | 'B') {
  describeOnEachDatabase(`malformed headers on every route, Edition ${edition}`, (demo) => {
    let port = 0;
    let routes: DrawnRoute[] = [];
    let credentials: Record<string, string> = {};
    beforeAll(async () => {
      const app = demo().app;
      // A real socket: Node's parser sees the header lines as sent; the suite's afterAll closes the server.
      await app.listen({ port: 0, host: '127.0.0.1' });
      port = (app.server.address() as AddressInfo).port;
      routes = drawnRoutes(app);
      credentials = await credentialsOf(demo(), edition);
    });

    /** A request to `url` with the demo's credentials, `header` overriding (or added to) the ordinary lines. */
    const send = (method: string, url: string, header: readonly [string, string] | readonly (readonly [string, string])[]) => {
      const body = method === 'GET' || method === 'DELETE' ? '' : '{}';
      const lines = new Map<string, string[]>([['host', ['127.0.0.1']], ['content-type', ['application/json']], ...Object.entries(credentials).map(([name, value]) => [name, [value]] as [string, string[]])]);
      const overrides = (typeof header[0] === 'string' ? [header] : header) as readonly (readonly [string, string])[];
      for (const [name] of overrides) lines.delete(name);
      for (const [name, value] of overrides) lines.set(name, [...(lines.get(name) ?? []), value]);
      const head = [`${method} ${url} HTTP/1.1`, ...[...lines].flatMap(([name, values]) => values.map((value) => `${name}: ${value}`)), `content-length: ${body.length}`, 'connection: close'];
      return rawRequest(port, head, body);
    };

    it('"A server MUST respond with a 400 (Bad Request) status code to any request message that contains more than one Host header field line or a Host header field with an invalid field value" (RFC 9112 §3.2): JSON naming it, on every route', async () => {
      const wrong: string[] = [];
      let requests = 0;
      let turn = 0;
      const cases: [string, readonly (readonly [string, string])[]][] = [...MALFORMED_HOSTS.map((host): [string, [[string, string]]] => [JSON.stringify(host), [['host', host]]]), ['two Host lines', [['host', '127.0.0.1'], ['host', 'evil.example']]]];
      for (const { path, methods } of routes) {
        for (const method of methods) {
          turn += 1;
          for (const [index, [what, header]] of cases.entries()) {
            if (!inShare(index, turn, HOST_SHARE)) continue;
            const answer = await send(method, concrete(path), header);
            requests += 1;
            const expected = what === 'two Host lines' ? 'More than one Host header: send exactly one' : 'The Host header is not a valid host[:port]';
            if (answer.status !== 400 || !/content-type: application\/json/i.test(answer.head) || answer.body !== JSON.stringify({ error: expected })) wrong.push(`${method} ${path} Host ${what} → ${answer.status} ${answer.body.slice(0, 160)}`);
          }
        }
      }
      console.log(`Edition ${edition}, malformed Host: ${requests} requests over ${routes.length} routes, ${wrong.length} not answered 400 JSON`);
      expect(requests).toBeGreaterThan(routes.length);
      expect(wrong).toEqual([]);
      // Well-formed hosts still reach every kind of route.
      for (const host of ['[::1]:3000', 'panel.example:8080', 'localhost:', '127.0.0.1']) {
        expect((await send('GET', '/api/resources/v1/docs/', ['host', host])).status, host).toBe(200);
        expect((await send('GET', '/api/health', ['host', host])).status, host).toBe(200);
        expect((await send('GET', '/panel/login', ['host', host])).status, host).toBe(200);
      }
    }, FUZZ_TIMEOUT);

    it('the interactive reference page answers 400 JSON to a malformed Host and its page to a bracketed IPv6 one (it answered 500 ERR_INVALID_URL to "Host: [::1")', async () => {
      for (const path of ['/api/resources/v1/docs', '/api/resources/v1/docs/', '/api/resources/v1/docs/js/scalar.js']) {
        const answer = await send('GET', path, ['host', '[::1']);
        expect(answer.status, path).toBe(400);
        expect(JSON.parse(answer.body)).toEqual({ error: 'The Host header is not a valid host[:port]' });
      }
      const page = await send('GET', '/api/resources/v1/docs/', ['host', '[::1]']);
      expect(page.status).toBe(200);
      expect(page.body).toContain('<script');
    });

    it('no malformed header makes any route answer a 5xx or an internal code (every route × malformed headers, the cases turning over the routes)', async () => {
      const failures: string[] = [];
      let requests = 0;
      let turn = 0;
      const sends = new Map<string, number>();
      for (const { path, methods } of routes) {
        for (const method of methods) {
          for (const [index, [name, values]] of Object.entries(MALFORMED_HEADERS).entries()) {
            if (!inShare(index, turn, HEADER_SHARE)) continue;
            // Each header's values in turn, whichever routes it meets.
            const sent = sends.get(name) ?? 0;
            sends.set(name, sent + 1);
            const value = values[sent % values.length]!;
            const problem = problemOf(await send(method, concrete(path), [name, value]));
            requests += 1;
            if (problem) failures.push(`${method} ${path} ${name}: ${JSON.stringify(value.slice(0, 30))} → ${problem}`);
          }
          turn += 1;
        }
      }
      console.log(`Edition ${edition}, malformed headers: ${requests} requests over ${routes.length} routes, ${failures.length} answered 5xx or an internal code`);
      expect(requests).toBeGreaterThan(routes.length * 5);
      expect(failures).toEqual([]);
    }, FUZZ_TIMEOUT);
  }, { edition });
}

/** The credentials each request carries (a malformed header then replaces one): the API's key or token, and a signed-in panel session. */
async function credentialsOf(demo: DemoApp, edition: 'A' | 'B'): Promise<Record<string, string>> {
  const login = await demo.app.inject({ method: 'POST', url: '/panel/login', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email=ada%40example.com&password=demo-password', remoteAddress: '10.9.0.1' });
  const session = login.cookies.find((cookie) => cookie.name === 'panel_session');
  return {
    authorization: edition === 'B' ? `Bearer ${demo.tokenSecrets!.get('all')}` : 'ApiKey demo-admin-key',
    ...(session ? { cookie: `panel_session=${session.value}` } : {}),
  };
}

headerFuzz('A');
headerFuzz('B');
