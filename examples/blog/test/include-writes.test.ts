// `include` on the answers of create and update, through real HTTP on the demo (design:
// shared/designs/related-reads.md, "Contract: include": "On list, show, association traversal,
// and the answers of create and update"): the written record answers with its included
// associations, read after the write in its transaction; a bad include writes nothing.
import { describe, expect, it } from 'vitest';
import { countQueries } from '@panel/test-support';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';
const JSON_BODY = { ...ADMIN, 'content-type': 'application/json' };
type Json = Record<string, any>;

/** Statements that write the demo's data. */
const WRITE = /^(insert|update|delete)\b/i;
/** Statements that open or close a transaction or a savepoint. */
const TRANSACTION = /^(begin|commit|rollback|savepoint|release)\b/i;

describeOnEachDatabase('include on the answers of create and update', (demo) => {
  const send = (method: 'POST' | 'PATCH', url: string, body: Json) => demo().app.inject({ method, url: `${V1}${url}`, headers: JSON_BODY, payload: JSON.stringify(body) });
  const get = async (url: string): Promise<Json> => (await demo().app.inject({ method: 'GET', url: `${V1}${url}`, headers: ADMIN })).json();
  const db = () => demo().database.db;
  const postCount = async () => Number((await db().selectFrom('blog_posts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('"the answers of create": POST /blog_posts?include=author answers the created post with its author\'s record, as show with the same include answers it, and Include-Cost', async () => {
    const created = await send('POST', '/blog_posts?include=author,comments', { blog_post: { title: 'Included on create', author_id: 1 } });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers['include-cost']).toBe('6');
    const { record } = created.json();
    expect(record.author).toMatchObject({ id: 1, record: { id: 1 } });
    expect(record.comments).toEqual({ count: 0, records: [], has_more: false, next: null });
    const shown = await get(`/blog_posts/${record.id}?include=author,comments`);
    expect(record).toEqual(shown.record);
  });

  it('"the answers of update": PATCH /blog_posts/:id?include=comments.user answers with the comments and their users, which see the write; without include the answer is unchanged', async () => {
    const { id } = await db().insertInto('blog_posts').values({ title: 'Before', published: true, published_on: '2026-01-03', author_id: 1 }).returning('id').executeTakeFirstOrThrow();
    await db().insertInto('comments').values({ body: 'First', blog_post_id: id, user_id: 1 }).execute();
    const plain = await send('PATCH', `/blog_posts/${id}`, { blog_post: { title: 'Plain' } });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.headers['include-cost']).toBeUndefined();
    expect(plain.json().record.comments).toEqual({ count: 1 });
    const updated = await send('PATCH', `/blog_posts/${id}?include=comments.user&include_fields[comments.user]=id,name`, { blog_post: { title: 'After' } });
    expect(updated.statusCode, updated.body).toBe(200);
    const { record } = updated.json();
    expect(record.title).toBe('After');
    expect(record.comments.records.map((comment: Json) => comment.body)).toEqual(['First']);
    expect(record.comments.records[0].user.record).toEqual({ id: 1, name: record.comments.records[0].user.label });
    expect(record).toEqual((await get(`/blog_posts/${id}?include=comments.user&include_fields[comments.user]=id,name`)).record);
  });

  it('"the included data sees the write": a comment created under a post, with include=blog_post.comments, finds itself among the post\'s comments', async () => {
    const { id } = await db().insertInto('blog_posts').values({ title: 'Seen by the write', published: true, published_on: '2026-01-04', author_id: 1 }).returning('id').executeTakeFirstOrThrow();
    const created = await send('POST', '/comments?include=blog_post.comments', { comment: { body: 'Mine', blog_post_id: id, user_id: 1 } });
    expect(created.statusCode, created.body).toBe(201);
    const { record } = created.json();
    expect(record.blog_post.record.id).toBe(id);
    expect(record.blog_post.record.comments.records.map((comment: Json) => comment.id)).toEqual([record.id]);
  });

  it('"one statement per path", read after the write in the same transaction: the statements of the write without include, plus begin and commit, plus one per path', async () => {
    const { id } = await db().insertInto('blog_posts').values({ title: 'Counted', published: true, published_on: '2026-01-05', author_id: 1 }).returning('id').executeTakeFirstOrThrow();
    const without = await countQueries(demo().database, () => send('PATCH', `/blog_posts/${id}`, { blog_post: { title: 'Counted 1' } }));
    expect(without.result.statusCode).toBe(200);
    const paths = ['author', 'comments', 'comments.user', 'tag_list', 'author.profile'];
    for (let count = 1; count <= paths.length; count += 1) {
      const { result, statements } = await countQueries(demo().database, () => send('PATCH', `/blog_posts/${id}?include=${paths.slice(0, count).join(',')}`, { blog_post: { title: `Counted ${count + 1}` } }));
      expect(result.statusCode, result.body).toBe(200);
      const outside = statements.filter((statement) => !TRANSACTION.test(statement));
      expect(outside.length, paths.slice(0, count).join(',')).toBe(without.count + count);
      // The update, then the paths' statements, between begin and commit.
      const begin = statements.findIndex((statement) => /^begin/i.test(statement));
      const write = statements.findIndex((statement) => /\bupdate "blog_posts"/i.test(statement));
      expect([begin >= 0, begin < write, statements.at(-1)]).toEqual([true, true, 'commit']);
      expect(statements.slice(write + 1, -1).filter((statement) => !TRANSACTION.test(statement)).length).toBe(count);
    }
  });

  it('"an unknown or unreadable path … 400", before any write: an unknown path, a path over the depth and one over the budget on create and update write nothing (no insert or update statement)', async () => {
    const before = await postCount();
    for (const [method, url, words] of [
      ['POST', '/blog_posts?include=nope', 'include'],
      ['POST', '/blog_posts?include=comments.user.profile', 'levels deep'],
      ['POST', '/blog_posts?include=comments&include_per_page[comments]=99', 'include_per_page'],
      ['PATCH', '/blog_posts/3?include=author&include_fields[author]=nope', 'include_fields'],
    ] as const) {
      const { result, statements } = await countQueries(demo().database, () => send(method, url, { blog_post: { title: 'Never written', author_id: 1 } }));
      expect(result.statusCode, `${url}: ${result.body}`).toBe(400);
      expect(result.json().error).toContain(words);
      expect(statements.filter((statement) => WRITE.test(statement)), url).toEqual([]);
    }
    expect(await postCount()).toBe(before);
    expect((await get('/blog_posts/3')).record.title).not.toBe('Never written');
  });

  it('"If-Match on writes keeps comparing the root record\'s strong ETag", and include reads in the precondition\'s transaction; an Idempotency-Key replays the answer with its included records', async () => {
    const inject = (method: 'POST' | 'PATCH', url: string, headers: Record<string, string>, body: Json) => demo().app.inject({ method, url: `${V1}${url}`, headers: { ...JSON_BODY, ...headers }, payload: JSON.stringify(body) });
    const { id } = await db().insertInto('blog_posts').values({ title: 'Conditional', published: true, published_on: '2026-01-06', author_id: 1 }).returning('id').executeTakeFirstOrThrow();
    const etag = (await demo().app.inject({ url: `${V1}/blog_posts/${id}`, headers: ADMIN })).headers.etag as string;
    // The answer with include has another ETag than the record's own: If-Match compares the record's.
    expect((await demo().app.inject({ url: `${V1}/blog_posts/${id}?include=author`, headers: ADMIN })).headers.etag).not.toBe(etag);
    const { result, statements } = await countQueries(demo().database, () => inject('PATCH', `/blog_posts/${id}?include=author`, { 'if-match': etag }, { blog_post: { title: 'Conditional, with its author' } }));
    expect(result.statusCode, result.body).toBe(200);
    expect(result.json().record.author.record).toMatchObject({ id: 1 });
    expect(statements.filter((statement) => /^begin/i.test(statement))).toHaveLength(1);
    expect((await inject('PATCH', `/blog_posts/${id}?include=author`, { 'if-match': etag }, { blog_post: { title: 'Lost update' } })).statusCode).toBe(412);
    const key = `include-writes-${Date.now()}`;
    const body = { blog_post: { title: 'Created once, with its author', author_id: 1 } };
    const first = await inject('POST', '/blog_posts?include=author', { 'idempotency-key': key }, body);
    const retry = await inject('POST', '/blog_posts?include=author', { 'idempotency-key': key }, body);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().record.author.record).toMatchObject({ id: 1 });
    expect([retry.statusCode, retry.headers['idempotent-replayed'], retry.json()]).toEqual([201, 'true', first.json()]);
  });

  it('"fields= does not apply to a write\'s answer": fields= beside include on a create neither narrows the answer nor refuses the include', async () => {
    const created = await send('POST', '/blog_posts?fields=title&include=author', { blog_post: { title: 'Fields beside include', author_id: 1 } });
    expect(created.statusCode, created.body).toBe(201);
    const { record } = created.json();
    expect(record).toMatchObject({ title: 'Fields beside include', author: { id: 1, record: { id: 1 } } });
    expect(Object.keys(record)).toEqual(Object.keys((await get(`/blog_posts/${record.id}`)).record));
  });

  it('a refused write (422) with include answers as without it, and writes nothing', async () => {
    const before = await postCount();
    const refused = await send('POST', '/blog_posts?include=author', { blog_post: { title: '', author_id: 1 } });
    const plain = await send('POST', '/blog_posts', { blog_post: { title: '', author_id: 1 } });
    expect(refused.statusCode).toBe(plain.statusCode);
    expect(refused.body).toBe(plain.body);
    expect(await postCount()).toBe(before);
  });

  it('"OpenAPI: the included shapes are typed" and create and update take include: each association value declares record, or records, has_more and next, referring to the target\'s embedded record', async () => {
    const document = (await demo().app.inject({ url: `${V1}/openapi.json`, headers: ADMIN })).json();
    const { schemas } = document.components;
    const author = schemas.BlogPost_show.properties.author.properties;
    expect(author.record.anyOf).toEqual([{ $ref: '#/components/schemas/User_included' }, { type: 'null' }]);
    const comments = schemas.BlogPost_index.properties.comments.properties;
    expect(comments.records).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/Comment_included' }, maxItems: 20 });
    expect([comments.has_more.type, comments.next.type]).toEqual(['boolean', ['string', 'null']]);
    expect(schemas.BlogPost_show.properties.comments.required).toEqual(['count']);
    // An embedded record carries the fields include_fields names: none is required, none unknown.
    expect(schemas.Comment_included).toMatchObject({ type: 'object', additionalProperties: false });
    expect(schemas.Comment_included.required).toBeUndefined();
    expect(schemas.Comment_included.properties.user.properties.record.anyOf[0]).toEqual({ $ref: '#/components/schemas/User_included' });
    for (const [path, method] of [['/blog_posts', 'post'], ['/blog_posts/{id}', 'patch'], ['/blog_posts/{id}', 'put']] as const) {
      const names = document.paths[`${V1}${path}`][method].parameters.filter((p: Json) => p.in === 'query').map((p: Json) => p.name);
      expect(names, `${method} ${path}`).toContain('include');
      expect(names.every((name: string) => name.startsWith('include')), `${method} ${path}`).toBe(true);
    }
  });

  describe('batch', () => {
    it('"a batch\'s answer embeds no associated records": include on POST /blog_posts/batch is a 400 naming it, and nothing is written', async () => {
      const before = await postCount();
      const response = await send('POST', '/blog_posts/batch?include=author', { operations: [{ op: 'create', data: { title: 'Batched', author_id: 1 } }] });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error).toContain('include');
      expect(await postCount()).toBe(before);
    });
  });
});
