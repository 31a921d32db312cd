// Issue "Safe clients": conditional requests (ETag, If-None-Match, If-Match), idempotent
// retries (Idempotency-Key) and the HTTP caching headers, through real HTTP on the demo, on
// both databases. Rate limits are in rate-limits.test.ts.
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { openApiResponseChecker } from '@panel/test-support';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';
const JSON_TYPE = { 'content-type': 'application/json' };

describeOnEachDatabase('Conditional requests and idempotent retries', (demo, kind) => {
  const get = (url: string, headers: Record<string, string> = {}) => demo().app.inject({ method: 'GET', url, headers: { ...ADMIN, ...headers } });
  const send = (method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: unknown) =>
    demo().app.inject({ method, url, headers: { ...ADMIN, ...(payload ? JSON_TYPE : {}), ...headers }, ...(payload ? { payload: JSON.stringify(payload) } : {}) });
  const newPost = async (title: string) => (await send('POST', `${V1}/blog_posts`, {}, { blog_post: { title, author_id: 1 } })).json().record as { id: number; title: string };
  const postCount = async (title: string) => Number((await sql<{ n: string }>`select count(*) as n from blog_posts where title = ${title}`.execute(demo().database.db)).rows[0]!.n);

  it('"Every 200 of show, index and traversal carries a strong ETag"; API answers carry "Cache-Control: private, no-cache" and "Vary: Authorization, Cookie"', async () => {
    for (const url of [`${V1}/blog_posts/3`, `${V1}/blog_posts?per_page=5`]) {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{24}"$/);
      expect(response.headers['cache-control']).toBe('private, no-cache');
      expect(response.headers.vary).toBe('Authorization, Cookie');
      // The same answer again: the same ETag (it is a digest of the content, not a counter).
      expect((await get(url)).headers.etag).toBe(response.headers.etag);
    }
    // A 404 is an API answer too.
    expect((await get(`${V1}/blog_posts/424242`)).headers['cache-control']).toBe('private, no-cache');
  });

  it('"a request whose If-None-Match matches gets 304 with no body and the same ETag"; one that does not match gets the 200', async () => {
    const first = await get(`${V1}/blog_posts/4`);
    const again = await get(`${V1}/blog_posts/4`, { 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['content-type']).toBeUndefined();
    // A list of tags, a weak form of the same tag, and * match too (RFC 9110 weak comparison).
    for (const header of [`"nope", ${first.headers.etag}`, `W/${first.headers.etag}`, '*']) expect((await get(`${V1}/blog_posts/4`, { 'if-none-match': header })).statusCode, header).toBe(304);
    expect((await get(`${V1}/blog_posts/4`, { 'if-none-match': '"other"' })).statusCode).toBe(200);
    const index = await get(`${V1}/blog_posts?per_page=3&sort_by=title`);
    expect((await get(`${V1}/blog_posts?per_page=3&sort_by=title`, { 'if-none-match': index.headers.etag as string })).statusCode).toBe(304);
  });

  it('"HEAD works wherever GET does": a HEAD whose If-None-Match matches answers 304 like GET, with the same headers and no body (show and index; it answered 500)', async () => {
    const head = (url: string, headers: Record<string, string> = {}) => demo().app.inject({ method: 'HEAD', url, headers: { ...ADMIN, ...headers } });
    for (const url of [`${V1}/blog_posts/4`, `${V1}/blog_posts?per_page=3&sort_by=title`]) {
      const tag = (await get(url)).headers.etag as string;
      const fresh = await head(url);
      expect(fresh.statusCode, url).toBe(200);
      expect(fresh.headers.etag, url).toBe(tag);
      for (const header of [tag, '*']) {
        const viaGet = await get(url, { 'if-none-match': header });
        const viaHead = await head(url, { 'if-none-match': header });
        expect(viaGet.statusCode, `${url} ${header}`).toBe(304);
        expect(viaHead.statusCode, `${url} ${header}`).toBe(304);
        expect(viaHead.body).toBe('');
        // The same headers, but for those of each request (its date, id and what is left of the rate limit).
        const own = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).filter(([name]) => !['date', 'x-request-id', 'ratelimit'].includes(name)));
        expect(own(viaHead.headers), `${url} ${header}`).toEqual(own(viaGet.headers));
      }
      expect((await head(url, { 'if-none-match': '"other"' })).statusCode, url).toBe(200);
    }
  });

  it('"The ETag changes exactly when the answer\'s content changes for this actor": an update changes show\'s ETag, and the index page that holds the record', async () => {
    const post = await newPost('Etag subject');
    const show = await get(`${V1}/blog_posts/${post.id}`);
    const page = await get(`${V1}/blog_posts?per_page=100`);
    const updated = await send('PATCH', `${V1}/blog_posts/${post.id}`, {}, { blog_post: { title: 'Etag subject, renamed' } });
    expect(updated.statusCode).toBe(200);
    const after = await get(`${V1}/blog_posts/${post.id}`);
    expect(after.headers.etag).not.toBe(show.headers.etag);
    // "also returned by create and update answers": the update's ETag is the show answer's.
    expect(updated.headers.etag).toBe(after.headers.etag);
    expect((await get(`${V1}/blog_posts/${post.id}`, { 'if-none-match': show.headers.etag as string })).statusCode).toBe(200);
    expect((await get(`${V1}/blog_posts?per_page=100`, { 'if-none-match': page.headers.etag as string })).statusCode).toBe(200);
    // The reader sees other fields than the admin: another actor, another ETag is allowed, the same content the same.
    expect((await get(`${V1}/blog_posts/${post.id}`)).headers.etag).toBe(after.headers.etag);
  });

  it('"If the record changed since → 412 { "error": "Precondition Failed" }, nothing written"; the current ETag and If-Match: * write', async () => {
    const post = await newPost('If-Match subject');
    const stale = (await get(`${V1}/blog_posts/${post.id}`)).headers.etag as string;
    const first = await send('PATCH', `${V1}/blog_posts/${post.id}`, { 'if-match': stale }, { blog_post: { title: 'If-Match first' } });
    expect(first.statusCode).toBe(200);
    const refused = await send('PATCH', `${V1}/blog_posts/${post.id}`, { 'if-match': stale }, { blog_post: { title: 'If-Match lost update' } });
    expect(refused.statusCode).toBe(412);
    expect(refused.json()).toEqual({ error: 'Precondition Failed' });
    expect(await postCount('If-Match lost update')).toBe(0);
    expect((await get(`${V1}/blog_posts/${post.id}`)).json().record.title).toBe('If-Match first');
    // The ETag the update answered is current; PUT takes it too.
    expect((await send('PUT', `${V1}/blog_posts/${post.id}`, { 'if-match': first.headers.etag as string }, { blog_post: { title: 'If-Match put' } })).statusCode).toBe(200);
    // "If-Match: * matches any existing record"; a weak tag never matches (strong comparison).
    expect((await send('PATCH', `${V1}/blog_posts/${post.id}`, { 'if-match': '*' }, { blog_post: { title: 'If-Match star' } })).statusCode).toBe(200);
    const current = (await get(`${V1}/blog_posts/${post.id}`)).headers.etag as string;
    expect((await send('PATCH', `${V1}/blog_posts/${post.id}`, { 'if-match': `W/${current}` }, { blog_post: { title: 'weak' } })).statusCode).toBe(412);
    // A record that does not exist is 404 with or without the header (RFC 9110 §13.2.1: preconditions are ignored then).
    expect((await send('PATCH', `${V1}/blog_posts/424242`, { 'if-match': '*' }, { blog_post: { title: 'x' } })).statusCode).toBe(404);
  });

  it('"PATCH, PUT and DELETE take If-Match with the ETag of the record\'s show answer": a public show (products, read without authentication) gives the tag the authenticated write compares with (it answered 412 for every product with a category)', async () => {
    const created = await send('POST', `${V1}/products`, {}, { product: { name: 'Public show, tagged write', price: 3, product_category_id: 2 } });
    expect(created.statusCode).toBe(201);
    const url = `${V1}/products/${created.json().record.id}`;
    const shown = await get(url);
    // Show reads as an anonymous caller, who may not list the categories: the label is left out.
    expect(shown.json().record.product_category).toEqual({ id: 2, label: null });
    const tag = shown.headers.etag as string;
    const updated = await send('PATCH', url, { 'if-match': tag }, { product: { name: 'Public show, tagged write, renamed' } });
    expect(updated.statusCode).toBe(200);
    // The tag the client read before the change is stale now; the current one deletes.
    expect((await send('DELETE', url, { 'if-match': tag })).statusCode).toBe(412);
    expect((await send('DELETE', url, { 'if-match': (await get(url)).headers.etag as string })).statusCode).toBe(200);
    expect((await get(url)).statusCode).toBe(404);
  });

  it('"if_match is compared with the record\'s strong ETag as If-Match is": a batch on products takes the ETag their public show gave (it answered 412)', async () => {
    const create = async (name: string) => (await send('POST', `${V1}/products`, {}, { product: { name, price: 3, product_category_id: 2 } })).json().record as { id: number };
    const [a, b] = [await create('Public show batch a'), await create('Public show batch b')];
    const tagOf = async (id: number) => (await get(`${V1}/products/${id}`)).headers.etag as string;
    const [tagA, tagB] = [await tagOf(a!.id), await tagOf(b!.id)];
    const batch = await send('POST', `${V1}/products/batch`, {}, { operations: [{ op: 'update', id: a!.id, if_match: tagA, data: { name: 'Public show batch a, renamed' } }, { op: 'delete', id: b!.id, if_match: tagB }] });
    expect(batch.statusCode).toBe(200);
    expect(batch.json().results.map((result: { status: number }) => result.status)).toEqual([200, 200]);
    // The tag read before the update is stale now.
    const stale = await send('POST', `${V1}/products/batch`, {}, { operations: [{ op: 'update', id: a!.id, if_match: tagA, data: { name: 'Public show batch a, stale' } }] });
    expect(stale.json().results[0].status).toBe(412);
    expect((await get(`${V1}/products/${a!.id}`)).json().record.name).toBe('Public show batch a, renamed');
  });

  it('"create and update answers carry it too": under a public show, the write\'s answer carries the ETag of show\'s answer, which If-Match takes', async () => {
    const created = await send('POST', `${V1}/products`, {}, { product: { name: 'Public show, answered tag', price: 3, product_category_id: 2 } });
    const url = `${V1}/products/${created.json().record.id}`;
    expect(created.headers.etag).toBe((await get(url)).headers.etag);
    const updated = await send('PATCH', url, { 'if-match': created.headers.etag as string }, { product: { name: 'Public show, answered tag, renamed' } });
    expect(updated.statusCode).toBe(200);
    expect(updated.headers.etag).toBe((await get(url)).headers.etag);
    expect((await send('DELETE', url, { 'if-match': updated.headers.etag as string })).statusCode).toBe(200);
  });

  it('"create and update answers carry it too": with ?include= the answer\'s ETag is the record\'s show ETag, which If-Match takes, while show with include keeps an ETag over the included records', async () => {
    const created = await send('POST', `${V1}/blog_posts?include=author`, {}, { blog_post: { title: 'Included answer tag', author_id: 1 } });
    expect(created.statusCode).toBe(201);
    expect(created.json().record.author.record).toBeTruthy();
    const url = `${V1}/blog_posts/${created.json().record.id}`;
    const shown = await get(url);
    expect(created.headers.etag).toBe(shown.headers.etag);
    const updated = await send('PATCH', `${url}?include=author`, { 'if-match': created.headers.etag as string }, { blog_post: { title: 'Included answer tag, renamed' } });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().record.author.record).toBeTruthy();
    expect(updated.headers.etag).toBe((await get(url)).headers.etag);
    expect((await send('PATCH', url, { 'if-match': updated.headers.etag as string }, { blog_post: { title: 'Included answer tag, again' } })).statusCode).toBe(200);
    // Issue 44's rule: a read with include has an ETag that covers the included records, not the bare record's.
    const withInclude = await get(`${url}?include=author`);
    expect(withInclude.headers.etag).not.toBe((await get(url)).headers.etag);
    expect((await get(`${url}?include=author`, { 'if-none-match': withInclude.headers.etag as string })).statusCode).toBe(304);
  });

  it('"If-Match: * matches any existing record": it locks the row and does not read the show answer, one statement fewer than a tag (a missing record is still 404, above)', async () => {
    const post = await newPost('If-Match star census');
    const tag = (await get(`${V1}/blog_posts/${post.id}`)).headers.etag as string;
    const statements = async (ifMatch: string, title: string) => {
      const sent: string[] = [];
      const stop = demo().database.onQuery((query) => sent.push(query.sql));
      try {
        expect((await send('PATCH', `${V1}/blog_posts/${post.id}`, { 'if-match': ifMatch }, { blog_post: { title } })).statusCode).toBe(200);
      } finally {
        stop();
      }
      return sent;
    };
    const withTag = await statements(tag, 'If-Match star census, tagged');
    const withStar = await statements('*', 'If-Match star census, starred');
    expect(withStar).toHaveLength(withTag.length - 1);
    expect(withStar.filter((text) => / for update$/i.test(text.trim()))).toHaveLength(1);
    expect(await postCount('If-Match star census, starred')).toBe(1);
  });

  it('DELETE with a stale If-Match is 412 and the record stays; with the current ETag it is deleted', async () => {
    const post = await newPost('Delete subject');
    const stale = (await get(`${V1}/blog_posts/${post.id}`)).headers.etag as string;
    await send('PATCH', `${V1}/blog_posts/${post.id}`, {}, { blog_post: { title: 'Delete subject 2' } });
    expect((await send('DELETE', `${V1}/blog_posts/${post.id}`, { 'if-match': stale })).statusCode).toBe(412);
    expect((await get(`${V1}/blog_posts/${post.id}`)).statusCode).toBe(200);
    const current = (await get(`${V1}/blog_posts/${post.id}`)).headers.etag as string;
    expect((await send('DELETE', `${V1}/blog_posts/${post.id}`, { 'if-match': current })).statusCode).toBe(200);
    expect((await get(`${V1}/blog_posts/${post.id}`)).statusCode).toBe(404);
  });

  it('"two concurrent PATCHes with the same ETag, many times — exactly one wins each time, the other gets 412" (no lost update)', async () => {
    const post = await newPost('Race subject');
    for (let round = 0; round < 25; round++) {
      const tag = (await get(`${V1}/blog_posts/${post.id}`)).headers.etag as string;
      const [a, b] = await Promise.all(['a', 'b'].map((who) => send('PATCH', `${V1}/blog_posts/${post.id}`, { 'if-match': tag }, { blog_post: { title: `Race ${round} ${who}` } })));
      const statuses = [a!.statusCode, b!.statusCode].sort();
      expect(statuses, `round ${round}`).toEqual([200, 412]);
      const winner = a!.statusCode === 200 ? a! : b!;
      expect((await get(`${V1}/blog_posts/${post.id}`)).json().record.title).toBe(winner.json().record.title);
    }
  });

  it('"a retry with the same key and the same request gets the stored status and body again with Idempotent-Replayed: true and writes nothing" (a retried POST makes one row)', async () => {
    const key = `create-${kind}-${Date.now()}`;
    const body = { blog_post: { title: `Idempotent ${key}`, author_id: 1 } };
    const first = await send('POST', `${V1}/blog_posts`, { 'idempotency-key': key }, body);
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await send('POST', `${V1}/blog_posts`, { 'idempotency-key': key }, body);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(retry.headers.etag).toBe(first.headers.etag);
    expect(await postCount(`Idempotent ${key}`)).toBe(1);
    // "Keys are scoped by credential": the reader's same key is its own (and the reader may not create: 302).
    expect((await send('POST', `${V1}/blog_posts`, { 'idempotency-key': key, authorization: 'ApiKey demo-reader-key' }, body)).headers['idempotent-replayed']).toBeUndefined();
  });

  it('"the same key with a different request → 422"; a malformed key is a 400', async () => {
    const key = `reuse-${kind}-${Date.now()}`;
    expect((await send('POST', `${V1}/blog_posts`, { 'idempotency-key': key }, { blog_post: { title: `Reuse ${key}`, author_id: 1 } })).statusCode).toBe(201);
    const other = await send('POST', `${V1}/blog_posts`, { 'idempotency-key': key }, { blog_post: { title: `Reuse ${key} other`, author_id: 1 } });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ error: 'This Idempotency-Key was used with a different request' });
    expect(await postCount(`Reuse ${key} other`)).toBe(0);
    const tooLong = await send('POST', `${V1}/blog_posts`, { 'idempotency-key': 'k'.repeat(256) }, { blog_post: { title: 'x', author_id: 1 } });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toEqual({ error: 'Idempotency-Key must be 1 to 255 printable ASCII characters' });
  });

  it('"the same key with another method, path or body → 422": a body whose number overflows to Infinity (1e400) is another body than null (it replayed the stored 201)', async () => {
    const key = `non-finite-${kind}-${Date.now()}`;
    const post = (price: string) => demo().app.inject({ method: 'POST', url: `${V1}/products`, headers: { ...ADMIN, ...JSON_TYPE, 'idempotency-key': key }, payload: `{"product":{"name":"Fingerprint ${key}","price":${price}}}` });
    const first = await post('null');
    expect(first.statusCode).toBe(201);
    for (const price of ['1e400', '-1e400']) {
      const other = await post(price);
      expect(other.statusCode, price).toBe(422);
      expect(other.headers['idempotent-replayed'], price).toBeUndefined();
      expect(other.json(), price).toEqual({ error: 'This Idempotency-Key was used with a different request' });
    }
    expect((await post('null')).headers['idempotent-replayed']).toBe('true');
  });

  it('a refused write is not stored (a retry runs again): a 422 with a key, then the fixed request with the same key succeeds', async () => {
    const key = `invalid-${kind}-${Date.now()}`;
    expect((await send('POST', `${V1}/blog_posts`, { 'idempotency-key': key }, { blog_post: { title: '' } })).statusCode).toBe(422);
    expect((await send('POST', `${V1}/blog_posts`, { 'idempotency-key': key }, { blog_post: { title: `Fixed ${key}`, author_id: 1 } })).statusCode).toBe(201);
  });

  it('PATCH and DELETE take a key too: a replayed DELETE answers the stored 200 instead of a 404', async () => {
    const post = await newPost('Keyed delete');
    const key = `delete-${kind}-${Date.now()}`;
    const first = await send('DELETE', `${V1}/blog_posts/${post.id}`, { 'idempotency-key': key });
    expect(first.statusCode).toBe(200);
    const retry = await send('DELETE', `${V1}/blog_posts/${post.id}`, { 'idempotency-key': key });
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
  });

  it('"the same key while the first is still running → 409 with Retry-After"', async () => {
    const post = await newPost('Keyed while running');
    const key = `running-${kind}-${Date.now()}`;
    const patch = (title: string) => send('PATCH', `${V1}/blog_posts/${post.id}`, { 'idempotency-key': key }, { blog_post: { title } });
    // The test holds the record's row lock (PostgreSQL) or the one session (PGlite) while both requests start: the
    // first to pass authentication claims the key and waits inside its transaction; the other finds the key running.
    const holder = await demo().database.db.startTransaction().execute();
    await sql`select id from blog_posts where id = ${post.id} for update`.execute(holder);
    const both = Promise.all([patch('Running once'), patch('Running once')]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await holder.commit().execute();
    const [a, b] = await both;
    expect([a!.statusCode, b!.statusCode].sort()).toEqual([200, 409]);
    const refused = a!.statusCode === 409 ? a! : b!;
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toEqual({ error: 'A request with this Idempotency-Key is still being processed; retry later' });
    const replay = await patch('Running once');
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('a keyed write under If-Match locks the row in the statement that looks up the key ("the check and the write happen under one row lock in one transaction"): the key adds the stored answer, one statement', async () => {
    const post = await newPost('Keyed If-Match census');
    const statements = async (headers: Record<string, string>, title: string) => {
      const sent: string[] = [];
      const stop = demo().database.onQuery((query) => sent.push(query.sql));
      try {
        expect((await send('PATCH', `${V1}/blog_posts/${post.id}`, headers, { blog_post: { title } })).statusCode).toBe(200);
      } finally {
        stop();
      }
      return sent;
    };
    const starred = await statements({ 'if-match': '*' }, 'Keyed census, starred');
    const keyed = await statements({ 'if-match': '*', 'idempotency-key': `census-${kind}-${Date.now()}` }, 'Keyed census, keyed');
    expect(keyed).toHaveLength(starred.length + 1);
    const lookup = keyed.filter((text) => text.includes('pg_try_advisory_xact_lock'));
    expect(lookup).toHaveLength(1);
    expect(lookup[0]).toMatch(/for update/i);
    expect(keyed.filter((text) => /for update/i.test(text) && !/skip locked/i.test(text))).toHaveLength(1);
    expect((await get(`${V1}/blog_posts/${post.id}`)).json().record.title).toBe('Keyed census, keyed');
  });

  // Another process is another session; PGlite has one, so these two run on PostgreSQL.
  if (kind !== 'pglite') {
    /** The scope a key of the admin's credential is stored under, as the server wrote it. */
    const adminScope = async () => {
      const key = `scope-${kind}-${Date.now()}`;
      expect((await send('POST', `${V1}/blog_posts`, { 'idempotency-key': key }, { blog_post: { title: `Scope ${key}`, author_id: 1 } })).statusCode).toBe(201);
      return (await sql<{ scope: string }>`select scope from panel_api_idempotency_keys where key = ${key}`.execute(demo().database.db)).rows[0]!.scope;
    };

    it('"the same key while the first is still running → 409 with Retry-After" across processes: another session holding the key\'s lock', async () => {
      const scope = await adminScope();
      const key = `other-process-${Date.now()}`;
      const other = await demo().database.db.startTransaction().execute();
      try {
        await sql`select pg_advisory_xact_lock(hashtextextended(${`${scope}\n${key}`}, 0))`.execute(other);
        const refused = await send('POST', `${V1}/blog_posts`, { 'idempotency-key': key }, { blog_post: { title: `Other process ${key}`, author_id: 1 } });
        expect(refused.statusCode).toBe(409);
        expect(refused.headers['retry-after']).toBe('1');
        expect(await postCount(`Other process ${key}`)).toBe(0);
      } finally {
        await other.rollback().execute();
      }
    });

    it('an answer another process stored between the lookup and the store is replayed, and this write is rolled back ("a retry … writes nothing")', async () => {
      const post = await newPost('Stored meanwhile');
      const scope = await adminScope();
      const key = `meanwhile-${Date.now()}`;
      const body = { blog_post: { title: 'Stored meanwhile, written here' } };
      const path = `${V1}/blog_posts/${post.id}`;
      // The request's fingerprint as the server computes it: method, path and the JSON body.
      const fingerprint = createHash('sha256').update(`PATCH\n${path}\n${JSON.stringify(body)}`).digest('hex');
      // The other process holds the post's row, so the request waits at its update, after its lookup found no key;
      // meanwhile the other process stores its answer for the same key and request, and commits.
      const other = await demo().database.db.startTransaction().execute();
      await sql`update blog_posts set title = 'Held by the other process' where id = ${post.id}`.execute(other);
      const request = send('PATCH', path, { 'idempotency-key': key }, body);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const shown = (await get(path)).json();
      const stored = JSON.stringify({ ...shown, record: { ...shown.record, title: 'The other process answered' } });
      await sql`insert into panel_api_idempotency_keys (scope, key, method, path, fingerprint, status, body) values (${scope}, ${key}, 'PATCH', ${path}, ${fingerprint}, 200, ${stored})`.execute(other);
      await other.commit().execute();
      const answer = await request;
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['idempotent-replayed']).toBe('true');
      expect(answer.body).toBe(stored);
      expect((await get(path)).json().record.title).toBe('Held by the other process');
    });
  }

  it('the OpenAPI document declares the headers and the 304/409/412/429 answers, and the response checker holds answers to them', async () => {
    const document = (await get(`${V1}/openapi.json`)).json();
    const member = document.paths['/api/resources/v1/blog_posts/{id}'];
    expect(Object.keys(member.get.responses)).toEqual(expect.arrayContaining(['200', '304', '429']));
    expect(Object.keys(member.patch.responses)).toEqual(expect.arrayContaining(['409', '412', '429']));
    expect(member.patch.responses['428']).toBeUndefined();
    expect(member.patch.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['If-Match', 'Idempotency-Key']));
    expect(member.get.parameters.map((p: { name: string }) => p.name)).toContain('If-None-Match');
    expect(Object.keys(member.get.responses['200'].headers)).toEqual(expect.arrayContaining(['ETag', 'RateLimit-Policy', 'RateLimit']));
    const check = openApiResponseChecker(document);
    const real = await get(`${V1}/blog_posts/3`);
    const answer = { method: 'GET', url: `${V1}/blog_posts/3`, statusCode: 200, headers: real.headers, body: real.body };
    expect(check(answer)).toEqual([]);
    expect(check({ ...answer, headers: { ...real.headers, etag: 'unquoted' } })).toEqual([expect.stringContaining('the header ETag (unquoted) does not match its documented schema')]);
    expect(check({ ...answer, headers: { ...real.headers, etag: undefined } })).toEqual([expect.stringContaining('lacks the documented header ETag')]);
    expect(check({ method: 'GET', url: `${V1}/blog_posts/3`, statusCode: 429, headers: { ...real.headers, 'retry-after': '0' }, body: '{"error":"Too Many Requests"}' })).toEqual([expect.stringContaining('the header Retry-After (0)')]);
  });

  it('an expired key is forgotten: past the retention the same key writes again', async () => {
    const key = `expired-${kind}-${Date.now()}`;
    const body = { blog_post: { title: `Expired ${key}`, author_id: 1 } };
    expect((await send('POST', `${V1}/blog_posts`, { 'idempotency-key': key }, body)).statusCode).toBe(201);
    await sql`update panel_api_idempotency_keys set created_at = now() - interval '25 hours' where key = ${key}`.execute(demo().database.db);
    const again = await send('POST', `${V1}/blog_posts`, { 'idempotency-key': key }, body);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await postCount(`Expired ${key}`)).toBe(2);
  });
});

describeOnEachDatabase(
  'requireIfMatch',
  (demo) => {
    it('"An option (requireIfMatch, per mount or per controller) makes a missing If-Match on update/delete a 428 { "error": "Precondition Required" }"', async () => {
      const inject = (method: 'PATCH' | 'DELETE', headers: Record<string, string> = {}) =>
        demo().app.inject({ method, url: `${V1}/blog_posts/9`, headers: { ...ADMIN, ...JSON_TYPE, ...headers }, payload: JSON.stringify({ blog_post: { title: 'Required' } }) });
      const missing = await inject('PATCH');
      expect(missing.statusCode).toBe(428);
      expect(missing.json()).toEqual({ error: 'Precondition Required' });
      expect((await inject('DELETE')).statusCode).toBe(428);
      const tag = (await demo().app.inject({ method: 'GET', url: `${V1}/blog_posts/9`, headers: ADMIN })).headers.etag as string;
      expect((await inject('PATCH', { 'if-match': tag })).statusCode).toBe(200);
      const document = (await demo().app.inject({ method: 'GET', url: `${V1}/openapi.json` })).json();
      expect(document.paths['/api/resources/v1/blog_posts/{id}'].patch.responses['428']).toBeDefined();
    });

    it('"requireIfMatch makes a missing If-Match on update and delete a 428" in a batch too: each such operation answers its single endpoint\'s 428, an atomic batch then fails as a whole (the others 424) and nothing is written', async () => {
      const create = async (title: string) => (await demo().app.inject({ method: 'POST', url: `${V1}/blog_posts`, headers: { ...ADMIN, ...JSON_TYPE }, payload: JSON.stringify({ blog_post: { title, author_id: 1 } }) })).json().record as { id: number };
      const batch = (body: unknown) => demo().app.inject({ method: 'POST', url: `${V1}/blog_posts/batch`, headers: { ...ADMIN, ...JSON_TYPE }, payload: JSON.stringify(body) });
      const title = async (id: number) => (await sql<{ title: string }>`select title from blog_posts where id = ${id}`.execute(demo().database.db)).rows[0]?.title;
      const [a, b, c] = [await create('Batch required a'), await create('Batch required b'), await create('Batch required c')];
      const tagOf = async (id: number) => (await demo().app.inject({ method: 'GET', url: `${V1}/blog_posts/${id}`, headers: ADMIN })).headers.etag as string;
      const atomic = await batch({
        operations: [
          { op: 'update', id: a!.id, data: { title: 'Batch required a, no If-Match' } },
          { op: 'delete', id: b!.id },
          { op: 'update', id: c!.id, if_match: await tagOf(c!.id), data: { title: 'Batch required c, tagged' } },
          { op: 'create', data: { title: 'Batch required, created', author_id: 1 } },
        ],
      });
      expect(atomic.statusCode).toBe(422);
      expect(atomic.json()).toEqual({
        results: [
          { index: 0, status: 428, error: 'Precondition Required' },
          { index: 1, status: 428, error: 'Precondition Required' },
          { index: 2, status: 424, error: 'Not applied: the batch was rolled back' },
          { index: 3, status: 424, error: 'Not applied: the batch was rolled back' },
        ],
        summary: { succeeded: 0, failed: 2, not_applied: 2 },
      });
      expect([await title(a!.id), await title(b!.id), await title(c!.id)]).toEqual(['Batch required a', 'Batch required b', 'Batch required c']);
      // Each on its own: the operations with If-Match (a tag or *) apply, those without answer 428 and write nothing.
      const partial = await batch({
        atomic: false,
        operations: [
          { op: 'update', id: a!.id, data: { title: 'Batch required a, no If-Match' } },
          { op: 'delete', id: b!.id, if_match: '*' },
          { op: 'update', id: c!.id, if_match: await tagOf(c!.id), data: { title: 'Batch required c, tagged' } },
        ],
      });
      expect(partial.statusCode).toBe(200);
      expect(partial.json().results.map((result: { status: number }) => result.status)).toEqual([428, 200, 200]);
      expect(partial.json().results[0]).toEqual({ index: 0, status: 428, error: 'Precondition Required' });
      expect([await title(a!.id), await title(b!.id), await title(c!.id)]).toEqual(['Batch required a', undefined, 'Batch required c, tagged']);
    });
  },
  { api: { requireIfMatch: true } },
);
