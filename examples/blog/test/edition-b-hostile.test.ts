// Findings of a hostile pass over Edition B (`npm run demo:tokens`), each reproduced through real HTTP.
import { describe, expect, it } from 'vitest';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';
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

    it('the sealed key is an opaque id of the file, the same in every answer (so the record\'s ETag holds), and one altered by one character is 403', async () => {
      const first = await signedCover();
      const second = await signedCover();
      const sealed = (u: string) => u.split('/')[4]!;
      expect(sealed(second.url)).toBe(sealed(first.url));
      expect(sealed(first.url)).not.toContain(seedKey('post-6-cover'));
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

  describe('traversal answers with the target\'s rules', () => {
    it('a public controller does not open a gated resource: GET product_categories/2/products is 401 without credentials, as GET products is', async () => {
      expect((await get(`${V1}/products`)).statusCode).toBe(401);
      const response = await get(`${V1}/product_categories/2/products`);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Unauthorized' });
    });

    it('"An association key is omitted entirely when the actor has no read grant on the target": a public parent names no gated target, not even its count, for anyone', async () => {
      const anonymous = await get(`${V1}/product_categories/2`);
      expect(anonymous.statusCode).toBe(200);
      expect(anonymous.json().record).not.toHaveProperty('products');
      for (const headers of [bearer('nogrants'), bearer('all'), ADMIN]) expect((await get(`${V1}/product_categories/2`, headers)).json()).toEqual(anonymous.json());
      const list = await get(`${V1}/product_categories`);
      expect(list.json().records.some((record: object) => 'products' in record)).toBe(false);
      // Asked by name, it is a field that does not exist.
      const [named, unknown] = [await get(`${V1}/product_categories/2?fields=products`), await get(`${V1}/product_categories/2?fields=no_such`)];
      expect(named.statusCode).toBe(400);
      expect(named.json().error.replace('"products"', '"?"')).toBe(unknown.json().error.replace('"no_such"', '"?"'));
    });

    it('a token without a grant on the target, or a revoked one, gets what the target itself answers (403, 401)', async () => {
      const nogrants = await get(`${V1}/product_categories/2/products`, bearer('nogrants'));
      expect(nogrants.statusCode).toBe(403);
      expect(nogrants.json()).toEqual({ error: 'Forbidden' });
      expect((await get(`${V1}/product_categories/2/products`, bearer('revoked'))).statusCode).toBe(401);
    });

    it('"the actor needs index (or show) on the target resource": a token or key granted the target reads it through the public parent', async () => {
      const byToken = await get(`${V1}/product_categories/2/products`, bearer('all'));
      expect(byToken.statusCode).toBe(200);
      expect(byToken.json().records.length).toBeGreaterThan(0);
      expect(byToken.json().records.every((p: { product_category: { id: number } }) => p.product_category.id === 2)).toBe(true);
      // The code-hook path: the default permissions list grants products:index.
      expect((await get(`${V1}/product_categories/2/products`, ADMIN)).statusCode).toBe(200);
    });

    it('the parent\'s rules still apply to the parent: a gated parent with a public target is 401 without credentials', async () => {
      expect((await get(`${V1}/products/1`)).statusCode).toBe(401);
      expect((await get(`${V1}/blog_posts/6/comments`)).statusCode).toBe(401);
    });
  });

  describe('foreign keys to records the actor cannot read', () => {
    const NO_SUCH_POST = 424242;
    // The owner keys (blog_posts.author_id, comments.user_id, profiles.user_id) are readonly for
    // non-admin actors (the field rules), so the attack goes through a key a token may write:
    // comments.blog_post_id, with a token that has comments' grants and none on blog_posts.
    it('"writing <association>_id requires a read grant on the target": a token without a grant on blog_posts gets the same 422 for an existing post as for a missing one', async () => {
      const { secret: commentsOnly } = await demo().tokens!.create({ name: 'comments only', grants: ['comments:index', 'comments:show', 'comments:create', 'comments:update'], expiresAt: null, createdById: 1 });
      const headers = { authorization: `Bearer ${commentsOnly}` };
      expect((await get(`${V1}/blog_posts/1`, headers)).statusCode).toBe(403);
      const existing = await patch(`${V1}/comments/1`, headers, { comment: { blog_post_id: 1 } });
      const missing = await patch(`${V1}/comments/1`, headers, { comment: { blog_post_id: NO_SUCH_POST } });
      expect(existing.statusCode).toBe(422);
      expect(existing.json()).toEqual({ errors: { blog_post: ['must exist'] }, message: 'Failed to update Comment' });
      expect(existing.body).toBe(missing.body);
    });

    it('a token with a read grant on the target assigns it (the grant matrix is authoritative on the token path)', async () => {
      const response = await patch(`${V1}/comments/1`, bearer('all'), { comment: { blog_post_id: 2 } });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().record.blog_post.id).toBe(2);
    });
  });
}, { edition: 'B' });
