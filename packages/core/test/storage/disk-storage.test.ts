import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blobChecksum, diskStorage, newBlobKey } from '@panel/core';
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

  it('resolves a relative root against the current directory, and refuses a missing one naming the fix', () => {
    expect(diskStorage({ root: 'storage' }).root).toBe(join(process.cwd(), 'storage'));
    expect(() => diskStorage({ root: '' })).toThrow(/diskStorage: root must be the path of a folder.*Fix: pass diskStorage\(\{ root \}\)/);
  });
});
