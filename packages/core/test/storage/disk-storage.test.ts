import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blobChecksum, diskStorage, isPanelError, newBlobKey } from '@panel/core';
import { describeStorageContract } from './storage-contract.js';

describeStorageContract('disk', async () => {
  const root = await mkdtemp(join(tmpdir(), 'panel-disk-storage-'));
  return { storage: diskStorage({ root }), close: () => rm(root, { recursive: true, force: true }) };
});

describe('diskStorage', () => {
  const roots: string[] = [];
  afterAll(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));
  const open = async () => {
    const root = await mkdtemp(join(tmpdir(), 'panel-disk-storage-'));
    roots.push(root);
    return { root, storage: diskStorage({ root }) };
  };

  it("spreads files over two levels of folders by the key's first four characters, as Active Storage does", async () => {
    const { root, storage } = await open();
    const key = newBlobKey();
    const bytes = Buffer.from('abc');
    await storage.upload({ key, body: bytes, contentType: 'text/plain', checksum: blobChecksum(bytes) });
    expect((await stat(join(root, key.slice(0, 2), key.slice(2, 4), key))).size).toBe(3);
  });

  it('leaves no temporary file behind, after a success or a refused upload', async () => {
    const { root, storage } = await open();
    const key = newBlobKey();
    const bytes = Buffer.from('abc');
    await storage.upload({ key, body: bytes, contentType: 'text/plain', checksum: blobChecksum(bytes) });
    await storage.upload({ key, body: bytes, contentType: 'text/plain', checksum: blobChecksum(Buffer.from('x')) }).catch(() => undefined);
    expect(await readdir(join(root, key.slice(0, 2), key.slice(2, 4)))).toEqual([key]);
  });

  // The rule: "A failing dependency gets a clean 503". A disk that cannot take or give bytes now
  // (full, read-only, failing, its folder gone from under the app: here the root is a file, as
  // when a volume is not mounted and something else took its place) is the storage being
  // unavailable, `StorageError` with reason `unavailable` (the API's 503), not a raw fs error
  // answered as a bug (500); the code stays in the cause for the operator.
  it('a folder it cannot write or read (ENOTDIR; likewise ENOSPC, EROFS, EIO, EACCES…) is StorageError, reason unavailable, with the fs error as its cause', async () => {
    const { root } = await open();
    const file = join(root, 'not-a-folder');
    await writeFile(file, 'x');
    const storage = diskStorage({ root: file });
    const bytes = Buffer.from('abc');
    const key = newBlobKey();
    for (const [name, attempt] of [
      ['upload', () => storage.upload({ key, body: bytes, contentType: 'text/plain', checksum: blobChecksum(bytes) })],
      ['download', () => storage.download(key)],
      ['exists', () => storage.exists(key)],
    ] as const) {
      const error = await (attempt as () => Promise<unknown>)().then(() => 'answered', (e: unknown) => e);
      expect(isPanelError(error, 'PANEL_ERR_STORAGE'), `${name}: ${String(error)}`).toBe(true);
      expect((error as { reason?: unknown }).reason, name).toBe('unavailable');
      expect((error as { cause?: { code?: unknown } }).cause?.code, name).toBe('ENOTDIR');
    }
  });

  it('resolves a relative root against the current directory, and refuses a missing one naming the fix', () => {
    expect(diskStorage({ root: 'storage' }).root).toBe(join(process.cwd(), 'storage'));
    expect(() => diskStorage({ root: '' })).toThrow(/diskStorage: root must be the path of a folder.*Fix: pass diskStorage\(\{ root \}\)/);
  });
});
