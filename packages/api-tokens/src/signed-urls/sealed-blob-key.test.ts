import { describe, expect, it } from 'vitest';
import { openBlobKey, sealBlobKey } from './sealed-blob-key.js';
import { signingKey } from './signed-file-url.js';

describe('sealed blob keys (a signed URL must not disclose the permanent one)', () => {
  const key = signingKey('p'.repeat(32));
  const blobKey = 'a'.repeat(64);

  it('opens what it sealed, and the sealed form contains nothing of the key', () => {
    const sealed = sealBlobKey(key, blobKey);
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('aaaa');
    expect(openBlobKey(key, sealed)).toBe(blobKey);
  });

  it('refuses an altered value, another pepper\'s, and garbage, without throwing', () => {
    const sealed = sealBlobKey(key, blobKey);
    const flipped = `${sealed.slice(0, 5)}${sealed[5] === 'A' ? 'B' : 'A'}${sealed.slice(6)}`;
    for (const bad of [flipped, sealBlobKey(signingKey('q'.repeat(32)), blobKey), '', 'x', '%%%', 'A'.repeat(300)]) expect(openBlobKey(key, bad), bad).toBeUndefined();
  });

  it('never uses one nonce for two different blob keys (600 keys, 600 nonces), and every seal opens', () => {
    const blobKeys = Array.from({ length: 600 }, (_, i) => `${i}`.padStart(64, 'b'));
    const seals = blobKeys.map((k) => sealBlobKey(key, k));
    const nonces = new Set(seals.map((sealed) => Buffer.from(sealed, 'base64url').subarray(0, 12).toString('hex')));
    expect(nonces.size).toBe(600);
    for (const [i, sealed] of seals.entries()) expect(openBlobKey(key, sealed)).toBe(blobKeys[i]);
  });

  it('"a file\'s signed URL keeps the same path from one answer to the next and in every process that shares the pepper": the same key and pepper seal alike, past the kept seals too', () => {
    const sealed = sealBlobKey(key, blobKey);
    expect(sealBlobKey(key, blobKey)).toBe(sealed);
    // Another Buffer of the same pepper (another process, or the key derived again) seals alike.
    expect(sealBlobKey(signingKey('p'.repeat(32)), blobKey)).toBe(sealed);
    // More seals than a signing key keeps: the first is dropped, sealed again, and comes out the same.
    for (let i = 0; i < 9_000; i += 1) sealBlobKey(key, `${i}`.padStart(64, 'c'));
    expect(sealBlobKey(key, blobKey)).toBe(sealed);
    expect(sealBlobKey(signingKey('q'.repeat(32)), blobKey)).not.toBe(sealed);
  });
});
