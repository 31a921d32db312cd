// `include` through real HTTP on the demo (design: shared/designs/related-reads.md, "Contract: include"):
// scope indistinguishability, field-rule parity with the target's show, constant statements,
// the budget and depth refused before any data statement, ETags per actor.
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { countQueries } from '@panel/test-support';
import { ADMIN, READER, describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';
type Headers = Record<string, string>;
type Json = Record<string, any>;

/** The demo's data tables: a statement naming none of them reads no record. */
const DATA_TABLE = /\b(blog_posts|comments|users|profiles|tags|blog_posts_tags)\b/;

describeOnEachDatabase('include on list and show', (demo) => {
  const get = (url: string, headers: Headers = ADMIN) => demo().app.inject({ method: 'GET', url: `${V1}${url}`, headers });
  const ok = async (url: string, headers: Headers = ADMIN): Promise<Json> => {
    const response = await get(url, headers);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json();
  };
  const db = () => demo().database.db;
  /** Authors made for the census: each has 100 posts, and each post of author `children[c]` has `c` comments. */
  const authors = new Map<number, number>();

  beforeAll(async () => {
    for (const children of [0, 1, 500]) {
      const { id } = await db().insertInto('users').values({ name: `Census ${children}`, email: `census-${children}@example.com`, password_digest: 'x', admin: false }).returning('id').executeTakeFirstOrThrow();
      authors.set(children, id);
      await sql`insert into blog_posts (title, published, published_on, author_id) select 'Census ' || ${children} || ' #' || i, true, date '2026-01-01', ${id} from generate_series(1, 100) as i`.execute(db());
      if (children > 0) await sql`insert into comments (body, blog_post_id, user_id) select 'Census comment ' || c, p.id, ${id} from blog_posts p, generate_series(1, ${children}) as c where p.author_id = ${id}`.execute(db());
    }
  });

  it('"without include every answer is byte-identical to today\'s": the keys of a post and its association values are unchanged, and no Include-Cost', async () => {
    const plain = await get('/blog_posts/3');
    expect(plain.headers['include-cost']).toBeUndefined();
    expect(plain.json().record.author).toEqual({ id: 1, label: 'Ada Admin' });
    expect(plain.json().record.comments).toEqual({ count: 1 });
  });

  it('"belongs_to / has_one: { id, label, record }; has_many / habtm: { count, records, has_more, next }", each path implying its prefixes, with Include-Cost', async () => {
    const response = await get('/blog_posts/3?include=comments.user,tag_list&include_fields[comments.user]=id,name');
    expect(response.statusCode, response.body).toBe(200);
    // comments: 1 × 5; comments.user: 1 × 5 × 1; tag_list: 1 × 5.
    expect(response.headers['include-cost']).toBe('15');
    const { record } = response.json();
    expect(record.comments.count).toBe(1);
    expect(record.comments.records).toHaveLength(1);
    expect(record.comments.records[0].user.record).toEqual({ id: record.comments.records[0].user.id, name: record.comments.records[0].user.label });
    expect(record.comments).toMatchObject({ has_more: false, next: null });
    expect(record.tag_list.records.map((tag: Json) => tag.id).sort()).toEqual([4]);
  });

  it('"include_per_page[…]" and "include_sort_by[…]": a post\'s 500 comments come 3 at a time in the order asked, has_more and a next URL', async () => {
    const [post] = (await ok(`/blog_posts?filter[author_id]=${authors.get(500)}&per_page=1&sort_by=id&include=comments&include_per_page[comments]=3&include_sort_by[comments]=id&include_sort_direction[comments]=desc`)).records;
    const ids = (await db().selectFrom('comments').select('id').where('blog_post_id', '=', post.id).orderBy('id', 'desc').limit(3).execute()).map((row) => row.id);
    expect(post.comments.count).toBe(500);
    expect(post.comments.records.map((comment: Json) => comment.id)).toEqual(ids);
    expect(post.comments.has_more).toBe(true);
    expect(post.comments.next).toMatch(new RegExp(`^/api/resources/v1/comments\\?per_page=3&sort_direction=desc&filter%5Bblog_post_id%5D=${post.id}&after=`));
  });

  describe('"record is null when the key is null, the target row is gone, or the target is outside the actor\'s scope — the three are indistinguishable"', () => {
    it('a post whose author the reader may not read and one whose author is gone answer identical bytes (and ETags); a null key answers null', async () => {
      // The reader's scope of users is herself; a published post by a user she cannot see.
      const { id: userId } = await db().insertInto('users').values({ name: 'Gone Soon', email: 'gone@example.com', password_digest: 'x', admin: false }).returning('id').executeTakeFirstOrThrow();
      const { id: postId } = await db().insertInto('blog_posts').values({ title: 'Orphan to be', published: true, published_on: '2026-01-02', author_id: userId }).returning('id').executeTakeFirstOrThrow();
      const url = `/blog_posts/${postId}?include=author,author.profile`;
      const outOfScope = await get(url, READER);
      expect(outOfScope.statusCode).toBe(200);
      expect(outOfScope.json().record.author).toEqual({ id: userId, label: null, record: null });
      // The admin sees the author: the reader's null is the scope's doing.
      expect((await ok(url)).record.author.record).toMatchObject({ id: userId, name: 'Gone Soon' });
      // The author row disappears under the post (the demo's foreign key would refuse; a legacy table has none).
      await sql`alter table blog_posts drop constraint if exists blog_posts_author_id_fkey`.execute(db());
      await db().deleteFrom('users').where('id', '=', userId).execute();
      const missing = await get(url, READER);
      expect(missing.statusCode).toBe(200);
      expect(missing.body).toBe(outOfScope.body);
      expect(missing.headers.etag).toBe(outOfScope.headers.etag);
      await db().updateTable('blog_posts').set({ author_id: null }).where('id', '=', postId).execute();
      expect((await ok(url, READER)).record.author).toBeNull();
      await db().deleteFrom('blog_posts').where('id', '=', postId).execute();
    });

    it('a to-many list holds only the records in the actor\'s scope: tag 2\'s posts are 1, 5 and 9; post 5 is unpublished and not the reader\'s', async () => {
      const url = '/tags/2?include=blog_posts&include_sort_by[blog_posts]=id';
      const admin = (await ok(url)).record.blog_posts;
      const reader = (await ok(url, READER)).record.blog_posts;
      expect(admin.records.map((post: Json) => post.id)).toEqual([1, 5, 9]);
      expect(reader.records.map((post: Json) => post.id)).toEqual([1, 9]);
      expect([admin.count, reader.count]).toEqual([3, 2]);
    });
  });

  it('"Each included record is serialized exactly as the target\'s own show endpoint would for this actor": for the admin and the reader, every included user, comment and post equals its show restricted to the same keys', async () => {
    for (const actor of [ADMIN, READER]) {
      const page = await ok('/comments?per_page=40&sort_by=id&include=user,blog_post&include_fields[blog_post]=id,title,summary,body,author,published,created_at', actor);
      let compared = 0;
      for (const comment of page.records) {
        for (const [key, route] of [['user', 'users'], ['blog_post', 'blog_posts']] as const) {
          const included = comment[key]?.record;
          const show = await get(`/${route}/${comment[key].id}`, actor);
          if (included === null) {
            expect(show.statusCode).toBe(404);
            continue;
          }
          const expected = show.json().record;
          // The keys the include asked for, as the show answers them.
          expect(included).toEqual(Object.fromEntries(Object.keys(included).map((name) => [name, expected[name]])));
          if (key === 'blog_post') expect(Object.keys(included).sort()).toEqual(['author', 'body', 'created_at', 'id', 'published', 'summary', 'title']);
          compared += 1;
        }
      }
      expect(compared).toBeGreaterThan(40);
    }
    // A field the reader may not read on every post is refused in include_fields exactly like an unknown one.
    const hidden = await get('/comments?include=user&include_fields[user]=created_at', READER);
    const unknown = await get('/comments?include=user&include_fields[user]=nope', READER);
    expect([hidden.statusCode, unknown.statusCode]).toEqual([400, 400]);
    expect(hidden.json().error.replace('"created_at"', '"?"')).toBe(unknown.json().error.replace('"nope"', '"?"'));
  });

  it('"Statements: the request\'s statements without include, plus one per path, whatever the number of rows": per_page 1/25/100 × 0/1/500 children × 0–5 paths', async () => {
    const paths = ['author', 'comments', 'comments.user', 'tag_list', 'author.profile'];
    const census: string[] = [];
    for (const perPage of [1, 25, 100]) {
      for (const children of [0, 1, 500]) {
        const base = `/blog_posts?filter[author_id]=${authors.get(children)}&per_page=${perPage}&sort_by=id`;
        await get(base);
        const without = await countQueries(demo().database, () => get(base));
        for (let count = 0; count <= paths.length; count += 1) {
          const url = count === 0 ? base : `${base}&include=${paths.slice(0, count).join(',')}`;
          const { result, count: statements } = await countQueries(demo().database, () => get(url));
          expect(result.statusCode, result.body).toBe(200);
          expect(statements, url).toBe(without.count + count);
          if (count >= 2 && children === 500) expect(result.json().records[0].comments.records).toHaveLength(5);
        }
        census.push(`per_page ${perPage}, ${children} children: ${without.count} + paths`);
      }
    }
    expect(census).toHaveLength(9);
  }, 300_000);

  it('"budget and depth refused with zero data statements": over the budget, too deep, too many paths — 400 naming the parameter, and only the statements of a request refused for a bad sort_by (the current user\'s)', async () => {
    const refused = await countQueries(demo().database, () => get('/blog_posts?sort_by=nope'));
    expect(refused.result.statusCode).toBe(400);
    for (const [url, words] of [
      ['/blog_posts?per_page=100&include=comments,comments.user&include_per_page[comments]=20', 'at most 2500'],
      ['/blog_posts?include=comments.user.profile', 'levels deep; at most 2'],
      ['/blog_posts?include=author,author.profile,comments,comments.user,comments.blog_post,tag_list', 'at most 5'],
      ['/blog_posts?include=author&include_per_page[author]=3', 'to-one association'],
    ] as const) {
      const { result, statements } = await countQueries(demo().database, () => get(url));
      expect(result.statusCode, url).toBe(400);
      expect(result.json().error).toContain(words);
      expect(statements, url).toEqual(refused.statements);
      expect(statements.filter((statement) => DATA_TABLE.test(statement) && !statement.startsWith('select "id", "name", "admin" from "users"')), url).toEqual([]);
    }
  });

  it('"ETags … two actors with different visibility never share an ETag"; "the ETag covers the included records (it changes when an included record changes)"', async () => {
    const url = '/blog_posts/3?include=author';
    const [admin, reader] = [await get(url), await get(url, READER)];
    expect(admin.json().record.author.record).not.toBeNull();
    expect(reader.json().record.author.record).toBeNull();
    expect(admin.headers.etag).not.toBe(reader.headers.etag);
    // The reader's If-None-Match with the admin's tag is no 304.
    expect((await demo().app.inject({ method: 'GET', url: `${V1}${url}`, headers: { ...READER, 'if-none-match': admin.headers.etag as string } })).statusCode).toBe(200);
    await db().updateTable('users').set({ name: 'Ada A. Admin' }).where('id', '=', 1).execute();
    const changed = await get(url);
    expect(changed.headers.etag).not.toBe(admin.headers.etag);
    // A comment's body is in no association value: it moves the tag of the answer that includes it, not the plain one.
    await db().updateTable('users').set({ name: 'Ada Admin' }).where('id', '=', 1).execute();
    const before = await get('/blog_posts/3?include=comments');
    const plainBefore = await get('/blog_posts/3');
    await db().updateTable('comments').set({ body: 'Edited' }).where('blog_post_id', '=', 3).execute();
    expect((await get('/blog_posts/3?include=comments')).headers.etag).not.toBe(before.headers.etag);
    expect((await get('/blog_posts/3')).headers.etag).toBe(plainBefore.headers.etag);
  });

  it('an unknown, hidden or not-includable path is one 400 naming every problem; include options without include are refused, never ignored', async () => {
    const response = await get('/blog_posts?include=nope,author.x');
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('include: blog_posts has no includable association "nope" (includable: author, comments, tag_list); include: users has no includable association "x" (in "author.x") (includable: blog_posts, profile)');
    const stray = await get('/blog_posts?include_fields[author]=id');
    expect(stray.json()).toEqual({ error: 'include_fields[author]: there is no include' });
    const notInFields = await get('/blog_posts?fields=title&include=author');
    expect(notInFields.json()).toEqual({ error: 'include: "author" is not among fields (add it to fields, or leave fields out)' });
  });
});

describeOnEachDatabase('include on the answers of create and update', (demo) => {
  const send = (method: 'POST' | 'PATCH', url: string, body: unknown, headers: Headers = ADMIN) =>
    demo().app.inject({ method, url: `${V1}${url}`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const get = (url: string, headers: Headers = ADMIN) => demo().app.inject({ method: 'GET', url: `${V1}${url}`, headers });
  const comments = async () => Number((await sql<{ n: string }>`select count(*)::text as n from comments`.execute(demo().database.db)).rows[0]!.n);

  it('"On list, show, association traversal, and the answers of create and update": a created comment answers its user and post as their shows do, at one statement per path', async () => {
    const body = { comment: { body: 'With its author', blog_post_id: 3, user_id: 2 } };
    const plain = await countQueries(demo().database, () => send('POST', '/comments', body));
    const included = await countQueries(demo().database, () => send('POST', '/comments?include=user,blog_post', body));
    const [without, answer] = [await plain.result, await included.result];
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.headers['include-cost']).toBe('2');
    const { record } = answer.json();
    // Each included record equals the target's show for this actor, on the keys the include gives.
    const user = (await get('/users/2')).json().record;
    expect(record.user).toMatchObject({ id: 2, label: user.name });
    for (const [key, value] of Object.entries(record.user.record)) expect(user[key], `user.${key}`).toEqual(value);
    const post = (await get('/blog_posts/3')).json().record;
    for (const [key, value] of Object.entries(record.blog_post.record)) expect(post[key], `blog_post.${key}`).toEqual(value);
    // The same answer without include, plus the two paths.
    expect(Object.keys(without.json().record).sort()).toEqual(Object.keys(record).sort());
    // (The write and its include statements share one transaction: its begin and commit are no data statements.)
    expect(included.statements.filter((statement) => !/^(begin|commit)$/i.test(statement)).length).toBe(plain.count + 2);
  });

  it('an update answers a to-many path with the written record\'s rows, as a show does', async () => {
    const response = await send('PATCH', '/blog_posts/3?include=comments&include_per_page[comments]=1&include_sort_by[comments]=id&include_sort_direction[comments]=asc', { blog_post: { title: 'Edited, with its comments' } });
    expect(response.statusCode, response.body).toBe(200);
    const { record } = response.json();
    expect(record.title).toBe('Edited, with its comments');
    const shown = (await get('/blog_posts/3?include=comments&include_per_page[comments]=1&include_sort_by[comments]=id&include_sort_direction[comments]=asc')).json().record;
    expect(record.comments).toEqual(shown.comments);
    expect(record.comments.records).toHaveLength(1);
  });

  it('"a bad include is the 400 of a show, and nothing is written": an unknown path and a budget over the limit refuse the create before it writes', async () => {
    const before = await comments();
    const unknown = await send('POST', '/comments?include=nope', { comment: { body: 'Never written', blog_post_id: 3, user_id: 2 } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual((await get('/comments/1?include=nope')).json());
    const update = await send('PATCH', '/blog_posts/3?include=comments&include_per_page[comments]=99', { blog_post: { title: 'Never written either' } });
    expect(update.statusCode).toBe(400);
    expect(await comments()).toBe(before);
    expect((await get('/blog_posts/3')).json().record.title).not.toBe('Never written either');
  });
});
