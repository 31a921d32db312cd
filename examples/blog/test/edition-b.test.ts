// Edition B through real HTTP on the demo (`buildDemoApp({ edition: 'B' })`, what `npm run demo:tokens` serves).
import { expect, it } from 'vitest';
import { countQueries } from '@panel/test-support';
import { ADMIN, READER, describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';
const NO_SUCH_POST = 424242;

describeOnEachDatabase('Edition B', (demo) => {
  const secret = (name: string) => demo().tokenSecrets!.get(name)!;
  const bearer = (name: string) => ({ authorization: `Bearer ${secret(name)}` });
  const get = (url: string, headers: Record<string, string> = {}) => demo().app.inject({ method: 'GET', url, headers });
  const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, payload?: unknown) =>
    demo().app.inject({ method, url, headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) }, ...(payload ? { payload: JSON.stringify(payload) } : {}) });

  it('"A Bearer token ... is checked first and is the primary mechanism": a token with grants reads', async () => {
    const response = await get(`${V1}/blog_posts?per_page=2`, bearer('reader'));
    expect(response.statusCode).toBe(200);
    expect(response.json().records).toHaveLength(2);
  });

  it('"A malformed or invalid token gives a uniform 401 and never falls through to the hook": malformed, unknown, disabled, expired and revoked tokens', async () => {
    // A valid token with its last character changed to another (a random secret may already end in "x").
    const tampered = `${secret('all').slice(0, -1)}${secret('all').endsWith('x') ? 'y' : 'x'}`;
    const tokens = ['garbage', '', tampered, 'pat_AAAAAAAAAAAAAAAA_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA_000000', secret('disabled'), secret('expired'), secret('revoked')];
    for (const token of tokens) {
      const response = await get(`${V1}/products`, { authorization: `Bearer ${token}` });
      expect(response.statusCode, token).toBe(401);
      expect(response.json()).toEqual({ error: 'Unauthorized' });
    }
  });

  it('"A present Bearer token always wins": a bad token with a valid panel session cookie is still 401 (the hook would have accepted the session)', async () => {
    const login = await demo().app.inject({ method: 'POST', url: '/panel/login', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email=ada%40example.com&password=demo-password' });
    const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    expect((await get(`${V1}/products`, { cookie })).statusCode).toBe(200);
    expect((await get(`${V1}/products`, { cookie, authorization: 'Bearer garbage' })).statusCode).toBe(401);
  });

  it('"When no Bearer token is presented, the request falls through to setup_authentication. Its default raises, which gives 401."', async () => {
    expect((await get(`${V1}/products`)).statusCode).toBe(401);
    expect((await get(`${V1}/products`, ADMIN)).statusCode).toBe(200);
  });

  it('tokens are never accepted in the query string', async () => {
    const response = await get(`${V1}/products?access_token=${secret('all')}&token=${secret('all')}`);
    expect(response.statusCode).toBe(401);
  });

  it('"A token with no grants gets 403 on every resource"', async () => {
    for (const key of ['blog_posts', 'comments', 'products', 'product_categories', 'tags', 'users', 'profiles']) {
      const response = await get(`${V1}/${key}`, bearer('nogrants'));
      if (key === 'product_categories') continue; // public override: ungated
      expect(response.statusCode, key).toBe(403);
      expect(response.json()).toEqual({ error: 'Forbidden' });
    }
  });

  it('"Per-token grants govern requests with that Bearer token and may include any verb, including writes"', async () => {
    const created = await send('POST', `${V1}/blog_posts`, bearer('writer'), { blog_post: { title: 'Written with a token' } });
    expect(created.statusCode).toBe(201);
    const id = created.json().record.id as number;
    expect((await send('PATCH', `${V1}/blog_posts/${id}`, bearer('writer'), { blog_post: { title: 'Edited' } })).statusCode).toBe(200);
    expect((await send('DELETE', `${V1}/blog_posts/${id}`, bearer('writer'))).statusCode).toBe(403);
    expect((await get(`${V1}/comments`, bearer('writer'))).statusCode).toBe(403);
    expect((await send('DELETE', `${V1}/blog_posts/${id}`, bearer('all'))).statusCode).toBe(200);
  });

  it('"The check happens before the record is loaded, so a client cannot probe record existence": no statement touches the table', async () => {
    const { database } = demo();
    for (const id of [1, NO_SUCH_POST]) {
      const { result, statements } = await countQueries(database, () => get(`${V1}/blog_posts/${id}`, bearer('nogrants')));
      expect(result.statusCode).toBe(403);
      expect(statements.filter((sql) => sql.includes('blog_posts'))).toEqual([]);
    }
  });

  it('"Token path: policy row-scoping is bypassed and the grant matrix is authoritative": the reader token sees every post, Rita\'s key her scope', async () => {
    const byToken = await get(`${V1}/blog_posts?per_page=1`, bearer('reader'));
    const byKey = await get(`${V1}/blog_posts?per_page=1`, READER);
    expect(byToken.json().pagination.total_count).toBe(60);
    expect(byKey.json().pagination.total_count).toBe(52);
  });

  it('"The default permissions list governs the code-hook path. It may grant only index and show; writes always need a Bearer token."', async () => {
    expect((await get(`${V1}/products/1`, ADMIN)).statusCode).toBe(200);
    expect((await get(`${V1}/blog_posts`, ADMIN)).statusCode).toBe(200);
    expect((await get(`${V1}/blog_posts/1`, ADMIN)).statusCode).toBe(403);
    expect((await get(`${V1}/comments`, ADMIN)).statusCode).toBe(403);
    const write = await send('POST', `${V1}/products`, ADMIN, { product: { name: 'Nope', price: 1 } });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toEqual({ error: 'Forbidden' });
  });

  it('"Nothing is reachable until a grant exists": an empty default permissions list closes the code-hook path', async () => {
    const { tokens } = demo();
    const saved = await tokens!.defaultPermissions();
    await tokens!.setDefaultPermissions([]);
    try {
      expect((await get(`${V1}/products`, ADMIN)).statusCode).toBe(403);
    } finally {
      await tokens!.setDefaultPermissions(saved);
    }
  });

  it('the catch-all serves every resource without a generated controller; the override controller is drawn first and wins', () => {
    const routes = demo().app.panelApiRoutes!;
    const index = (key: string) => routes.find((r) => r.method === 'GET' && r.path === `${V1}/${key}`)!;
    expect(index('tags').file).toMatch(/\(catch-all\)$/);
    expect(index('comments').file).toMatch(/comments-controller\.ts$/);
    expect(index('product_categories').file).toMatch(/product-categories-controller\.ts$/);
  });

  it('"One that inherits a plain framework controller bypasses everything: it is public, unauthenticated and ungated"', async () => {
    expect((await get(`${V1}/product_categories`)).statusCode).toBe(200);
    expect((await get(`${V1}/product_categories`, bearer('nogrants'))).statusCode).toBe(200);
  });

  it('"An override controller that subclasses BaseResourcesController keeps authentication and the permission gate"', async () => {
    expect((await get(`${V1}/comments`)).statusCode).toBe(401);
    expect((await get(`${V1}/comments`, bearer('writer'))).statusCode).toBe(403);
    expect((await get(`${V1}/comments`, bearer('reader'))).statusCode).toBe(200);
  });

  it('traversal: GET …/:id/<association> answers the target\'s index view a page at a time', async () => {
    const response = await get(`${V1}/blog_posts/6/tag_list?per_page=1`, bearer('all'));
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.records).toHaveLength(1);
    expect(body.pagination).toMatchObject({ page: 1, per_page: 1, total_count: 2, total_pages: 2, has_next_page: true });
    const comments = await get(`${V1}/blog_posts/6/comments`, bearer('reader'));
    expect(comments.statusCode).toBe(200);
    expect(comments.json().records.every((c: { blog_post: { id: number } }) => c.blog_post.id === 6)).toBe(true);
  });

  it('"Association traversal is read-only. The actor needs index (or show) on the target resource, else 403."', async () => {
    expect((await get(`${V1}/blog_posts/6/comments`, bearer('writer'))).statusCode).toBe(403);
    const post = await send('POST', `${V1}/blog_posts/6/comments`, bearer('all'), { comment: { body: 'x' } });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toEqual({ error: 'Not Found' });
    expect((await get(`${V1}/blog_posts/${NO_SUCH_POST}/comments`, bearer('all'))).statusCode).toBe(404);
  });

  it('"an association key is omitted entirely when the actor has no read grant on the target resource"', async () => {
    const writer = (await get(`${V1}/blog_posts/6`, bearer('writer'))).json().record;
    for (const key of ['author', 'comments', 'tag_list']) expect(writer, key).not.toHaveProperty(key);
    const all = (await get(`${V1}/blog_posts/6`, bearer('all'))).json().record;
    for (const key of ['author', 'comments', 'tag_list']) expect(all, key).toHaveProperty(key);
  });

  it('"For token actors, file url values are signed and expiring. For code-authenticated actors they are the standard attachment URL."', async () => {
    const cover = (await get(`${V1}/blog_posts/6`, bearer('all'))).json().record.cover as { url: string };
    expect(cover.url).toMatch(/^\/panel\/attachments\/signed\/[^/]+\/cover-06\.png\?expires=\d+&signature=[\w-]{43}$/);
    const served = await get(cover.url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    // One character of the signature changed to another: a fixed replacement left a signature
    // that already began with it untouched (one run in 64, the base64url alphabet's size).
    const first = /signature=(.)/.exec(cover.url)![1];
    const tamperedUrl = cover.url.replace(/signature=./, `signature=${first === 'A' ? 'B' : 'A'}`);
    expect(tamperedUrl).not.toBe(cover.url);
    const tampered = await get(tamperedUrl);
    expect(tampered.statusCode).toBe(403);
    expect(tampered.json()).toEqual({ error: 'Forbidden' });
    const expired = await get(cover.url.replace(/expires=\d+/, 'expires=1000'));
    expect(expired.statusCode).toBe(403);
    const standard = await get(`${V1}/blog_posts?per_page=100`, ADMIN);
    const covers = (standard.json().records as { cover?: { url: string } | null }[]).map((r) => r.cover).filter(Boolean);
    expect(covers.length).toBeGreaterThan(0);
    for (const file of covers) expect(file!.url).toMatch(/^\/panel\/attachments\/(?!signed)[^/]+\/[^/?]+$/);
  });

  it('a record with a signed file keeps its ETag ("never because a signed URL was signed again", docs/conditional-requests.md): the path stays, If-None-Match answers 304', async () => {
    const first = await get(`${V1}/blog_posts/6`, bearer('all'));
    const second = await get(`${V1}/blog_posts/6`, bearer('all'));
    const path = (response: typeof first) => (response.json().record.cover as { url: string }).url.split('?')[0];
    expect(path(second)).toBe(path(first));
    expect(second.headers.etag).toBe(first.headers.etag);
    const revalidated = await get(`${V1}/blog_posts/6`, { ...bearer('all'), 'if-none-match': first.headers.etag as string });
    expect(revalidated.statusCode).toBe(304);
    const page = (response: typeof first) => response.headers.etag;
    const list = await get(`${V1}/blog_posts?per_page=20`, bearer('all'));
    expect(JSON.stringify(list.json())).toContain('/signed/');
    expect(page(await get(`${V1}/blog_posts?per_page=20`, bearer('all')))).toBe(page(list));
  });

  it('"Edition B grants for every verb used are checked before any write": a writer\'s batch with a delete is 403 as a whole, nothing written', async () => {
    const before = (await get(`${V1}/blog_posts?per_page=1`, bearer('all'))).json().pagination.total_count;
    const refused = await send('POST', `${V1}/blog_posts/batch`, bearer('writer'), { operations: [{ op: 'create', data: { title: 'Batch by token' } }, { op: 'delete', id: 1 }] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'Forbidden' });
    expect((await get(`${V1}/blog_posts?per_page=1`, bearer('all'))).json().pagination.total_count).toBe(before);
    const allowed = await send('POST', `${V1}/blog_posts/batch`, bearer('writer'), { operations: [{ op: 'create', data: { title: 'Batch by token' } }] });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().results[0].status).toBe(201);
    expect((await send('POST', `${V1}/blog_posts/batch`, bearer('reader'), { operations: [{ op: 'create', data: { title: 'No' } }] })).statusCode).toBe(403);
  });

  it('an upload needs a token that may write a resource with a file field: 403 for a reader, 201 for a writer', async () => {
    const boundary = 'panel-edition-b-upload';
    const payload = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`);
    const upload = (name: string) => demo().app.inject({ method: 'POST', url: '/api/uploads', headers: { ...bearer(name), 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect((await upload('reader')).statusCode).toBe(403);
    const written = await upload('writer');
    expect(written.statusCode).toBe(201);
    expect(written.json().upload).toMatchObject({ filename: 'a.txt', content_type: 'text/plain', byte_size: 5 });
  });
  it('"`attachments_remove`: the files named, by their URL or filename": a token names a file by the signed URL it was given (the only URL it gets), and the file is removed', async () => {
    const files = (await get(`${V1}/blog_posts/12`, bearer('all'))).json().record.attachments as { filename: string; url: string }[];
    expect(files.length).toBe(2);
    const [gone, kept] = files as [{ filename: string; url: string }, { filename: string; url: string }];
    expect(gone.url).toMatch(/^\/panel\/attachments\/signed\/[^/]+\/[^/?]+\?expires=\d+&signature=/);
    const removed = await send('PATCH', `${V1}/blog_posts/12`, bearer('all'), { blog_post: { attachments_remove: [gone.url] } });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((removed.json().record.attachments as { filename: string }[]).map((file) => file.filename)).toEqual([kept.filename]);
    // A signed URL of a file this record does not hold names nothing: the write's 422, as for any unknown name.
    const foreign = ((await get(`${V1}/blog_posts/18`, bearer('all'))).json().record.attachments as { url: string }[])[0]!.url;
    const refused = await send('PATCH', `${V1}/blog_posts/12`, bearer('all'), { blog_post: { attachments_remove: [foreign] } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.attachments[0]).toMatch(/^has no attached file named /);
  });
}, { edition: 'B' });
