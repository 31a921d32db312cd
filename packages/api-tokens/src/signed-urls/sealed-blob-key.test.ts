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

  it('draws a nonce no seal has used, across refills of the nonce pool (600 seals), and every one opens', () => {
    const seals = Array.from({ length: 600 }, () => sealBlobKey(key, blobKey));
    const nonces = new Set(seals.map((sealed) => Buffer.from(sealed, 'base64url').subarray(0, 12).toString('hex')));
    expect(nonces.size).toBe(600);
    for (const sealed of seals) expect(openBlobKey(key, sealed)).toBe(blobKey);
  });
});
