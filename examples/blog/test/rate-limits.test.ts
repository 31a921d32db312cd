// Issue "Safe clients": per-credential rate limits with the IETF RateLimit headers, through real
// HTTP on the demo, on both databases: the Edition B `limited` token, the address of an
// unauthenticated client, the health checks' exemption, and one budget shared by two app
// instances on one database (the PostgreSQL store).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskStorage, openDatabase, type PanelDatabase } from '@panel/core';
import { createTestSchema, openTestDatabase, testDatabaseKinds, type TestSchema } from '@panel/test-support';
import { buildDemoApp, type DemoApp } from '../src/build-app.js';
import { LIMITED_TOKEN_MAX_REQUESTS } from '../src/demo-tokens.js';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';

describeOnEachDatabase(
  'Rate limits (Edition B)',
  (demo) => {
    const bearer = (name: string) => ({ authorization: `Bearer ${demo().tokenSecrets!.get(name)!}` });

    it('"the 6th request of limited (429 with the headers)": a token\'s own limit of 5 requests per 60 s, "RateLimit-Policy / RateLimit headers on every API answer"', async () => {
      expect(LIMITED_TOKEN_MAX_REQUESTS).toBe(5);
      for (let n = 1; n <= 5; n++) {
        const response = await demo().app.inject({ method: 'GET', url: `${V1}/products?per_page=1`, headers: bearer('limited') });
        expect(response.statusCode, `request ${n}`).toBe(200);
        expect(response.headers['ratelimit-policy']).toBe('"default";q=5;w=60');
        expect(response.headers.ratelimit).toMatch(new RegExp(`^"default";r=${5 - n};t=\\d+$`));
      }
      const sixth = await demo().app.inject({ method: 'GET', url: `${V1}/products?per_page=1`, headers: bearer('limited') });
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json()).toEqual({ error: 'Too Many Requests' });
      expect(Number(sixth.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(sixth.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(sixth.headers['ratelimit-policy']).toBe('"default";q=5;w=60');
      expect(sixth.headers.ratelimit).toMatch(/^"default";r=0;t=\d+$/);
      // Writes too: the budget is the credential's, whatever the route.
      expect((await demo().app.inject({ method: 'DELETE', url: `${V1}/comments/1`, headers: bearer('limited') })).statusCode).toBe(429);
      // Another token has its own budget (the mount's, 100 000 in the demo).
      const other = await demo().app.inject({ method: 'GET', url: `${V1}/products?per_page=1`, headers: bearer('all') });
      expect(other.statusCode).toBe(200);
      expect(other.headers['ratelimit-policy']).toBe('"default";q=100000;w=60');
    });

    it('"The health routes are exempt": no RateLimit headers, never a 429', async () => {
      for (const url of ['/api/health', '/api/health/ready']) {
        const response = await demo().app.inject({ method: 'GET', url, headers: bearer('limited') });
        expect(response.statusCode).toBe(200);
        expect(response.headers.ratelimit).toBeUndefined();
      }
    });

    it('"the upload endpoint is rate-limited by bytes too": a chunked upload (no Content-Length) spends a unit per MiB as it is read, and past the budget is 429 with nothing kept', async () => {
      const tokens = demo().tokens!;
      const made = await tokens.create({ name: 'uploads by bytes', grants: ['blog_posts:create', 'blog_posts:update'] });
      await tokens.setRateLimit(made.token.id, 5);
      const headers = { authorization: `Bearer ${made.secret}`, 'content-type': 'multipart/form-data; boundary=bytes-limit' };
      const uploads = async () => Number((await sql<{ n: string }>`select count(*) as n from panel_uploads`.execute(demo().database.db)).rows[0]!.n);
      const before = await uploads();
      // 9 MiB in 64 KiB chunks, as a stream: the request carries no Content-Length, so only the bytes read can count.
      async function* body() {
        yield Buffer.from('--bytes-limit\r\nContent-Disposition: form-data; name="file"; filename="nine.bin"\r\nContent-Type: application/octet-stream\r\n\r\n');
        for (let sent = 0; sent < 9 * 1024 * 1024; sent += 64 * 1024) yield Buffer.alloc(64 * 1024, 7);
        yield Buffer.from('\r\n--bytes-limit--\r\n');
      }
      const response = await demo().app.inject({ method: 'POST', url: '/api/uploads', headers, payload: Readable.from(body()) });
      expect(response.statusCode, response.body).toBe(429);
      expect(response.json()).toEqual({ error: 'Too Many Requests' });
      expect(response.headers['retry-after']).toBeDefined();
      expect(await uploads(), 'nothing kept').toBe(before);
      // The budget is spent: the next request of the token is refused before it is read.
      const next = await demo().app.inject({ method: 'GET', url: `${V1}/blog_posts?per_page=1`, headers: { authorization: `Bearer ${made.secret}` } });
      expect(next.statusCode).toBe(429);
      // A small chunked upload spends what its bytes weigh: one unit.
      await tokens.setRateLimit(made.token.id, 1000);
      async function* small() {
        yield Buffer.from('--bytes-limit\r\nContent-Disposition: form-data; name="file"; filename="small.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--bytes-limit--\r\n');
      }
      expect((await demo().app.inject({ method: 'POST', url: '/api/uploads', headers, payload: Readable.from(small()) })).statusCode).toBe(201);
    });

    it('a token\'s limit is editable: setRateLimit changes it for the next request, null gives the mount\'s back', async () => {
      const tokens = demo().tokens!;
      const id = (await tokens.list()).find((token) => token.name === 'reader')!.id;
      await tokens.setRateLimit(id, 2);
      const policy = (await demo().app.inject({ method: 'GET', url: `${V1}/blog_posts?per_page=1`, headers: bearer('reader') })).headers['ratelimit-policy'];
      expect(policy).toBe('"default";q=2;w=60');
      await tokens.setRateLimit(id, null);
      expect(await tokens.rateLimit(id)).toBeNull();
      await expect(tokens.setRateLimit(id, 0)).rejects.toThrow(/positive whole number/);
    });
  },
  { edition: 'B' },
);

describeOnEachDatabase(
  'Rate limits by client address',
  (demo) => {
    it('"else the client address (honouring trustProxy)": refused requests spend the address\'s budget, and X-Forwarded-For names the client behind a trusted proxy', async () => {
      const unauthenticated = (forwardedFor: string) => demo().app.inject({ method: 'GET', url: `${V1}/blog_posts`, headers: { 'x-forwarded-for': forwardedFor } });
      for (let n = 1; n <= 3; n++) expect((await unauthenticated('203.0.113.7')).statusCode).toBe(401);
      const fourth = await unauthenticated('203.0.113.7');
      expect(fourth.statusCode).toBe(429);
      expect(fourth.headers['ratelimit-policy']).toBe('"default";q=3;w=60');
      // Another client behind the same proxy has its own budget; a verified user has theirs.
      expect((await unauthenticated('203.0.113.8')).statusCode).toBe(401);
      expect((await demo().app.inject({ method: 'GET', url: `${V1}/blog_posts`, headers: { ...ADMIN, 'x-forwarded-for': '203.0.113.7' } })).statusCode).toBe(200);
      // Routes without a controller (a 404 under the mount, the OpenAPI document) spend the address's budget too.
      expect((await demo().app.inject({ method: 'GET', url: '/api/no-such-route', headers: { 'x-forwarded-for': '203.0.113.7' } })).statusCode).toBe(429);
    });
  },
  { trustProxy: true, api: { rateLimit: { max: 3, windowSeconds: 60 } } },
);

for (const kind of testDatabaseKinds()) {
  describe(`Rate limits shared by two app instances on one database [${kind}]`, () => {
    const apps: DemoApp[] = [];
    const databases: PanelDatabase[] = [];
    let schema: TestSchema | undefined;
    let storageRoot: string | undefined;
    beforeAll(async () => {
      storageRoot = await mkdtemp(join(tmpdir(), 'panel-rate-limit-storage-'));
      if (kind === 'pglite') {
        // One embedded database, opened once, under both instances.
        const database = await openTestDatabase('pglite');
        databases.push(database, database);
      } else {
        // Two connection pools to one schema: two processes as far as the database can tell.
        schema = await createTestSchema();
        for (let i = 0; i < 2; i++) databases.push(await openDatabase({ url: schema.url, schema: schema.schema, maxConnections: 4 }));
      }
      for (const database of databases) {
        const demo = await buildDemoApp({ database, storage: diskStorage({ root: storageRoot }), api: { rateLimit: { max: 4, windowSeconds: 60, store: 'database' } } });
        await demo.app.ready();
        apps.push(demo);
      }
    });
    afterAll(async () => {
      for (const demo of apps) await demo.app.close();
      for (const database of new Set(databases)) await database.close();
      await schema?.drop();
      if (storageRoot) await rm(storageRoot, { recursive: true, force: true });
    });

    it('"tested with two app instances on one database sharing one budget": 2 + 2 requests spend it, the 5th on either instance is 429', async () => {
      const [first, second] = apps as [DemoApp, DemoApp];
      const request = (demo: DemoApp) => demo.app.inject({ method: 'GET', url: `${V1}/blog_posts?per_page=1`, headers: ADMIN });
      const answers = [await request(first), await request(second), await request(first), await request(second)];
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      expect(answers.map((r) => r.headers.ratelimit)).toEqual(['r=3', 'r=2', 'r=1', 'r=0'].map((r) => expect.stringMatching(new RegExp(`^"default";${r};t=\\d+$`))));
      const fifth = await request(first);
      expect(fifth.statusCode).toBe(429);
      expect((await request(second)).statusCode).toBe(429);
      // Another credential is untouched.
      expect((await second.app.inject({ method: 'GET', url: `${V1}/blog_posts?per_page=1`, headers: { authorization: 'ApiKey demo-reader-key' } })).statusCode).toBe(200);
    });
  });
}
