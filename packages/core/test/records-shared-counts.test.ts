import { expect, it } from 'vitest';
import { countQueries } from '@panel/test-support';
import type { ScopeFunction } from '@panel/core';
import { describeOnEachDatabase, type Library } from './fixtures/library-database.js';
import { insertRows } from './fixtures/library-schema.js';

async function seed({ db }: Library): Promise<void> {
  await insertRows(db, 'authors', [{ name: 'ann' }, { name: 'bob' }]);
  await insertRows(db, 'books', Array.from({ length: 30 }, (_, i) => ({ title: `book ${i}`, published: i % 2 === 0, author_id: 1 + (i % 2) })));
}

/**
 * An index page's count is shared by the identical counts other requests ask for while it
 * waits to start, never with one already running: each count still starts after its request.
 */
describeOnEachDatabase('the shared count of concurrent index pages', (library) => {
  const page = (page: number, scope?: ScopeFunction) =>
    library().records.list({ resource: library().resource('Book'), view: 'index', page, perPage: 5, sort: { column: 'id', direction: 'asc' }, scope });
  const counts = (statements: readonly string[]) => statements.filter((statement) => statement.startsWith('select count(*)')).length;

  it('counts twice for five concurrent pages of the same list (one running, one shared by the four that arrived meanwhile)', async () => {
    const { result, statements } = await countQueries(library().database, () => Promise.all([1, 2, 3, 4, 5].map((n) => page(n))));
    expect(result.map((answer) => answer.totalCount)).toEqual([30, 30, 30, 30, 30]);
    expect(result.map((answer) => answer.rows[0]!.id)).toEqual([1, 6, 11, 16, 21]);
    expect(counts(statements)).toBe(2);
    expect(statements).toHaveLength(5 + 2);
  });

  it('never shares a count between two scopes', async () => {
    const [published, mine, all] = await Promise.all([
      page(1, (query) => query.where('r.published', '=', true)),
      page(1, (query) => query.where('r.author_id', '=', 2)),
      page(1),
    ]);
    expect([published.totalCount, mine.totalCount, all.totalCount]).toEqual([15, 15, 30]);
    expect(published.rows.map((row) => row.published)).toEqual([true, true, true, true, true]);
    expect(mine.rows.map((row) => row.author_id)).toEqual([2, 2, 2, 2, 2]);
  });

  it('counts a record created before the page was asked for, even while an earlier count runs', async () => {
    const earlier = page(1);
    const created = await library().records.create({ resource: library().resource('Book'), view: 'show', values: { title: 'new', published: true } });
    const later = await page(1);
    expect(later.totalCount).toBe((await earlier).totalCount + 1);
    await library().records.destroy({ resource: library().resource('Book'), id: created.id as number });
  });
}, seed);
