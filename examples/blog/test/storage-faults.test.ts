// The rule: "A failing dependency gets a clean 503 and the service recovers by itself; nothing
// waits without a timeout." The dependency here is the object store (`s3Storage`), frozen the way
// a hung store or a black-holed route freezes it: the traffic stops, nothing closes (the fault
// proxy of the database suites, in front of the suite's S3-compatible server). Each request that
// needs the store answers 503 with `Retry-After` within the store's `timeoutMillis`, never hangs
// until the socket's 90 s timeout cuts it without an answer; a delete whose bytes cannot be
// purged still answers (the rows are gone, docs/files.md); once the store answers, uploads work.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskStorage, s3Storage } from '@panel/core';
import { openTestDatabase, startS3Server, startTcpFaultProxy, testDatabaseKinds, type TcpFaultProxy, type TestS3Server } from '@panel/test-support';
import { buildDemoApp, type DemoApp } from '../src/build-app.js';
import { solidPng } from '../db/seed-files.js';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

/** The store's bound in this suite (the default is 10 s). */
const TIMEOUT_MILLIS = 500;
/** What a loaded machine adds to it. */
const SLACK_MILLIS = 2_500;

/** A multipart/form-data body with one file part named `file`. */
function multipart(bytes: Buffer): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----panel-storage-faults-boundary';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cover.png"\r\nContent-Type: image/png\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

for (const kind of testDatabaseKinds()) {
  describe(`the demo on a frozen object store [${kind}]`, () => {
    let s3: TestS3Server | undefined;
    let proxy: TcpFaultProxy | undefined;
    let demo: DemoApp | undefined;
    beforeAll(async () => {
      s3 = await startS3Server();
      const target = new URL(s3.endpoint);
      proxy = await startTcpFaultProxy({ host: target.hostname, port: Number(target.port) });
      const storage = s3Storage({ bucket: s3.bucket, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, endpoint: `http://${proxy.address}`, forcePathStyle: true, timeoutMillis: TIMEOUT_MILLIS });
      demo = await buildDemoApp({ storage, database: kind === 'pglite' ? {} : await openTestDatabase(kind) });
      await demo.app.ready();
    });
    afterAll(async () => {
      await proxy?.heal();
      await demo?.app.close();
      await demo?.database.close();
      await proxy?.close();
      await s3?.close();
    });

    const upload = () => {
      const body = multipart(solidPng(4, 4, [9, 9, 9]));
      return demo!.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...ADMIN, ...body.headers } });
    };
    const timed = async <T>(work: () => Promise<T>) => {
      const started = performance.now();
      const answer = await Promise.race([work(), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 15_000))]);
      return { answer, millis: performance.now() - started };
    };
    const blobCount = async () => Number((await sql<{ count: string }>`select count(*) as count from panel_blobs`.execute(demo!.database.db)).rows[0]!.count);

    it('"a clean 503 … nothing waits without a timeout": an upload, an attachment URL and a delete answer within the store\'s timeout while it is frozen, and uploads work again once it answers', async () => {
      const first = await upload();
      expect(first.statusCode, first.body).toBe(201);
      const created = await demo!.app.inject({ method: 'POST', url: '/api/resources/v1/blog_posts', headers: { ...ADMIN, 'content-type': 'application/json' }, payload: { blog_post: { title: 'On a frozen store', author_id: 1, cover: first.json().upload.id } } });
      expect(created.statusCode, created.body).toBe(201);
      const { id, cover } = created.json().record as { id: number; cover: { url: string } };
      const blobsBefore = await blobCount();

      await proxy!.stall();
      const refused = await timed(upload);
      expect(refused.answer, 'the upload was still waiting after 15 s').toBeDefined();
      expect(refused.answer!.statusCode).toBe(503);
      expect(refused.answer!.json()).toEqual({ error: 'Service Unavailable' });
      expect(refused.answer!.headers['retry-after']).toBe('5');
      expect(refused.millis).toBeLessThan(TIMEOUT_MILLIS + SLACK_MILLIS);
      // Bad luck loses nothing and leaves nothing: no blob row for bytes that were never stored.
      expect(await blobCount()).toBe(blobsBefore);

      const file = await timed(() => demo!.app.inject({ method: 'GET', url: cover.url }));
      expect(file.answer, 'the attachment URL was still waiting after 15 s').toBeDefined();
      expect(file.answer!.statusCode).toBe(503);
      expect(file.answer!.headers['retry-after']).toBe('5');
      expect(file.millis).toBeLessThan(TIMEOUT_MILLIS + SLACK_MILLIS);

      // The rows go in the delete's transaction; the bytes after it commits, and a purge that fails leaves them over (docs/files.md).
      const deleted = await timed(() => demo!.app.inject({ method: 'DELETE', url: `/api/resources/v1/blog_posts/${id}`, headers: ADMIN }));
      expect(deleted.answer, 'the delete was still waiting after 15 s').toBeDefined();
      expect(deleted.answer!.statusCode, deleted.answer!.body).toBe(200);
      expect(deleted.millis).toBeLessThan(TIMEOUT_MILLIS + SLACK_MILLIS);

      await proxy!.heal();
      const again = await upload();
      expect(again.statusCode, again.body).toBe(201);
    }, 60_000);
  });
}

// The same rule on the default storage: a disk that cannot take or give bytes (full, read-only,
// failing, or, as here, its folder gone from under the running app and a file in its place)
// answered 500, logged as a bug. It is the storage being unavailable: 503 with `Retry-After`.
const diskRoot = mkdtempSync(join(tmpdir(), 'panel-storage-faults-'));
afterAll(() => rmSync(diskRoot, { recursive: true, force: true }));

describeOnEachDatabase(
  'the demo on a disk it cannot use',
  (demo) => {
    it('"a clean 503": an upload and an attachment URL answer 503 with Retry-After, never a 500', async () => {
      const body = multipart(solidPng(4, 4, [9, 9, 9]));
      const stored = await demo().app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...ADMIN, ...body.headers } });
      expect(stored.statusCode, stored.body).toBe(201);
      const blob = (await sql<{ key: string; filename: string }>`select key, filename from panel_blobs order by id desc limit 1`.execute(demo().database.db)).rows[0]!;
      // The folder goes from under the app, and a file takes its place.
      rmSync(diskRoot, { recursive: true, force: true });
      writeFileSync(diskRoot, 'not a folder');
      try {
        const refused = await demo().app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...ADMIN, ...body.headers } });
        expect(refused.statusCode).toBe(503);
        expect(refused.json()).toEqual({ error: 'Service Unavailable' });
        expect(refused.headers['retry-after']).toBe('5');
        const file = await demo().app.inject({ method: 'GET', url: `/panel/attachments/${blob.key}/${encodeURIComponent(blob.filename)}` });
        expect(file.statusCode).toBe(503);
        expect(file.headers['retry-after']).toBe('5');
      } finally {
        rmSync(diskRoot, { force: true });
        mkdirSync(diskRoot);
      }
      // Back: the service recovers by itself.
      expect((await demo().app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...ADMIN, ...body.headers } })).statusCode).toBe(201);
    });
  },
  { storage: diskStorage({ root: diskRoot }) },
);
