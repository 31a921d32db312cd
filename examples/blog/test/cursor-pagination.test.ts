// Cursor pagination through real HTTP on the demo (design: shared/designs/related-reads.md,
// "Contract: cursor pagination"): the property walk over duplicates, NULLs and microsecond-apart
// timestamps, writes between pages, tampering and binding, hidden sorts, statements per page.
import { beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { countQueries } from '@panel/test-support';
import { ADMIN, READER, describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';
type Headers = Record<string, string>;
type Page = { records: { id: number }[]; pagination: { per_page: number; has_next_page: boolean; has_prev_page: boolean; next_cursor: string | null; prev_cursor: string | null; total_count?: number } };

describeOnEachDatabase('cursor pagination', (demo) => {
  const get = (url: string, headers: Headers = ADMIN) => demo().app.inject({ method: 'GET', url: `${V1}${url}`, headers });
  const page = async (url: string, headers: Headers = ADMIN): Promise<Page> => {
    const response = await get(url, headers);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json();
  };
  const db = () => demo().database.db;
  let author = 0;

  beforeAll(async () => {
    // 23 posts of one author: titles, dates and ratings with duplicates and NULLs.
    ({ id: author } = await db().insertInto('users').values({ name: 'Walk', email: 'walk@example.com', password_digest: 'x', admin: false }).returning('id').executeTakeFirstOrThrow());
    await sql`insert into blog_posts (title, published, published_on, rating, author_id)
              select 'Walk ' || (i % 4), i % 3 <> 0, case when i % 5 = 0 then null else date '2026-03-01' + (i % 6) end,
                     case when i % 4 = 0 then null else round((i % 3)::numeric, 2) end, ${author}
              from generate_series(1, 23) as i`.execute(db());
    // 21 users named alike whose created_at are a microsecond apart, some equal, some NULL (a legacy column without NOT NULL).
    await sql`alter table users alter column created_at drop not null`.execute(db());
    await sql`insert into users (name, email, password_digest, created_at)
              select 'Walker', 'walker' || i || '@example.com', 'x',
                     case when i % 7 = 0 then null else timestamptz '2026-05-01 12:00:00.000001+00' + ((i % 9) * interval '1 microsecond') end
              from generate_series(1, 21) as i`.execute(db());
  });

  /** The ids of the rows in `order`, as PostgreSQL orders them (NULLs last ascending, first descending). */
  const expected = async (table: 'blog_posts' | 'users', where: ReturnType<typeof sql>, column: string, direction: 'asc' | 'desc') =>
    (await sql<{ id: number }>`select id from ${sql.table(table)} where ${where} order by ${sql.ref(column)} ${sql.raw(direction)}, id ${sql.raw(direction)}`.execute(db())).rows.map((row) => row.id);

  /** Forward from the first page to the last, then back to the first by prev_cursor: both ways must be the ORDER BY result. */
  const walk = async (base: string, perPage: number) => {
    const forward: number[][] = [];
    let current = await page(`${base}&pagination=cursor&per_page=${perPage}`);
    expect(current.pagination.has_prev_page).toBe(false);
    forward.push(current.records.map((r) => r.id));
    while (current.pagination.has_next_page) {
      // A list of 23 rows has at most 23 pages: more means the cursor did not move.
      expect(forward.length).toBeLessThan(25);
      current = await page(`${base}&per_page=${perPage}&after=${current.pagination.next_cursor}`);
      expect(current.pagination.has_prev_page).toBe(true);
      forward.push(current.records.map((r) => r.id));
    }
    expect(current.pagination.next_cursor).toBeNull();
    const backward: number[][] = [forward.at(-1)!];
    while (current.pagination.has_prev_page) {
      expect(backward.length).toBeLessThan(25);
      current = await page(`${base}&per_page=${perPage}&before=${current.pagination.prev_cursor}`);
      expect(current.pagination.has_next_page).toBe(true);
      backward.unshift(current.records.map((r) => r.id));
    }
    for (const ids of forward.slice(0, -1)) expect(ids).toHaveLength(perPage);
    return { forward: forward.flat(), backward: backward.flat(), pages: forward.length };
  };

  it('"exactly the ORDER BY result, no gap, no repeat": duplicates and NULLs (title, published_on, rating, id), both directions, every per_page 1–17, to the end and back', async () => {
    let walked = 0;
    for (const column of ['title', 'published_on', 'rating', 'id']) {
      for (const direction of ['asc', 'desc'] as const) {
        const order = await expected('blog_posts', sql`author_id = ${author}`, column, direction);
        expect(order).toHaveLength(23);
        for (let perPage = 1; perPage <= 17; perPage += 1) {
          const { forward, backward, pages } = await walk(`/blog_posts?filter[author_id]=${author}&fields=id&sort_by=${column}&sort_direction=${direction}`, perPage);
          expect(forward, `${column} ${direction} per_page ${perPage}`).toEqual(order);
          expect(backward, `${column} ${direction} per_page ${perPage}, back`).toEqual(order);
          expect(pages).toBe(Math.ceil(23 / perPage));
          walked += 1;
        }
      }
    }
    expect(walked).toBe(4 * 2 * 17);
  }, 300_000);

  it('"timestamps are compared at full (microsecond) precision", NULLs included: users a microsecond apart, every per_page 1–17, both directions', async () => {
    for (const direction of ['asc', 'desc'] as const) {
      const order = await expected('users', sql`name = 'Walker'`, 'created_at', direction);
      expect(order).toHaveLength(21);
      for (let perPage = 1; perPage <= 17; perPage += 1) {
        const { forward, backward } = await walk(`/users?filter[name]=Walker&fields=id,created_at&sort_by=created_at&sort_direction=${direction}`, perPage);
        expect(forward, `${direction} per_page ${perPage}`).toEqual(order);
        expect(backward, `${direction} per_page ${perPage}, back`).toEqual(order);
      }
    }
  }, 120_000);

  it('"concurrent inserts/deletes between pages (including the boundary row)": a deleted boundary row changes nothing, rows inserted past the cursor appear once, rows before it never', async () => {
    const base = `/blog_posts?filter[author_id]=${author}&fields=id,title&sort_by=title&sort_direction=asc&per_page=4`;
    const first = await page(`${base}&pagination=cursor`);
    const boundary = first.records.at(-1)!.id;
    const before = await db().insertInto('blog_posts').values({ title: 'Walk', author_id: author }).returning('id').executeTakeFirstOrThrow();
    const after = await db().insertInto('blog_posts').values({ title: 'Walk 9', author_id: author }).returning('id').executeTakeFirstOrThrow();
    // The boundary row goes; a row of the first page goes too.
    await db().deleteFrom('blog_posts').where('id', 'in', [boundary, first.records[0]!.id]).execute();
    const seen = first.records.map((r) => r.id);
    let current = await page(`${base}&after=${first.pagination.next_cursor}`);
    seen.push(...current.records.map((r) => r.id));
    while (current.pagination.has_next_page) {
      expect(seen.length).toBeLessThan(40);
      current = await page(`${base}&after=${current.pagination.next_cursor}`);
      seen.push(...current.records.map((r) => r.id));
    }
    const now = await expected('blog_posts', sql`author_id = ${author}`, 'title', 'asc');
    // Every row there throughout is seen exactly once; the one inserted past the cursor too; the one before it is not.
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain(after.id);
    expect(seen).not.toContain(before.id);
    expect(seen.filter((id) => !first.records.some((r) => r.id === id))).toEqual(now.filter((id) => id !== before.id && !first.records.some((r) => r.id === id)));
    await db().deleteFrom('blog_posts').where('id', 'in', [before.id, after.id]).execute();
  });

  it('"a tampered cursor, another actor\'s cursor or one minted for another query → 400 (the same text for forged and foreign)"; page with after, after with before → 400', async () => {
    const base = `/blog_posts?filter[published]=true&sort_by=title&per_page=3`;
    const { pagination } = await page(`${base}&pagination=cursor`);
    const cursor = pagination.next_cursor!;
    expect((await page(`${base}&after=${cursor}`)).records).toHaveLength(3);
    const [payload, signature] = cursor.split('.') as [string, string];
    const forgedPayload = Buffer.from(JSON.stringify(['a', 'Post 99', '999'])).toString('base64url');
    const flipped = `${payload}.${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
    const refusals = [
      [`${base}&after=${flipped}`, ADMIN],
      [`${base}&after=${forgedPayload}.${signature}`, ADMIN],
      [`${base}&after=not-a-cursor`, ADMIN],
      [`/blog_posts?filter[published]=false&sort_by=title&per_page=3&after=${cursor}`, ADMIN],
      [`/blog_posts?filter[published]=true&sort_by=published_on&per_page=3&after=${cursor}`, ADMIN],
      [`/blog_posts?filter[published]=true&sort_by=title&sort_direction=desc&per_page=3&after=${cursor}`, ADMIN],
      [`/blog_posts?filter[published]=true&q=Post&sort_by=title&per_page=3&after=${cursor}`, ADMIN],
      [`/comments?filter[published]=true&sort_by=title&per_page=3&after=${cursor}`, ADMIN],
      [`${base}&after=${cursor}`, READER],
    ] as const;
    for (const [url, actor] of refusals) {
      const response = await get(url, actor);
      expect(response.statusCode, url).toBe(400);
      if (!url.startsWith('/comments')) expect(response.json(), url).toEqual({ error: 'after is not a cursor of this list for this query and caller (it was altered, or made for another list, filter, search, order or caller): start again from pagination=cursor' });
    }
    // A next cursor is not a previous one.
    expect((await get(`${base}&before=${cursor}`)).json().error).toMatch(/^before is not a cursor of this list/);
    expect((await get(`${base}&page=2&after=${cursor}`)).json()).toEqual({ error: 'page cannot be sent in cursor mode (pagination=cursor, after or before): follow next_cursor and prev_cursor instead' });
    expect((await get(`${base}&after=${cursor}&before=${cursor}`)).json().error).toContain('after and before cannot be sent together');
    expect((await get(`${base}&pagination=pages`)).json().error).toBe('pagination must be "cursor" (page numbers are the default: leave it out), instead got "pages"');
    expect((await get(`${base}&include_total=exact`)).json().error).toContain('include_total applies to cursor pagination');
  });

  it('"hidden sort field = unknown": sorting users by created_at (admins only) in cursor mode is the reader\'s 400 of an unknown field', async () => {
    const hidden = await get('/users?pagination=cursor&sort_by=created_at', READER);
    const unknown = await get('/users?pagination=cursor&sort_by=no_such_field', READER);
    expect([hidden.statusCode, unknown.statusCode]).toEqual([400, 400]);
    expect(hidden.json().error.replace('"created_at"', '"?"')).toBe(unknown.json().error.replace('"no_such_field"', '"?"'));
    expect((await get('/users?pagination=cursor&sort_by=created_at')).statusCode).toBe(200);
  });

  it('"one list statement per page … no count unless include_total"; the page-number envelope unchanged; a Link header', async () => {
    const numbered = await countQueries(demo().database, () => get('/blog_posts?per_page=5&sort_by=title'));
    const first = await countQueries(demo().database, () => get('/blog_posts?pagination=cursor&per_page=5&sort_by=title'));
    const deep = await countQueries(demo().database, () => get(`/blog_posts?per_page=5&sort_by=title&after=${first.result.json().pagination.next_cursor}`));
    const counted = await countQueries(demo().database, () => get(`/blog_posts?per_page=5&sort_by=title&include_total=exact&pagination=cursor`));
    expect(Object.keys(numbered.result.json().pagination)).toEqual(['page', 'per_page', 'total_pages', 'total_count', 'has_next_page', 'has_prev_page']);
    // The page-number list is the page and its count; a cursor page is one statement, whatever its place.
    expect(first.count).toBe(numbered.count - 1);
    expect(deep.count).toBe(first.count);
    expect(counted.count).toBe(numbered.count);
    expect(first.statements.some((statement) => /\boffset\b/i.test(statement))).toBe(false);
    expect(counted.result.json().pagination.total_count).toBe(numbered.result.json().pagination.total_count);
    expect(deep.result.headers.link).toMatch(/^<\/api\/resources\/v1\/blog_posts\?per_page=5&sort_by=title&after=[\w-]+\.[\w-]+>; rel="next", <\/api\/resources\/v1\/blog_posts\?per_page=5&sort_by=title&before=[\w-]+\.[\w-]+>; rel="prev"$/);
  });

  it('"a Link header with rel=\\"next\\"": the next URL repeats the query as the server read it, even a value with an invalid percent-encoding (%FF, %E2%82), and following it answers the next page', async () => {
    for (const raw of ['%FF', '%E2%82', 'a%2Bb+c%FF', '100%25']) {
      const base = `/blog_posts?filter[title][ne]=${raw}&fields=id&sort_by=title`;
      const first = await get(`${base}&pagination=cursor&per_page=2`);
      expect(first.statusCode, first.body).toBe(200);
      const next = /^<([^>]+)>; rel="next"/.exec(first.headers.link as string)![1]!;
      const followed = await demo().app.inject({ method: 'GET', url: next, headers: ADMIN });
      expect(followed.statusCode, `${raw}: ${next}: ${followed.body}`).toBe(200);
      const direct = await page(`${base}&per_page=2&after=${first.json().pagination.next_cursor}`);
      expect(followed.json(), raw).toEqual(direct);
    }
  });

  it('an included to-many list\'s next URL is a cursor page this actor can follow, and it continues the embedded page', async () => {
    const post = (await page(`/blog_posts?filter[author_id]=${author}&per_page=1`)).records[0]!.id;
    await sql`insert into comments (body, blog_post_id) select 'Walk comment ' || i, ${post} from generate_series(1, 7) as i`.execute(db());
    const included = (await get(`/blog_posts/${post}?include=comments&include_per_page[comments]=3`)).json().record.comments;
    const seen = included.records.map((comment: { id: number }) => comment.id);
    let next: string | null = included.next;
    while (next !== null) {
      expect(seen.length).toBeLessThan(20);
      const response = await demo().app.inject({ method: 'GET', url: next, headers: ADMIN });
      expect(response.statusCode, response.body).toBe(200);
      seen.push(...response.json().records.map((comment: { id: number }) => comment.id));
      const cursor = response.json().pagination.next_cursor;
      next = cursor === null ? null : `${next.replace(/&after=.*$/, '')}&after=${cursor}`;
    }
    const all = (await db().selectFrom('comments').select('id').where('blog_post_id', '=', post).orderBy('id', 'desc').execute()).map((row) => row.id);
    expect(seen).toEqual(all);
    // The reader gets the same URL shape, but the admin's link is the admin's: the reader's request with it is a 400.
    expect((await demo().app.inject({ method: 'GET', url: included.next, headers: READER })).statusCode).toBe(400);
  });
});
