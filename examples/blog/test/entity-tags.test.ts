// ETags hash exactly the bytes of the answer: only a signed file URL's rotating query is left out, where the URL is signed, never by a pattern over other text.
import { expect, it } from 'vitest';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';
const JSON_TYPE = { 'content-type': 'application/json' };

describeOnEachDatabase('ETags over the answer\'s bytes (Edition A)', (demo) => {
  const get = (url: string, headers: Record<string, string> = {}) => demo().app.inject({ method: 'GET', url, headers: { ...ADMIN, ...headers } });
  const patch = (url: string, payload: unknown, headers: Record<string, string> = {}) => demo().app.inject({ method: 'PATCH', url, headers: { ...ADMIN, ...JSON_TYPE, ...headers }, payload: JSON.stringify(payload) });

  it('"The ETag changes exactly when the answer\'s content changes": a text that only looks like a signed URL\'s query is content (a stale client gets the 200, a stale If-Match the 412)', async () => {
    const created = await demo().app.inject({ method: 'POST', url: `${V1}/blog_posts`, headers: { ...ADMIN, ...JSON_TYPE }, payload: JSON.stringify({ blog_post: { title: 'Signed-looking summary', author_id: 1, summary: 'x?expires=1&signature=a' } }) });
    expect(created.statusCode).toBe(201);
    const url = `${V1}/blog_posts/${created.json().record.id}`;
    const before = await get(url);
    expect(before.json().record.summary).toBe('x?expires=1&signature=a');
    expect((await patch(url, { blog_post: { summary: 'x?expires=2&signature=b' } })).statusCode).toBe(200);
    const after = await get(url);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const stale = await get(url, { 'if-none-match': before.headers.etag as string });
    expect(stale.statusCode).toBe(200);
    expect(stale.json().record.summary).toBe('x?expires=2&signature=b');
    // The lost update: a client that read the first summary may not overwrite the second.
    const overwrite = await patch(url, { blog_post: { summary: 'stale client' } }, { 'if-match': before.headers.etag as string });
    expect(overwrite.statusCode).toBe(412);
    expect((await get(url)).json().record.summary).toBe('x?expires=2&signature=b');
    // The index page holding the record changes its ETag too (the title is on the index view, the summary is not).
    const page = `${V1}/blog_posts?filter[id]=${created.json().record.id}`;
    expect((await patch(url, { blog_post: { title: 't?expires=1&signature=a' } })).statusCode).toBe(200);
    const pageBefore = await get(page);
    expect((await patch(url, { blog_post: { title: 't?expires=2&signature=b' } })).statusCode).toBe(200);
    expect((await get(page)).headers.etag).not.toBe(pageBefore.headers.etag);
    expect((await get(page, { 'if-none-match': pageBefore.headers.etag as string })).statusCode).toBe(200);
  });

  it('a key_value key that ends like a signed URL\'s query: the ETag of the answer is the one If-Match holds against (it answered 412 forever)', async () => {
    const created = await demo().app.inject({ method: 'POST', url: `${V1}/products`, headers: { ...ADMIN, ...JSON_TYPE }, payload: JSON.stringify({ product: { name: 'Signed-looking specs', price: 1, specs: { 'size?expires=1&signature=a': 'large' } } }) });
    expect(created.statusCode).toBe(201);
    const url = `${V1}/products/${created.json().record.id}`;
    const read = await get(url);
    expect(read.headers.etag).toBe(created.headers.etag);
    const updated = await patch(url, { product: { name: 'Signed-looking specs, renamed' } }, { 'if-match': read.headers.etag as string });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().record.specs).toEqual({ 'size?expires=1&signature=a': 'large' });
  });
});

describeOnEachDatabase('ETags over the answer\'s bytes (Edition B: signed file URLs)', (demo) => {
  const bearer = () => ({ authorization: `Bearer ${demo().tokenSecrets!.get('all')!}` });
  const get = (url: string, headers: Record<string, string> = {}) => demo().app.inject({ method: 'GET', url, headers: { ...bearer(), ...headers } });

  it('a token\'s If-Match holds against the ETag of a record whose file URL is signed again on every answer (the signature is left out where it is made)', async () => {
    const first = await get(`${V1}/blog_posts/6`);
    expect((first.json().record.cover as { url: string }).url).toMatch(/\?expires=\d+&signature=/);
    const updated = await demo().app.inject({ method: 'PATCH', url: `${V1}/blog_posts/6`, headers: { ...bearer(), ...JSON_TYPE, 'if-match': first.headers.etag as string }, payload: JSON.stringify({ blog_post: { summary: 'kept while the cover is signed again' } }) });
    expect(updated.statusCode).toBe(200);
    expect((await get(`${V1}/blog_posts/6`, { 'if-none-match': updated.headers.etag as string })).statusCode).toBe(304);
  });

  it('"HEAD works wherever GET does": a HEAD of a traversal whose If-None-Match matches answers 304 like GET, no body (it answered 500)', async () => {
    const url = `${V1}/blog_posts/6/comments`;
    const tag = (await get(url)).headers.etag as string;
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{24}"$/);
    expect((await get(url, { 'if-none-match': tag })).statusCode).toBe(304);
    const head = await demo().app.inject({ method: 'HEAD', url, headers: { ...bearer(), 'if-none-match': tag } });
    expect(head.statusCode).toBe(304);
    expect(head.body).toBe('');
    expect(head.headers.etag).toBe(tag);
    expect(head.headers['content-type']).toBeUndefined();
  });

  it('a token\'s answer with text that only looks like a signed query is hashed as it is: its ETag changes with that text', async () => {
    const url = `${V1}/blog_posts/6`;
    const edit = (summary: string) => demo().app.inject({ method: 'PATCH', url, headers: { ...bearer(), ...JSON_TYPE }, payload: JSON.stringify({ blog_post: { summary } }) });
    expect((await edit('y?expires=1&signature=a')).statusCode).toBe(200);
    const before = await get(url);
    expect((await edit('y?expires=2&signature=b')).statusCode).toBe(200);
    const after = await get(url);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await get(url, { 'if-none-match': before.headers.etag as string })).statusCode).toBe(200);
  });
}, { edition: 'B' });
