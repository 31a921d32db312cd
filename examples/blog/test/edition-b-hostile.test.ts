// Findings of a hostile pass over Edition B (`npm run demo:tokens`), each reproduced through real HTTP.
import { describe, expect, it } from 'vitest';
import { describeOnEachDatabase } from './demo-app-support.js';
import { seedKey } from '../db/seed-files.js';

const V1 = '/api/resources/v1';
/** Post 6's cover at its permanent URL (what code-hook actors get). */
const PERMANENT_COVER = `/panel/attachments/${seedKey('post-6-cover')}/cover-06.png`;

describeOnEachDatabase('Edition B under attack', (demo) => {
  const secret = (name: string) => demo().tokenSecrets!.get(name)!;
  const bearer = (name: string) => ({ authorization: `Bearer ${secret(name)}` });
  const get = (url: string, headers: Record<string, string> = {}) => demo().app.inject({ method: 'GET', url, headers });
  const patch = (url: string, headers: Record<string, string>, payload: unknown) =>
    demo().app.inject({ method: 'PATCH', url, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
  const signedCover = async () => (await get(`${V1}/blog_posts/6`, bearer('all'))).json().record.cover as { url: string };

  describe('signed file URLs', () => {
    it('"for token actors, file url values are signed and expiring": the answer is never cached (Cache-Control: private, no-store), so no shared cache serves it after expiry', async () => {
      const { url } = await signedCover();
      for (const method of ['GET', 'HEAD'] as const) {
        const served = await demo().app.inject({ method, url });
        expect(served.statusCode, method).toBe(200);
        expect(served.headers['cache-control'], method).toBe('private, no-store');
      }
      // The standard URL keeps its year-long immutable caching: its key never serves other bytes.
      expect((await get(PERMANENT_COVER)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    });

    it('a signed URL does not disclose the permanent one: removing /signed opens nothing, and the blob key appears nowhere in it', async () => {
      const { url } = await signedCover();
      expect((await get(PERMANENT_COVER)).statusCode).toBe(200);
      expect(url).not.toContain(seedKey('post-6-cover'));
      expect((await get(url.replace('/signed/', '/').replace(/\?.*$/, ''))).statusCode).toBe(404);
    });

    it('each signed URL seals the key anew, and a sealed key altered by one character is 403', async () => {
      const first = await signedCover();
      const second = await signedCover();
      const sealed = (u: string) => u.split('/')[4]!;
      expect(sealed(first.url)).not.toBe(sealed(second.url));
      const flipped = first.url.replace(`/${sealed(first.url)}/`, `/${sealed(first.url).slice(0, -1)}${sealed(first.url).endsWith('A') ? 'B' : 'A'}/`);
      const response = await get(flipped);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: 'Forbidden' });
    });

    it('"expires" is accepted only in its canonical form: leading zeros are 403', async () => {
      const { url } = await signedCover();
      expect((await get(url)).statusCode).toBe(200);
      const padded = await get(url.replace(/expires=(\d+)/, 'expires=0$1'));
      expect(padded.statusCode).toBe(403);
      expect(padded.json()).toEqual({ error: 'Forbidden' });
    });
  });
}, { edition: 'B' });
