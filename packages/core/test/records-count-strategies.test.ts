import { expect, it } from 'vitest';
import { countQueries } from '@panel/test-support';
import { RecordsRepository, normalizeCountStrategy, type ScopeFunction } from '@panel/core';
import { describeOnEachDatabase, type Library } from './fixtures/library-database.js';
import { insertRows } from './fixtures/library-schema.js';

async function seed({ db }: Library): Promise<void> {
  await insertRows(db, 'authors', [{ name: 'ann' }, { name: 'bob' }, { name: 'cid' }]);
  await insertRows(db, 'books', Array.from({ length: 30 }, (_, i) => ({ title: `book ${i}`, published: i % 2 === 0, author_id: 1 + (i % 3) })));
}

/**
 * The `cached` count strategy keeps exact counts "per process, with bounded memory": at most
 * `maxEntries` counts, the oldest going first, and a count served from memory costs no statement.
 */
describeOnEachDatabase('the cached count strategy in the records layer', (library) => {
  let now = 0;
  const repository = (maxEntries: number) =>
    new RecordsRepository(library().db, library().panel.resources, { count: normalizeCountStrategy({ strategy: 'cached', maxAgeMs: 1_000, maxEntries, now: () => now }, 'count') });
  const byAuthor = (author: number): ScopeFunction => (query) => query.where('r.author_id', '=', author);
  const list = (records: RecordsRepository, scope: ScopeFunction) => records.list({ resource: library().resource('Book'), view: 'index', page: 1, perPage: 5, scope });
  const countStatements = (statements: readonly string[]) => statements.filter((statement) => statement.startsWith('select count(*)')).length;

  it('answers a repeated list from memory, without a count statement', async () => {
    const records = repository(10);
    const first = await list(records, byAuthor(1));
    expect(first).toMatchObject({ totalCount: 10 });
    expect(first.totalCountSource).toBeUndefined();
    const { result, statements } = await countQueries(library().database, () => list(records, byAuthor(1)));
    expect(result).toMatchObject({ totalCount: 10, totalCountSource: 'cached' });
    expect(countStatements(statements)).toBe(0);
  });

  it('keeps at most maxEntries counts: the oldest is counted again', async () => {
    const records = repository(2);
    for (const author of [1, 2, 3]) await list(records, byAuthor(author));
    const again = async (author: number) => countStatements((await countQueries(library().database, () => list(records, byAuthor(author)))).statements);
    // Authors 2 and 3 are kept; author 1, the oldest, was dropped when author 3 came in.
    expect(await again(3)).toBe(0);
    expect(await again(2)).toBe(0);
    expect(await again(1)).toBe(1);
  });

  it('drops a count once it is older than maxAgeMs', async () => {
    const records = repository(10);
    now = 5_000;
    await list(records, byAuthor(2));
    now = 6_000;
    expect((await list(records, byAuthor(2))).totalCountSource).toBe('cached');
    now = 6_001;
    const { result, statements } = await countQueries(library().database, () => list(records, byAuthor(2)));
    expect(result.totalCountSource).toBeUndefined();
    expect(countStatements(statements)).toBe(1);
  });
}, seed);
