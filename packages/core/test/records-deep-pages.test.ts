import { expect, it } from 'vitest';
import { countQueries } from '@panel/test-support';
import type { RecordRow, RecordsQuery } from '@panel/core';
import { describeOnEachDatabase, type Library } from './fixtures/library-database.js';
import { insertRows } from './fixtures/library-schema.js';

/** 60 books over 3 authors; pages repeat every 7 books, so sorting by pages meets ties; every third book is unpublished. */
const BOOKS = Array.from({ length: 60 }, (_, i) => ({
  title: `book ${String((i * 37) % 60).padStart(2, '0')}`,
  pages: 100 + (i % 7),
  published: i % 3 !== 0,
  author_id: 1 + (i % 3),
  created_at: new Date(Date.UTC(2026, 0, 1, 0, (i * 11) % 60)),
}));

async function seed({ db }: Library): Promise<void> {
  await insertRows(db, 'authors', [{ name: 'ann' }, { name: 'bob' }, { name: 'cy' }]);
  await insertRows(db, 'books', BOOKS);
  await insertRows(db, 'reviews', Array.from({ length: 90 }, (_, i) => ({ book_id: 1 + ((i * 7) % 60), stars: 1 + (i % 5) })));
}

const ids = (rows: readonly RecordRow[]) => rows.map((row) => row.id);

/**
 * Every page of an index is selected through a deferred join (the page's ids first, with the
 * scope, the order and LIMIT/OFFSET; then the rows and their association values): these
 * tests page through the whole list and compare with the order computed in JavaScript.
 */
describeOnEachDatabase('RecordsRepository.list on deep pages', (library) => {
  const allPages = async (options: { perPage: number; sort?: { column: string; direction: 'asc' | 'desc' }; scope?: (query: RecordsQuery) => RecordsQuery }) => {
    const rows: RecordRow[] = [];
    const totals = new Set<number>();
    for (let page = 1; ; page += 1) {
      const result = await library().records.list({ resource: library().resource('Book'), view: 'index', page, ...options });
      totals.add(result.totalCount);
      if (result.rows.length === 0) break;
      rows.push(...result.rows);
    }
    return { rows, totals: [...totals] };
  };

  it('pages through every record once, in the requested order then by id, whatever the depth', async () => {
    const { rows, totals } = await allPages({ perPage: 7, sort: { column: 'pages', direction: 'desc' } });
    const expected = BOOKS.map((book, i) => ({ id: i + 1, pages: book.pages }))
      .sort((a, b) => b.pages - a.pages || b.id - a.id)
      .map((book) => book.id);
    expect(ids(rows)).toEqual(expected);
    expect(totals).toEqual([60]);
  });

  it('applies the scope to the page and to the count on every page: "only records the user may see are returned"', async () => {
    const { rows, totals } = await allPages({ perPage: 4, sort: { column: 'id', direction: 'asc' }, scope: (query) => query.where('r.published', '=', true) });
    const published = BOOKS.flatMap((book, i) => (book.published ? [i + 1] : []));
    expect(ids(rows)).toEqual(published);
    expect(totals).toEqual([published.length]);
  });

  it("keeps a scope's own order ahead of the requested one", async () => {
    const { rows } = await allPages({ perPage: 9, sort: { column: 'id', direction: 'asc' }, scope: (query) => query.where('r.author_id', '=', 2).orderBy('r.title', 'desc') });
    const expected = BOOKS.map((book, i) => ({ id: i + 1, ...book }))
      .filter((book) => book.author_id === 2)
      .sort((a, b) => b.title.localeCompare(a.title) || a.id - b.id)
      .map((book) => book.id);
    expect(ids(rows)).toEqual(expected);
  });

  it('gives a deep page the same columns and association values as a shallow one', async () => {
    const sort = { column: 'id', direction: 'asc' } as const;
    const deep = await library().records.list({ resource: library().resource('Book'), view: 'index', page: 6, perPage: 10, sort });
    const all = await library().records.list({ resource: library().resource('Book'), view: 'index', page: 1, perPage: 60, sort });
    expect(deep.rows).toEqual(all.rows.slice(50, 60));
    expect(Object.keys(deep.rows[0]!).sort()).toEqual(Object.keys(all.rows[0]!).sort());
  });

  it('selects the page ids with LIMIT/OFFSET before the association values, in the same 2 statements', async () => {
    const { count, statements } = await countQueries(library().database, () =>
      library().records.list({ resource: library().resource('Book'), view: 'index', page: 5, perPage: 10 }),
    );
    expect(count).toBe(2);
    const page = statements.find((statement) => !statement.startsWith('select count(*)'))!;
    // The ids subquery with its LIMIT/OFFSET sits in the FROM; the association subqueries read only the joined page.
    expect(page).toMatch(/from \(select \* from unnest\(array\(\(select "r"\."id" from "books" as "r" order by .* limit \$\d+ offset \$\d+\)\)\) with ordinality/);
  });
}, seed);
