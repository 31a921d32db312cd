import { expect, it } from 'vitest';
import type { RecordRow } from '@panel/core';
import { describeOnEachDatabase, type Library } from './fixtures/library-database.js';
import { insertRows } from './fixtures/library-schema.js';
import { selectRecords } from '../src/records/record-select.js';
import { PAGE_ALIAS, pageFrom, pageIds } from '../src/records/page-of-records.js';

/** Twelve books: pages repeat (100, 200, 300) so sorting meets ties; created_at is not in id order. */
const BOOKS = Array.from({ length: 12 }, (_, i) => ({
  title: `book ${String(i + 1).padStart(2, '0')}`,
  pages: 100 * ((i % 3) + 1),
  published: i % 4 !== 0,
  // Books 11 and 12 share a timestamp, so the default order needs its tie-breaker too.
  created_at: new Date(Date.UTC(2026, 0, 1, i < 10 ? (i * 7) % 10 : 20)),
}));

async function seed({ db }: Library): Promise<void> {
  await insertRows(db, 'authors', [{ name: 'ann' }, { name: 'bob' }, { name: 'cy' }]);
  await insertRows(db, 'books', BOOKS);
  await insertRows(db, 'reviews', [{ book_id: 1, stars: 2 }, { book_id: 1, stars: 5 }, { book_id: 2, stars: 5 }, { book_id: 3, stars: 1 }]);
}

const ids = (rows: readonly RecordRow[]) => rows.map((row) => row.id);

/** The books' ids, ordered in JavaScript by a key and then by id, both in one direction. */
function expectedOrder(key: (book: (typeof BOOKS)[number]) => number, direction: 'asc' | 'desc'): number[] {
  const sign = direction === 'asc' ? 1 : -1;
  return BOOKS.map((book, i) => ({ id: i + 1, key: key(book) }))
    .sort((a, b) => sign * (a.key - b.key || a.id - b.id))
    .map((book) => book.id);
}

describeOnEachDatabase('RecordsRepository.list', (library) => {
  const list = (resource: string, options: Partial<Parameters<Library['records']['list']>[0]> = {}) =>
    library().records.list({ resource: library().resource(resource), view: 'index', page: 1, perPage: 100, ...options });

  it('returns perPage rows starting at (page - 1) * perPage, with the total count of every row', async () => {
    const page = await list('Book', { page: 2, perPage: 5, sort: { column: 'id', direction: 'asc' } });
    expect(ids(page.rows)).toEqual([6, 7, 8, 9, 10]);
    expect(page.totalCount).toBe(12);
    const last = await list('Book', { page: 3, perPage: 5, sort: { column: 'id', direction: 'asc' } });
    expect(ids(last.rows)).toEqual([11, 12]);
    expect(last.totalCount).toBe(12);
  });

  it('returns the total count as a JSON number on both databases', async () => {
    const page = await list('Book', { perPage: 1 });
    expect(typeof page.totalCount).toBe('number');
  });

  it('lists a resource that declares created_at newest first: "else created_at desc where the table has that column"', async () => {
    const page = await list('Book');
    expect(ids(page.rows)).toEqual(expectedOrder((book) => book.created_at.getTime(), 'desc'));
    // Books 11 and 12 share created_at: the primary key, in the same direction, breaks the tie.
    expect(ids(page.rows).slice(0, 2)).toEqual([12, 11]);
  });

  it('lists a resource without created_at by "id desc"', async () => {
    const page = await list('Author');
    expect(ids(page.rows)).toEqual([3, 2, 1]);
  });

  it('lists a resource with its own default order first: "a resource\'s own default order applies"', async () => {
    const page = await list('Review');
    expect(page.rows.map((row) => [row.stars, row.id])).toEqual([[5, 3], [5, 2], [2, 1], [1, 4]]);
  });

  for (const direction of ['asc', 'desc'] as const) {
    it(`sorts by the requested column ${direction}, then the primary key: "Sorting is stable: the requested column, then the primary key."`, async () => {
      const page = await list('Book', { sort: { column: 'pages', direction } });
      expect(ids(page.rows)).toEqual(expectedOrder((book) => book.pages, direction));
    });
  }

  it('pages through equal sort values without repeating or skipping a record', async () => {
    const seen: unknown[] = [];
    for (let page = 1; page <= 4; page += 1) {
      const result = await list('Book', { page, perPage: 3, sort: { column: 'pages', direction: 'asc' } });
      expect(result.totalCount).toBe(12);
      seen.push(...ids(result.rows));
    }
    expect(seen).toEqual(expectedOrder((book) => book.pages, 'asc'));
  });

  it('returns no rows and the right total for a page past the last: "a page past the last returns records: [] with correct pagination"', async () => {
    const page = await list('Book', { page: 99, perPage: 5 });
    expect(page.rows).toEqual([]);
    expect(page.totalCount).toBe(12);
  });

  it('narrows both the page and the count with a scope: "Index resolves through the policy Scope, so only records the user may see are returned."', async () => {
    const published = BOOKS.flatMap((book, i) => (book.published ? [i + 1] : []));
    const page = await list('Book', { perPage: 4, sort: { column: 'id', direction: 'asc' }, scope: (query) => query.where('r.published', '=', true) });
    expect(ids(page.rows)).toEqual(published.slice(0, 4));
    expect(page.totalCount).toBe(published.length);
    expect(page.totalCount).toBe(9);
  });

  it('sends the page statement compiled once per resource and view with the ids\' query compiled for the request: the same text and parameters as the whole query compiled at once', async () => {
    const { database, db, resource } = library();
    const book = resource('Book');
    const registry = new Map(['Author', 'Book', 'BookRow', 'Review', 'Biography', 'Loan', 'Shelf'].map((name) => [name, resource(name)] as const));
    const scope = (query: Parameters<NonNullable<Parameters<Library['records']['list']>[0]['scope']>>[0]) => query.where('r.published', '=', true).where('r.pages', '>', 150);
    const sent: { sql: string; parameters: readonly unknown[] }[] = [];
    const stop = database.onQuery((query) => sent.push(query));
    try {
      for (const page of [1, 2]) await list('Book', { page, perPage: 3, sort: { column: 'pages', direction: 'desc' }, scope });
    } finally {
      stop();
    }
    const pages = sent.filter((query) => query.sql.includes('unnest'));
    expect(pages).toHaveLength(2);
    for (const [i, page] of [1, 2].entries()) {
      const ids = pageIds(db, book, { scope, order: { column: 'pages', direction: 'desc' }, limit: 3, offset: (page - 1) * 3 });
      const whole = selectRecords(db, book, 'index', registry, 'view', pageFrom(db, book, ids)).orderBy(`${PAGE_ALIAS}.position`).compile();
      expect(pages[i]!.sql).toBe(whole.sql);
      expect(pages[i]!.parameters).toEqual(whole.parameters);
    }
  });

  it('counts zero and returns no rows when the scope lets nothing through', async () => {
    const page = await list('Book', { scope: (query) => query.where('r.pages', '>', 10_000) });
    expect(page).toEqual({ rows: [], totalCount: 0 });
  });

  // The count query reuses the scope; an `order by` in the scope must not become
  // `select count(*) … order by r.title`, which PostgreSQL refuses (42803).
  it('counts the records of a scope that orders its query', async () => {
    const page = await list('Book', { perPage: 2, scope: (query) => query.where('r.published', '=', true).orderBy('r.title') });
    expect(page.totalCount).toBe(9);
  });
}, seed);
