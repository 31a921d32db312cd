// Querying in Edition B through real HTTP on the demo (`buildDemoApp({ edition: 'B' })`).
import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';

describeOnEachDatabase('querying in Edition B: grants decide which association keys may be filtered or selected', (demo) => {
  const bearer = (name: string) => ({ authorization: `Bearer ${demo().tokenSecrets!.get(name)!}` });
  const get = (url: string, name: string) => demo().app.inject({ method: 'GET', url, headers: bearer(name) });

  it('"in Edition B never an association key the actor may not see": filter[author_id] without a grant on users is the 400 of an unknown field', async () => {
    // The writer token reads blog_posts but not users: the `author` key is omitted from its records.
    const refused = await get(`${V1}/blog_posts?filter[author_id]=1`, 'writer');
    const unknown = await get(`${V1}/blog_posts?filter[no_such_id]=1`, 'writer');
    expect(refused.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(400);
    // view_count is not listed: its visible rule (admins and the post's author) reads the record, so no token actor may filter by it.
    const filterable = 'filterable: id, title, published, published_on, rating';
    expect(refused.json()).toEqual({ error: `filter[author_id]: blog_posts has no filterable field "author_id" (${filterable})` });
    expect(unknown.json()).toEqual({ error: `filter[no_such_id]: blog_posts has no filterable field "no_such_id" (${filterable})` });
    // The token with every grant may filter on it.
    const allowed = await get(`${V1}/blog_posts?per_page=100&filter[author_id]=1`, 'all');
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().records.every((post: { author: { id: number } }) => post.author.id === 1)).toBe(true);
  });

  it('"… so it cannot be filtered or selected either": fields=author without the grant is the 400 of an unknown field, on index and show', async () => {
    const index = await get(`${V1}/blog_posts?fields=title,author`, 'writer');
    expect(index.statusCode).toBe(400);
    expect(index.json().error).toBe('fields: blog_posts has no field "author" here (fields: id, title, published, published_on, rating, cover, attachments)');
    const show = await get(`${V1}/blog_posts/6?fields=comments`, 'writer');
    expect(show.statusCode).toBe(400);
    expect(show.json().error).toMatch(/^fields: blog_posts has no field "comments" here \(fields: id, title, summary, body, published, published_on, rating, cover, attachments, created_at\)$/);
    const mine = await get(`${V1}/blog_posts/6?fields=title,cover`, 'writer');
    expect(mine.statusCode).toBe(200);
    expect(Object.keys(mine.json().record)).toEqual(['id', 'title', 'cover']);
  });

  it('"On … Edition B\'s GET …/:id/<association>": traversal takes filters, q and fields on the target\'s index view', async () => {
    const all = (await get(`${V1}/users/1/blog_posts?per_page=100`, 'all')).json().records as { id: number; published: boolean; title: string }[];
    expect(all.length).toBeGreaterThan(2);
    const filtered = await get(`${V1}/users/1/blog_posts?per_page=100&filter[published]=false&fields=title,published`, 'all');
    expect(filtered.statusCode).toBe(200);
    expect(filtered.json().records.map((r: { id: number }) => r.id)).toEqual(all.filter((p) => p.published === false).map((p) => p.id));
    for (const record of filtered.json().records) expect(Object.keys(record)).toEqual(['id', 'title', 'published']);
    expect(filtered.json().pagination.total_count).toBe(all.filter((p) => p.published === false).length);
    const word = all[0]!.title.split(' ').at(-1)!;
    const searched = await get(`${V1}/users/1/blog_posts?per_page=100&q=${encodeURIComponent(word)}&fields=title`, 'all');
    expect(searched.json().records.map((r: { title: string }) => r.title)).toEqual(all.filter((p) => p.title.toLowerCase().includes(word.toLowerCase())).map((p) => p.title));
    const wrong = await get(`${V1}/users/1/blog_posts?filter[body]=x&fields=body`, 'all');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatch(/^filter\[body\]: blog_posts has no filterable field "body" .*; fields: blog_posts has no field "body" here/);
  });

  it('traversal to comments with the reader token: the user key (no grant on users) can be neither filtered nor selected, the blog_post key can', async () => {
    const refused = await get(`${V1}/blog_posts/1/comments?filter[user_id]=1&fields=user`, 'reader');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('filter[user_id]: comments has no filterable field "user_id" (filterable: id, body, blog_post_id); fields: comments has no field "user" here (fields: id, body, blog_post)');
    const allowed = await get(`${V1}/blog_posts/1/comments?filter[blog_post_id]=1&fields=blog_post`, 'reader');
    expect(allowed.statusCode).toBe(200);
    for (const record of allowed.json().records) expect(record).toEqual({ id: record.id, blog_post: { id: 1, label: 'Post 01: Games' } });
  });

  it('"a field the caller may not read can be neither filtered, searched nor selected": a cursor of the users list (ordered by created_at, which only admins read) does not tell the boundary row\'s created_at', async () => {
    const db = demo().database.db;
    // Users created a microsecond, a second and a year apart, besides the demo's.
    const made = await sql<{ id: number }>`insert into users (name, email, password_digest, created_at)
      select 'Cursor ' || i, 'cursor' || i || '@example.com', 'x', timestamptz '2025-05-01 12:00:00.123456+00' + (i * interval '1 microsecond') + ((i % 2) * interval '1 second') + ((i / 3) * interval '1 year')
      from generate_series(1, 4) as i returning id`.execute(db);
    try {
      expect((await get(`${V1}/users?fields=created_at`, 'all')).statusCode).toBe(400);
      let current = (await get(`${V1}/users?pagination=cursor&per_page=1&fields=id`, 'all')).json();
      const cursors: string[] = [];
      while (current.pagination.has_next_page) {
        expect(cursors.length).toBeLessThan(20);
        const boundary = current.records[0].id as number;
        const { created_at: stored } = (await sql<{ created_at: string }>`select created_at::text from users where id = ${boundary}`.execute(db)).rows[0]!;
        const cursor = current.pagination.next_cursor as string;
        // Whatever part is decoded, and however: no trace of the value, nor of any date.
        for (const part of cursor.split('.')) {
          const bytes = Buffer.from(part, 'base64url');
          for (const text of [bytes.toString('utf8'), bytes.toString('latin1')]) {
            expect(text, stored).not.toContain(stored.slice(0, 10));
            expect(text, stored).not.toMatch(/\d{4}-\d{2}-\d{2}/);
          }
        }
        cursors.push(cursor);
        const response = await get(`${V1}/users?per_page=1&fields=id&after=${cursor}`, 'all');
        expect(response.statusCode, response.body).toBe(200);
        current = response.json();
        expect(current.records[0].id).not.toBe(boundary);
      }
      expect(cursors.length).toBe(6);
      // Boundary rows created at different times, with and without fractions of a second: the cursors' lengths tell nothing either.
      expect(new Set(cursors.map((cursor) => cursor.length)).size).toBe(1);
    } finally {
      await db.deleteFrom('users').where('id', 'in', made.rows.map((row) => row.id)).execute();
    }
  });
}, { edition: 'B' });
