// The demo's count strategy through real HTTP: the exact count, reused while the database is
// unchanged (DEMO_COUNT; docs/scaling.md#an-exact-count-reused-while-the-database-is-unchanged).
import { CompiledQuery, sql } from 'kysely';
import { expect, it } from 'vitest';
import type { ExecutedQuery } from '@panel/core';
import { countQueries } from '@panel/test-support';
import { DEMO_COUNT } from '../src/build-app.js';
import { ADMIN, READER, describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';
const JSON_BODY = { ...ADMIN, 'content-type': 'application/json' };

describeOnEachDatabase('the demo\'s total_count: exact, its scan skipped while nothing has committed', (demo, kind) => {
  const total = async (url: string, headers: Record<string, string> = ADMIN) => {
    const response = await demo().app.inject({ method: 'GET', url, headers });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['panel-total-count'], 'an exact total carries no Panel-Total-Count header').toBeUndefined();
    return response.json().pagination.total_count as number;
  };
  /** What `count(*)` says now, straight from the database. */
  const counted = async (where: ReturnType<typeof sql>) => Number((await sql<{ n: string }>`select count(*) as n from blog_posts where ${where}`.execute(demo().database.db)).rows[0]!.n);

  it('the demo runs with { strategy: "exact", reuseUnchangedMs: 1000 }: its pages send the count that carries the snapshot', async () => {
    expect(DEMO_COUNT).toEqual({ strategy: 'exact', reuseUnchangedMs: 1_000 });
    expect(demo().panel.config.count).toEqual({ strategy: 'exact', reuseUnchangedMs: 1_000, maxEntries: 1_000 });
    const { statements } = await countQueries(demo().database, () => total(`${V1}/blog_posts?per_page=5`));
    const counts = statements.filter((statement) => statement.includes('pg_current_snapshot()'));
    expect(counts).toHaveLength(1);
    expect(counts[0]).toMatch(/^select case when not pg_is_in_recovery\(\) and pg_current_snapshot\(\)::text = \$\d+ then null else \(select count\(\*\) as "count" from "blog_posts" as "r"/);
  });

  it('"the rows it counted are the rows there are": after a write through the API, or made outside it in SQL, the next page\'s total_count is count(*) of that moment', async () => {
    const lists = [
      { url: `${V1}/blog_posts?filter[author_id]=3`, where: sql`author_id = 3` },
      { url: `${V1}/blog_posts?q=reuse`, where: sql`(title ilike '%reuse%' or summary ilike '%reuse%')` },
      { url: `${V1}/blog_posts`, where: sql`true` },
    ];
    const expectExact = async () => {
      for (const { url, where } of lists) {
        // Twice: the second may answer from the first one's count, and must say the same.
        expect(await total(url)).toBe(await counted(where));
        expect(await total(url)).toBe(await counted(where));
      }
    };
    await expectExact();
    const created = await demo().app.inject({ method: 'POST', url: `${V1}/blog_posts`, headers: JSON_BODY, payload: JSON.stringify({ blog_post: { title: 'Count reuse, through the API', author_id: 3 } }) });
    expect(created.statusCode, created.body).toBe(201);
    await expectExact();
    await sql`insert into blog_posts (title, author_id) values ('Count reuse, outside the API', 3)`.execute(demo().database.db);
    await expectExact();
    await sql`delete from blog_posts where title = 'Count reuse, outside the API'`.execute(demo().database.db);
    await expectExact();
    const destroyed = await demo().app.inject({ method: 'DELETE', url: `${V1}/blog_posts/${created.json().record.id}`, headers: ADMIN });
    expect(destroyed.statusCode, destroyed.body).toBe(200);
    await expectExact();
  });

  it('each actor\'s scope is its own count: the reader\'s total is not the admin\'s', async () => {
    const adminTotal = await total(`${V1}/blog_posts`);
    const readerTotal = await total(`${V1}/blog_posts`, READER);
    expect(readerTotal).toBe(await counted(sql`published or author_id = 2`));
    expect(readerTotal).toBeLessThan(adminTotal);
    expect(await total(`${V1}/blog_posts`)).toBe(adminTotal);
  });

  // PGlite runs in this process, so nothing commits between two requests unless the test does:
  // the second page's count is seen to carry the snapshot of the first (on the shared PostgreSQL
  // server other suites commit all the time, which the test above covers).
  if (kind === 'pglite') {
    it('a repeated page sends its count with the snapshot the previous count saw, and PostgreSQL skips the scan', async () => {
      const sent: ExecutedQuery[] = [];
      const stop = demo().database.onQuery((query) => {
        if (query.sql.includes('pg_current_snapshot()')) sent.push(query);
      });
      try {
        await total(`${V1}/blog_posts?filter[published]=true`);
        await total(`${V1}/blog_posts?filter[published]=true`);
      } finally {
        stop();
      }
      expect(sent).toHaveLength(2);
      const held = sent[1]!.parameters.at(-1);
      expect(held).toMatch(/^\d+:\d+:/);
      const { rows } = await demo().database.db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain (analyze, costs off, timing off, summary off) ${sent[1]!.sql}`, [...sent[1]!.parameters]));
      expect(rows.map((row) => row['QUERY PLAN']).find((line) => line.includes('Aggregate'))).toContain('never executed');
    });
  }
});
