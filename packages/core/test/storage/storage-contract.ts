import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobChecksum, isPanelError, newBlobKey, type StorageService } from '@panel/core';

/** A storage service under test, and how to clean up after it. */
export interface StorageUnderTest {
  readonly storage: StorageService;
  close(): Promise<void>;
}

/** Reads a stream to its end. */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

const upload = (storage: StorageService, key: string, bytes: Uint8Array, contentType = 'application/octet-stream') =>
  storage.upload({ key, body: bytes, contentType, checksum: blobChecksum(bytes) });

/** Every byte value, then a pattern: bytes that a text conversion anywhere would damage. */
const BINARY = Buffer.from([...Array.from({ length: 256 }, (_, i) => i), 0xef, 0xbb, 0xbf, 0x0d, 0x0a, 0x00]);

/**
 * The one contract every storage service passes (Hono's `common.case.test.ts`, Kysely's
 * dialect suite): run it with a factory that opens the service. Adding a service means
 * adding one call of this function.
 */
export function describeStorageContract(name: string, open: () => Promise<StorageUnderTest>): void {
  describe(`the storage contract [${name}]`, () => {
    let opened: StorageUnderTest | undefined;
    beforeAll(async () => {
      opened = await open();
    });
    afterAll(async () => {
      await opened?.close();
    });
    const storage = () => {
      if (!opened) throw new Error(`the ${name} storage service did not open`);
      return opened.storage;
    };

    it('gives back exactly the bytes it was given, every byte value included', async () => {
      const key = newBlobKey();
      await upload(storage(), key, BINARY);
      expect(Buffer.compare(await readAll(await storage().download(key)), BINARY)).toBe(0);
    });

    it('streams a larger file (3 MiB) back whole', async () => {
      const key = newBlobKey();
      const big = Buffer.alloc(3 * 1024 * 1024);
      for (let i = 0; i < big.length; i += 1) big[i] = (i * 7 + (i >> 10)) & 0xff;
      await upload(storage(), key, big);
      const stream = await storage().download(key);
      let chunks = 0;
      const hash = createHash('sha256');
      for await (const chunk of stream) {
        chunks += 1;
        hash.update(chunk as Uint8Array);
      }
      expect(hash.digest('hex')).toBe(createHash('sha256').update(big).digest('hex'));
      expect(chunks, 'the download comes in several chunks, not one buffer').toBeGreaterThan(1);
    });

    it('stores an empty file', async () => {
      const key = newBlobKey();
      await upload(storage(), key, new Uint8Array(0));
      expect(await storage().exists(key)).toBe(true);
      expect((await readAll(await storage().download(key))).length).toBe(0);
    });

    it('tells whether a key holds bytes: not before the upload, yes after, not after the delete', async () => {
      const key = newBlobKey();
      expect(await storage().exists(key)).toBe(false);
      await upload(storage(), key, Buffer.from('hello'));
      expect(await storage().exists(key)).toBe(true);
      await storage().delete(key);
      expect(await storage().exists(key)).toBe(false);
    });

    it('answers a download of a key that holds nothing with FileNotFoundError (PANEL_ERR_FILE_NOT_FOUND)', async () => {
      const key = newBlobKey();
      const error = await storage().download(key).then(() => undefined, (e: unknown) => e);
      expect(isPanelError(error, 'PANEL_ERR_FILE_NOT_FOUND'), String(error)).toBe(true);
      expect((error as { key: string }).key).toBe(key);
    });

    it('deletes a key that holds nothing without an error, and deletes one key only', async () => {
      const [kept, deleted] = [newBlobKey(), newBlobKey()];
      await storage().delete(newBlobKey());
      await upload(storage(), kept, Buffer.from('kept'));
      await upload(storage(), deleted, Buffer.from('deleted'));
      await storage().delete(deleted);
      await storage().delete(deleted);
      expect((await readAll(await storage().download(kept))).toString()).toBe('kept');
      expect(await storage().exists(deleted)).toBe(false);
    });

    it('replaces the bytes of a key uploaded twice', async () => {
      const key = newBlobKey();
      await upload(storage(), key, Buffer.from('first version, longer'));
      await upload(storage(), key, Buffer.from('second'));
      expect((await readAll(await storage().download(key))).toString()).toBe('second');
    });

    it('refuses bytes that do not match their checksum with StorageError (PANEL_ERR_STORAGE), and stores nothing', async () => {
      const key = newBlobKey();
      const error = await storage()
        .upload({ key, body: Buffer.from('damaged'), contentType: 'text/plain', checksum: blobChecksum(Buffer.from('original')) })
        .then(() => undefined, (e: unknown) => e);
      expect(isPanelError(error, 'PANEL_ERR_STORAGE'), String(error)).toBe(true);
      expect(await storage().exists(key)).toBe(false);
    });

    it('refuses a key that is not 16 to 64 lower-case letters and digits (so no key can climb out of its folder or bucket)', async () => {
      for (const key of ['../../etc/passwd', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'short', 'a/b/cdefghijklmnopqrstuvwxyz', '']) {
        await expect(storage().download(key), key).rejects.toThrow(TypeError);
        await expect(storage().exists(key), key).rejects.toThrow(TypeError);
        await expect(storage().delete(key), key).rejects.toThrow(TypeError);
        await expect(upload(storage(), key, Buffer.from('x')), key).rejects.toThrow(TypeError);
      }
    });

    it('stores a streamed body (an upload received from a client: read once, never whole in memory) with its byteSize', async () => {
      const key = newBlobKey();
      const chunks = Array.from({ length: 40 }, (_, i) => Buffer.alloc(64 * 1024, i));
      const whole = Buffer.concat(chunks);
      await storage().upload({ key, body: Readable.from(chunks), byteSize: whole.length, contentType: 'application/octet-stream', checksum: blobChecksum(whole) });
      expect(Buffer.compare(await readAll(await storage().download(key)), whole)).toBe(0);
    });

    it('refuses a streamed body that does not match its checksum, and stores nothing', async () => {
      const key = newBlobKey();
      const error = await storage()
        .upload({ key, body: Readable.from([Buffer.from('damaged')]), byteSize: 7, contentType: 'text/plain', checksum: blobChecksum(Buffer.from('origina')) })
        .then(() => undefined, (e: unknown) => e);
      expect(error, 'the upload is refused').toBeDefined();
      expect(await storage().exists(key)).toBe(false);
    });

    it('keeps many keys apart when they are written at once', async () => {
      const files = Array.from({ length: 12 }, (_, i) => ({ key: newBlobKey(), bytes: Buffer.from(`file number ${i}`) }));
      await Promise.all(files.map(({ key, bytes }) => upload(storage(), key, bytes)));
      for (const { key, bytes } of files) expect((await readAll(await storage().download(key))).toString()).toBe(bytes.toString());
    });
  });
}
