// Edges of the read modifiers found by probing the demo over HTTP as a hostile client would
// (design: shared/designs/related-reads.md, "Contract: include" and "Contract: cursor pagination"):
// sort values too long for a cursor, a request line in absolute form, bracketed spellings of the
// list parameters, and what the OpenAPI document says of `include`.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { countQueries } from '@panel/test-support';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';
type Headers = Record<string, string>;
type Page = { records: { id: number }[]; pagination: { has_next_page: boolean; has_prev_page: boolean; next_cursor: string | null; prev_cursor: string | null } };
const FOREIGN = 'after is not a cursor of this list for this query and caller (it was altered, or made for another list, filter, search, order or caller): start again from pagination=cursor';

describeOnEachDatabase('read modifier edges', (demo) => {
  const get = (url: string, headers: Headers = ADMIN) => demo().app.inject({ method: 'GET', url: `${V1}${url}`, headers });
  const page = async (url: string): Promise<Page> => {
    const response = await get(url);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json();
  };
  const db = () => demo().database.db;
  let post = 0;

  beforeAll(async () => {
    // One post whose comments' bodies are long (up to the field's 10,000 characters), some equal, some short.
    ({ id: post } = await db().insertInto('blog_posts').values({ title: 'Long comments', published: true, author_id: 1 }).returning('id').executeTakeFirstOrThrow());
    await sql`insert into comments (body, blog_post_id, user_id)
              select case when i % 4 = 0 then '0 short ' || i else repeat(chr(97 + i % 3), 700 * (i % 5) + 10) || repeat('é"\\', i % 3) || repeat('z', 5000 * (i % 2)) end, ${post}, 1
              from generate_series(1, 13) as i`.execute(db());
  });

  /** The comments of the post ordered by body, as PostgreSQL orders them. */
  const expected = async (direction: 'asc' | 'desc') =>
    (await sql<{ id: number }>`select id from comments where blog_post_id = ${post} order by body ${sql.raw(direction)}, id ${sql.raw(direction)}`.execute(db())).rows.map((row) => row.id);

  it('"the cursor is opaque, signed … ≤ 1 KiB" and "exactly the ORDER BY result, no gap, no repeat" when the sort value is longer than a cursor may carry (a 10,000-character body), both directions, to the end and back', async () => {
    for (const direction of ['asc', 'desc'] as const) {
      const order = await expected(direction);
      expect(order).toHaveLength(13);
      for (let perPage = 1; perPage <= 4; perPage += 1) {
        const base = `/comments?filter[blog_post_id]=${post}&fields=id&sort_by=body&sort_direction=${direction}&per_page=${perPage}`;
        let current = await page(`${base}&pagination=cursor`);
        const forward = current.records.map((r) => r.id);
        const cursors: string[] = [];
        while (current.pagination.has_next_page) {
          expect(forward.length).toBeLessThan(20);
          cursors.push(current.pagination.next_cursor!);
          current = await page(`${base}&after=${current.pagination.next_cursor}`);
          forward.push(...current.records.map((r) => r.id));
        }
        expect(forward, `${direction} per_page ${perPage}`).toEqual(order);
        const backward = current.records.map((r) => r.id);
        while (current.pagination.has_prev_page) {
          expect(backward.length).toBeLessThan(20);
          cursors.push(current.pagination.prev_cursor!);
          current = await page(`${base}&before=${current.pagination.prev_cursor}`);
          backward.unshift(...current.records.map((r) => r.id));
        }
        expect(backward, `${direction} per_page ${perPage}, back`).toEqual(order);
        for (const cursor of cursors) expect(cursor.length).toBeLessThanOrEqual(1024);
      }
    }
  }, 120_000);

  it('an included list ordered by a long value links a next page that opens, and a long boundary costs no statement more than a short one', async () => {
    const included = (await get(`/blog_posts/${post}?include=comments&include_sort_by[comments]=body&include_sort_direction[comments]=desc&include_per_page[comments]=2&include_fields[comments]=id`)).json().record.comments;
    const seen: number[] = included.records.map((comment: { id: number }) => comment.id);
    let next: string | null = included.next;
    while (next !== null) {
      expect(next.length).toBeLessThan(1400);
      expect(seen.length).toBeLessThan(20);
      const response = await demo().app.inject({ method: 'GET', url: `${next}&fields=id`, headers: ADMIN });
      expect(response.statusCode, response.body).toBe(200);
      seen.push(...response.json().records.map((comment: { id: number }) => comment.id));
      const cursor = response.json().pagination.next_cursor;
      next = cursor === null ? null : `${next.replace(/&after=.*$/, '')}&after=${cursor}`;
    }
    expect(seen).toEqual(await expected('desc'));
    // The longest body first: its cursor holds no value; the page after it is one statement, as after a short one.
    const base = `/comments?filter[blog_post_id]=${post}&fields=id&sort_by=body&per_page=1`;
    const long = (await page(`${base}&sort_direction=desc&pagination=cursor`)).pagination.next_cursor!;
    const short = (await page(`${base}&sort_direction=asc&pagination=cursor`)).pagination.next_cursor!;
    const afterLong = await countQueries(demo().database, () => get(`${base}&sort_direction=desc&after=${long}`));
    const afterShort = await countQueries(demo().database, () => get(`${base}&sort_direction=asc&after=${short}`));
    expect(afterLong.result.statusCode, afterLong.result.body).toBe(200);
    expect(afterLong.count).toBe(afterShort.count);
  });

  it('a cursor whose long boundary value changed or whose row is gone is the 400 of a foreign cursor ("never rows of another query")', async () => {
    const base = `/comments?filter[blog_post_id]=${post}&fields=id&sort_by=body&sort_direction=desc&per_page=1`;
    const first = await page(`${base}&pagination=cursor`);
    const boundary = first.records[0]!.id;
    const { body } = await db().selectFrom('comments').select('body').where('id', '=', boundary).executeTakeFirstOrThrow();
    expect(body.length).toBeGreaterThan(1000);
    expect((await get(`${base}&after=${first.pagination.next_cursor}`)).statusCode).toBe(200);
    await db().updateTable('comments').set({ body: `${body.slice(0, -1)}y` }).where('id', '=', boundary).execute();
    const changed = await get(`${base}&after=${first.pagination.next_cursor}`);
    expect([changed.statusCode, changed.json()]).toEqual([400, { error: FOREIGN }]);
    await db().deleteFrom('comments').where('id', '=', boundary).execute();
    const gone = await get(`${base}&after=${first.pagination.next_cursor}`);
    expect([gone.statusCode, gone.json()]).toEqual([400, { error: FOREIGN }]);
  });

  it('the Link header is the request\'s path, never an authority from a request line in absolute form (GET http://other.example/… HTTP/1.1)', async () => {
    await demo().app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = demo().app.server.address() as AddressInfo;
    const link = await new Promise<string | undefined>((resolve, reject) => {
      const sent = httpRequest({ host: '127.0.0.1', port, path: `http://other.example${V1}/blog_posts?pagination=cursor&per_page=1&fields=id`, headers: ADMIN }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode === 200 ? (response.headers.link as string | undefined) : `status ${response.statusCode}`));
      });
      sent.on('error', reject);
      sent.end();
    });
    expect(link).toMatch(/^<\/api\/resources\/v1\/blog_posts\?per_page=1&fields=id&after=[\w-]+\.[\w-]+>; rel="next"$/);
  });

  it('"an unknown or refused filter is a 400, never ignored": a list parameter spelled with brackets (q[], after[x], pagination[]=cursor …) is a 400 naming it, not a page that ignores it', async () => {
    for (const parameter of ['q[]=Trains', 'q[title]=Trains', 'after[]=x', 'before[x]=x', 'pagination[]=cursor', 'include_total[]=exact', 'page[]=2', 'page[number]=2', 'per_page[]=1', 'sort_by[]=title', 'sort_direction[]=asc', 'fields[]=title']) {
      const response = await get(`/blog_posts?${parameter}`);
      const key = parameter.slice(0, parameter.indexOf('='));
      expect(response.statusCode, parameter).toBe(400);
      expect(response.json().error, parameter).toContain(`"${key}" is not a parameter`);
    }
  });

  it('the OpenAPI document\'s include takes at most as many paths as the server does ("the document describes what the server answers")', async () => {
    const document = (await demo().app.inject({ method: 'GET', url: `${V1}/openapi.json`, headers: ADMIN })).json();
    const includes = Object.values(document.paths as Record<string, Record<string, { parameters?: { name: string; schema: { maxItems?: number; items?: { enum?: string[] } } }[] }>>)
      .flatMap((item) => Object.values(item))
      .flatMap((operation) => operation.parameters ?? [])
      .filter((parameter) => parameter.name === 'include');
    expect(includes.length).toBeGreaterThan(0);
    for (const { schema } of includes) expect(schema.maxItems).toBeLessThanOrEqual(5);
    const sixPaths = await get('/blog_posts?include=author,author.blog_posts,author.profile,comments,comments.user,tag_list');
    expect(sixPaths.statusCode).toBe(400);
    expect(sixPaths.json().error).toContain('at most 5');
  });
});
