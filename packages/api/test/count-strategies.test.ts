import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createPanel, type CountStrategyInput, type CreatePanelOptions, type PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { AUTHORIZED, LIBRARY_ROOT, buildLibraryApp, prepareLibrary } from './library-app.js';
import BookResource from './fixtures/library/app/panel/resources/book.js';
import AuthorResource from './fixtures/library/app/panel/resources/author.js';

const BOOKS = '/api/resources/v1/books';
const as = (user: number) => ({ 'x-user-id': String(user) });

/** The fixture's book resource with a count strategy of its own. */
function bookWithCount(count: unknown) {
  return class CountedBookResource extends BookResource {
    static override resourceName = 'Book';
    static override count = count as CountStrategyInput;
  };
}

for (const kind of testDatabaseKinds()) {
  describe(`count strategies: how an index page finds total_count [${kind}]`, () => {
    let database: PanelDatabase;

    /** The exact number of books a user's policy scope lets through (`owner_id = user`). */
    const trueCount = async (user: number) =>
      Number((await sql<{ count: string }>`select count(*) as count from books where owner_id = ${user}`.execute(database.db)).rows[0]!.count);

    /** The planner's estimate of the rows of that scope: `EXPLAIN (FORMAT JSON)`, never run. */
    const plannerRows = async (user: number) => {
      const { rows } = await sql<{ 'QUERY PLAN': unknown }>`explain (format json) select 1 from books as r where r.owner_id = ${user}`.execute(database.db);
      const plan = rows[0]!['QUERY PLAN'];
      const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: { 'Plan Rows': number } }[];
      return Math.round(parsed[0]!.Plan['Plan Rows']);
    };

    const index = async (options: Partial<CreatePanelOptions>, user: number, query = '') => {
      const { app } = await buildLibraryApp(database, { ...AUTHORIZED, ...options });
      try {
        const response = await app.inject({ method: 'GET', url: `${BOOKS}${query}`, headers: as(user) });
        expect(response.statusCode).toBe(200);
        const body = response.json() as { records: unknown[]; pagination: { total_count: number; total_pages: number; per_page: number } };
        return { ...body.pagination, records: body.records.length, header: response.headers['panel-total-count'] };
      } finally {
        await app.close();
      }
    };

    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareLibrary(database);
      // The planner's statistics below must stay as the test leaves them.
      await sql`alter table books set (autovacuum_enabled = false)`.execute(database.db);
      await sql`insert into books (title, owner_id) select 'Owned by 1, ' || i, 1 from generate_series(1, 300) as i`.execute(database.db);
      await sql`insert into books (title, owner_id) select 'Owned by 2, ' || i, 2 from generate_series(1, 100) as i`.execute(database.db);
      await sql`analyze books`.execute(database.db);
      // Rows the statistics have not seen: the estimates are off from here on, as after a bulk load.
      await sql`insert into books (title, owner_id) select 'Owned by 2 later, ' || i, 2 from generate_series(1, 400) as i`.execute(database.db);
    });
    afterAll(async () => database?.close());

    it('"total_count: the total number of records" — by default an exact count(*) through the scope, and no Panel-Total-Count header', async () => {
      const page = await index({}, 1);
      expect(page.total_count).toBe(await trueCount(1));
      expect(page.total_count).toBe(302);
      expect(page.total_pages).toBe(Math.ceil(302 / page.per_page));
      expect(page.header).toBeUndefined();
      expect((await index({ count: 'exact' }, 2)).total_count).toBe(await trueCount(2));
    });

    it("estimate: at or above exactBelow, total_count is the planner's estimate of the rows the scope lets through, and Panel-Total-Count says estimate", async () => {
      const estimate = await plannerRows(1);
      expect(estimate).toBeGreaterThanOrEqual(50);
      // The statistics predate 400 rows: the estimate is not the true count.
      expect(estimate).not.toBe(await trueCount(1));
      const page = await index({ count: { strategy: 'estimate', exactBelow: 50 } }, 1);
      expect(page.total_count).toBe(estimate);
      expect(page.total_pages).toBe(Math.ceil(estimate / page.per_page));
      expect(page.header).toBe('estimate');
    });

    it('estimate: each policy scope is estimated on its own', async () => {
      const [one, two] = [await plannerRows(1), await plannerRows(2)];
      expect(one).not.toBe(two);
      expect((await index({ count: { strategy: 'estimate', exactBelow: 50 } }, 1)).total_count).toBe(one);
      expect((await index({ count: { strategy: 'estimate', exactBelow: 50 } }, 2)).total_count).toBe(two);
    });

    it('estimate: below exactBelow (default 100,000), the exact count — small lists stay exact', async () => {
      expect(await plannerRows(1)).toBeLessThan(100_000);
      for (const count of ['estimate', { strategy: 'estimate' }, { strategy: 'estimate', exactBelow: 100_000 }] as const) {
        const page = await index({ count }, 1);
        expect(page.total_count).toBe(await trueCount(1));
        expect(page.header).toBeUndefined();
      }
    });

    it('estimate: a page shorter than per_page ends the list, so the total is exact there', async () => {
      const truth = await trueCount(1);
      const last = Math.ceil(truth / 100);
      const page = await index({ count: { strategy: 'estimate', exactBelow: 0 } }, 1, `?per_page=100&page=${last}`);
      expect(page.records).toBe(truth - 100 * (last - 1));
      expect(page.records).toBeLessThan(100);
      expect(page.total_count).toBe(truth);
      expect(page.header).toBeUndefined();
    });

    it("a resource's static count overrides the panel's count option", async () => {
      const resources = [bookWithCount('exact'), AuthorResource];
      const page = await index({ resources, count: { strategy: 'estimate', exactBelow: 0 } }, 1);
      expect(page.total_count).toBe(await trueCount(1));
      expect(page.header).toBeUndefined();
      const estimated = await index({ resources: [bookWithCount({ strategy: 'estimate', exactBelow: 0 }), AuthorResource] }, 1);
      expect(estimated.header).toBe('estimate');
      expect(estimated.total_count).toBe(await plannerRows(1));
    });

    it('cached: an exact count is reused while it is at most maxAgeMs old, per scope, then counted again', async () => {
      let now = 1_000_000;
      const { app } = await buildLibraryApp(database, { ...AUTHORIZED, count: { strategy: 'cached', maxAgeMs: 10_000, now: () => now } });
      const get = async (user: number) => {
        const response = await app.inject({ method: 'GET', url: BOOKS, headers: as(user) });
        return { total: (response.json() as { pagination: { total_count: number } }).pagination.total_count, header: response.headers['panel-total-count'] };
      };
      try {
        const before = await trueCount(1);
        expect(await get(1)).toEqual({ total: before, header: undefined });
        // A row written behind this process's back (another process, a console).
        await sql`insert into books (title, owner_id) values ('Written elsewhere', 1)`.execute(database.db);
        now += 10_000;
        expect(await get(1)).toEqual({ total: before, header: 'cached' });
        // Another scope is another count.
        expect(await get(2)).toEqual({ total: await trueCount(2), header: undefined });
        now += 1;
        expect(await get(1)).toEqual({ total: before + 1, header: undefined });
        expect(await get(1)).toEqual({ total: before + 1, header: 'cached' });
      } finally {
        await app.close();
      }
    });

    it('cached: a write through this process drops the counts of its table', async () => {
      const { app } = await buildLibraryApp(database, { ...AUTHORIZED, count: { strategy: 'cached', maxAgeMs: 3_600_000, now: () => 0 } });
      const total = async () => (await app.inject({ method: 'GET', url: BOOKS, headers: as(1) })).json().pagination.total_count as number;
      try {
        const before = await total();
        expect(await total()).toBe(before);
        const created = await app.inject({ method: 'POST', url: BOOKS, headers: as(1), payload: { book: { title: 'Written here', owner_id: 1 } } });
        expect(created.statusCode).toBe(201);
        expect(await total()).toBe(before + 1);
        expect(before + 1).toBe(await trueCount(1));
      } finally {
        await app.close();
      }
    });

    it('a count option the panel cannot use fails at boot, naming the option and the fix', async () => {
      const boot = (options: Partial<CreatePanelOptions>) => createPanel({ database, appRoot: LIBRARY_ROOT, ...AUTHORIZED, ...options });
      await expect(boot({ count: 'fast' as never })).rejects.toThrow(/^Panel config: count must be 'exact', 'estimate'.*instead got "fast"\. Fix: /);
      await expect(boot({ count: { strategy: 'cached' } as never })).rejects.toThrow(/count\.maxAgeMs must be a whole number of at least 1, instead got undefined\. Fix: set maxAgeMs/);
      await expect(boot({ count: { strategy: 'estimate', exactBelow: -1 } })).rejects.toThrow(/count\.exactBelow must be a whole number of at least 0, instead got -1/);
      await expect(boot({ count: { strategy: 'estimate', maxAgeMs: 5 } as never })).rejects.toThrow(/count has the option "maxAgeMs", which the 'estimate' strategy does not take.*Fix: use only strategy, exactBelow/);
      await expect(boot({ count: { strategy: 'cached', maxAgeMs: 1000, now: 5 } as never })).rejects.toThrow(/count\.now must be a function/);
      await expect(boot({ resources: [bookWithCount({ strategy: 'sometimes' }), AuthorResource] })).rejects.toThrow(/^Panel config: CountedBookResource\.count needs strategy 'exact', 'estimate' or 'cached'/);
    });
  });
}
