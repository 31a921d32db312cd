// Issue 42, M2: "search, filters, sort and fields ask one deciding function per actor and view; a
// field the actor does not read on the list's view answers like an unknown field". A property over
// random actors × grants × modifiers (Edition B tokens with random grants, and Edition A's people):
// no modifier matches a field the actor does not read on GET /blog_posts.
import { expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import { ADMIN, READER, describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';
const GRANTS = ['blog_posts:show', 'users:index', 'users:show', 'comments:index', 'tags:index', 'blog_posts:update'] as const;
type Modifier = 'filter' | 'sort' | 'fields' | 'search';

describeOnEachDatabase(
  'one deciding function for every list modifier (Edition B)',
  (demo) => {
    const get = (url: string, authorization: string) => demo().app.inject({ method: 'GET', url: `${V1}${url}`, headers: { authorization } });

    it('for random tokens × grants × modifiers × fields: a field the token does not read on the list is refused like an unknown field (filter, sort_by, fields) and never matched by q', async () => {
      const resource = demo().panel.resource('BlogPost');
      // A word of a post's body (the body is read on show only) that no title or summary holds.
      const { rows } = await sql<{ body: string }>`select body from blog_posts where body is not null`.execute(demo().database.db);
      const listed = await sql<{ text: string }>`select coalesce(title, '') || ' ' || coalesce(summary, '') as text from blog_posts`.execute(demo().database.db);
      const words = [...new Set(rows.flatMap((row) => row.body.split(/\W+/u)).filter((word) => word.length > 3))].filter((word) => !listed.rows.some((row) => row.text.toLowerCase().includes(word.toLowerCase())));
      expect(words.length).toBeGreaterThan(0);
      let made = 0;
      await fc.assert(
        fc.asyncProperty(fc.subarray([...GRANTS]), fc.constantFrom<Modifier>('filter', 'sort', 'fields', 'search'), fc.constantFrom(...resource.fields), fc.constantFrom(...words), async (grants, modifier, field, word) => {
          made += 1;
          const { secret } = await demo().tokens!.create({ name: `property ${made}`, grants: ['blog_posts:index', ...grants], createdById: 1 });
          const authorization = `Bearer ${secret}`;
          const list = await get('/blog_posts?per_page=100', authorization);
          expect(list.statusCode).toBe(200);
          const read = new Set((list.json().records as Record<string, unknown>[]).flatMap((record) => Object.keys(record)));
          if (modifier === 'search') {
            const searched = await get(`/blog_posts?per_page=100&q=${encodeURIComponent(word)}`, authorization);
            expect(searched.json().pagination.total_count, `q=${word} with ${grants.join(',')}`).toBe(0);
            return;
          }
          if (read.has(field.name)) return;
          const url = modifier === 'filter' ? `/blog_posts?filter[${field.writeKey}]=1` : modifier === 'sort' ? `/blog_posts?sort_by=${field.name}` : `/blog_posts?fields=${field.name}`;
          const unknown = modifier === 'filter' ? '/blog_posts?filter[no_such_field]=1' : modifier === 'sort' ? '/blog_posts?sort_by=no_such_field' : '/blog_posts?fields=no_such_field';
          const [refused, control] = [await get(url, authorization), await get(unknown, authorization)];
          expect(refused.statusCode, `${url} with ${grants.join(',')}`).toBe(400);
          expect(control.statusCode).toBe(400);
        }),
        { numRuns: 40, seed: 4242 },
      );
    }, 120_000);
  },
  { edition: 'B' },
);

describeOnEachDatabase('one deciding function for every list modifier (Edition A)', (demo) => {
  it('q never matches the body (on show only) for the admin, the reader or an anonymous client of a public list', async () => {
    const { rows } = await sql<{ body: string; title: string }>`select body, title from blog_posts where body is not null and published order by id limit 1`.execute(demo().database.db);
    const listed = await sql<{ text: string }>`select coalesce(title, '') || ' ' || coalesce(summary, '') as text from blog_posts`.execute(demo().database.db);
    const word = rows[0]!.body.split(/\W+/u).find((candidate) => candidate.length > 3 && !listed.rows.some((row) => row.text.toLowerCase().includes(candidate.toLowerCase())));
    expect(word).toBeDefined();
    for (const headers of [ADMIN, READER]) {
      const response = await demo().app.inject({ method: 'GET', url: `${V1}/blog_posts?q=${encodeURIComponent(word!)}`, headers });
      expect(response.json().pagination.total_count).toBe(0);
    }
  });
});
