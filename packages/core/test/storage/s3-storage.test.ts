import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobChecksum, isPanelError, newBlobKey, s3Storage, type S3StorageOptions } from '@panel/core';
import { Readable } from 'node:stream';
import { startS3Server, startTcpFaultProxy, type TestS3Server } from '@panel/test-support';
import { describeStorageContract, readAll } from './storage-contract.js';

const optionsOf = (server: TestS3Server): S3StorageOptions => ({
  endpoint: server.endpoint,
  bucket: server.bucket,
  region: server.region,
  accessKeyId: server.accessKeyId,
  secretAccessKey: server.secretAccessKey,
  forcePathStyle: true,
});

// Against a real S3-compatible server (s3rver) on 127.0.0.1, started from the repository's own
// dev dependencies, never a mock.
describeStorageContract('s3 (s3rver on 127.0.0.1)', async () => {
  const server = await startS3Server();
  return { storage: s3Storage(optionsOf(server)), close: () => server.close() };
});

describe('s3Storage', () => {
  let server: TestS3Server | undefined;
  beforeAll(async () => {
    server = await startS3Server();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('stores the object under its key in the bucket, with its content type, for any S3 client to read', async () => {
    const storage = s3Storage(optionsOf(server!));
    const key = newBlobKey();
    const bytes = Buffer.from('%PDF-1.4 not really');
    await storage.upload({ key, body: bytes, contentType: 'application/pdf', checksum: blobChecksum(bytes) });
    expect(storage.objectUrl(key).href).toBe(`${server!.endpoint}/${server!.bucket}/${key}`);
    expect((await readAll(await storage.download(key))).toString()).toBe('%PDF-1.4 not really');
  });

  it('presigns a direct upload: a PUT of exactly those bytes with exactly those headers stores them, without the app in between', async () => {
    const storage = s3Storage(optionsOf(server!));
    const key = newBlobKey();
    const bytes = Buffer.from('\x89PNG\r\n\x1a\n direct');
    const target = storage.directUpload!({ key, contentType: 'image/png', checksum: blobChecksum(bytes), byteSize: bytes.length, expiresInSeconds: 600 });
    expect(new URL(target.url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-md5;content-type;host');
    const response = await fetch(target.url, { method: 'PUT', headers: target.headers, body: bytes });
    expect(response.status).toBe(200);
    expect(Buffer.compare(await readAll(await storage.download(key)), bytes)).toBe(0);
  });

  it('puts the bucket in the host name unless forcePathStyle is set', () => {
    const storage = s3Storage({ bucket: 'files', region: 'eu-west-1', accessKeyId: 'a', secretAccessKey: 'b' });
    expect(storage.objectUrl('0123456789abcdef').href).toBe('https://files.s3.eu-west-1.amazonaws.com/0123456789abcdef');
  });

  it('turns a refused request into StorageError naming the status and the S3 error code', async () => {
    const storage = s3Storage({ ...optionsOf(server!), accessKeyId: 'NOT-A-KEY' });
    const bytes = Buffer.from('x');
    const error = await storage.upload({ key: newBlobKey(), body: bytes, contentType: 'text/plain', checksum: blobChecksum(bytes) }).then(() => undefined, (e: unknown) => e);
    expect(isPanelError(error, 'PANEL_ERR_STORAGE')).toBe(true);
    expect((error as Error).message).toMatch(/answered 403 InvalidAccessKeyId/);
  });

  it('turns an unreachable store into StorageError', async () => {
    const storage = s3Storage({ ...optionsOf(server!), endpoint: 'http://127.0.0.1:9' });
    await expect(storage.exists(newBlobKey())).rejects.toMatchObject({ code: 'PANEL_ERR_STORAGE' });
  });

  // The rule: "A failing dependency gets a clean 503 and the service recovers by itself; nothing
  // waits without a timeout." A frozen store (the traffic held, nothing closed) must fail each
  // request within `timeoutMillis` as unavailable (the API's 503), never hold it for fetch's
  // five minutes; once the store answers again, the same service works.
  it('"nothing waits without a timeout": a frozen store fails upload, download, exists and delete within timeoutMillis as unavailable, and works again once it answers', async () => {
    const target = new URL(server!.endpoint);
    const proxy = await startTcpFaultProxy({ host: target.hostname, port: Number(target.port) });
    try {
      const storage = s3Storage({ ...optionsOf(server!), endpoint: `http://${proxy.address}`, timeoutMillis: 500 });
      const bytes = Buffer.from('frozen store');
      const stored = newBlobKey();
      await storage.upload({ key: stored, body: bytes, contentType: 'text/plain', checksum: blobChecksum(bytes) });
      await proxy.stall();
      const attempts: [string, () => Promise<unknown>][] = [
        ['upload', () => storage.upload({ key: newBlobKey(), body: bytes, contentType: 'text/plain', checksum: blobChecksum(bytes) })],
        ['streamed upload', () => storage.upload({ key: newBlobKey(), body: Readable.from([bytes]), byteSize: bytes.length, contentType: 'text/plain', checksum: blobChecksum(bytes) })],
        ['download', async () => readAll(await storage.download(stored))],
        ['exists', () => storage.exists(stored)],
        ['delete', () => storage.delete(newBlobKey())],
      ];
      for (const [name, attempt] of attempts) {
        const started = performance.now();
        const error = await Promise.race([attempt().then(() => 'answered', (e: unknown) => e), new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5_000))]);
        expect(isPanelError(error, 'PANEL_ERR_STORAGE'), `${name}: ${String(error)}`).toBe(true);
        expect((error as { reason?: unknown }).reason, name).toBe('unavailable');
        expect(performance.now() - started, name).toBeLessThan(3_000);
      }
      await proxy.heal();
      expect((await readAll(await storage.download(stored))).toString()).toBe('frozen store');
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('a download that stops midway fails within timeoutMillis instead of waiting for the rest', async () => {
    const target = new URL(server!.endpoint);
    const proxy = await startTcpFaultProxy({ host: target.hostname, port: Number(target.port) });
    try {
      const storage = s3Storage({ ...optionsOf(server!), endpoint: `http://${proxy.address}`, timeoutMillis: 500 });
      const bytes = Buffer.alloc(4 * 1024 * 1024, 7);
      const key = newBlobKey();
      await storage.upload({ key, body: bytes, contentType: 'application/octet-stream', checksum: blobChecksum(bytes) });
      const stream = await storage.download(key);
      const first = await new Promise<Buffer>((resolve) => stream.once('data', resolve));
      stream.pause();
      await proxy.stall();
      stream.resume();
      const started = performance.now();
      const outcome = await Promise.race([
        new Promise((resolve) => {
          stream.on('error', resolve);
          stream.on('end', () => resolve('ended'));
        }),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5_000)),
      ]);
      expect(first.length).toBeGreaterThan(0);
      expect(outcome).toBeInstanceOf(Error);
      expect(performance.now() - started).toBeLessThan(3_000);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('refuses a timeoutMillis that is not a positive whole number of milliseconds, naming the option and the fix', () => {
    for (const timeoutMillis of [0, -1, 1.5, Number.NaN]) {
      expect(() => s3Storage({ ...optionsOf(server!), timeoutMillis })).toThrow(/s3Storage: timeoutMillis must be a positive whole number of milliseconds, instead got .*Fix: leave it out for 10000/);
    }
  });

  it('refuses missing options at startup, naming the option and the fix', () => {
    expect(() => s3Storage({ ...optionsOf(server!), bucket: '' })).toThrow(/s3Storage: bucket is required.*Fix: pass s3Storage\(/);
    expect(() => s3Storage({ ...optionsOf(server!), endpoint: 'not a url' })).toThrow(/endpoint must be a URL/);
  });
});
