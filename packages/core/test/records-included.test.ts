// The records layer's include batches: "one statement per path, whatever the number of rows
// (belongs_to/has_one: `target.pk = any($ids) and <scope>`; has_many: one `unnest($parents) cross
// join lateral (… where fk = parent and <scope> order by … limit n+1)` statement, which also gives
// `has_more`)"; a record outside the scope is answered exactly like a missing one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPanel, RecordsRepository, type DatabaseKind, type Panel, type PanelDatabase, type RecordRow, type ScopeFunction } from '@panel/core';
import { countQueries, openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { createLibrarySchema, insertRows } from './fixtures/library-schema.js';
import { LIBRARY_RESOURCES, MANY_TO_MANY_RESOURCES } from './fixtures/library-resources.js';

/** Authors 1–3 and 4 (no books); 30 books, author by `i % 3`, pages repeating; reviews on the first books. */
async function seed(db: PanelDatabase['db']): Promise<void> {
  await insertRows(db, 'authors', [{ name: 'ann', handle: 'ann' }, { name: 'bob', handle: 'bob' }, { name: 'cy', handle: null }, { name: 'dee', handle: 'dee' }]);
  await insertRows(db, 'biographies', [{ author_id: 1, summary: 'ann wrote' }, { author_id: 3, summary: 'cy wrote' }]);
  await insertRows(
    db,
    'books',
    Array.from({ length: 30 }, (_, i) => ({ title: `book ${i + 1}`, pages: 100 + (i % 4), published: i % 5 !== 0, author_id: 1 + (i % 3), editor_id: i % 2 === 0 ? null : 2 })),
  );
  await insertRows(db, 'reviews', [{ book_id: 1, stars: 5 }, { book_id: 1, stars: 3 }, { book_id: 2, stars: 4 }]);
  await insertRows(db, 'genres', [{ name: 'poetry' }, { name: 'prose' }, { name: 'empty' }]);
  await db.insertInto('books_genres').values([{ book_id: 1, genre_id: 1 }, { book_id: 2, genre_id: 1 }, { book_id: 3, genre_id: 1 }, { book_id: 2, genre_id: 2 }]).execute();
}

const ids = (rows: readonly RecordRow[] | undefined) => (rows ?? []).map((row) => Number(row.id));

for (const kind of testDatabaseKinds()) {
  describe(`RecordsRepository.includeOne / includeMany [${kind}]`, () => {
    let database: PanelDatabase;
    let panel: Panel;
    beforeAll(async () => {
      database = await openTestDatabase(kind as DatabaseKind);
      await createLibrarySchema(database.db);
      panel = await createPanel({ database, resources: [...LIBRARY_RESOURCES, ...MANY_TO_MANY_RESOURCES] });
      await seed(database.db);
    });
    afterAll(async () => {
      await database?.close();
    });

    const field = (resource: string, name: string) => panel.resource(resource).fieldsByName.get(name)!;
    const published: ScopeFunction = (query) => query.where('r.published', '=', true);

    it('reads the belongs_to targets a page names by primary key, in one statement whatever their number', async () => {
      for (const keys of [[], [1], [1, 2, 3, 1, null, 2], Array.from({ length: 500 }, (_, i) => 1 + (i % 4))]) {
        const { result, count } = await countQueries(database, () => panel.records.includeOne({ field: field('Book', 'author'), view: 'show', ids: keys }));
        expect(count).toBe(1);
        expect([...result.keys()].sort()).toEqual([...new Set(keys.filter((key) => key !== null).map(String))].sort());
      }
    });

    it('keeps one statement per target, view and fieldset (to-one), and per association, view, fieldset, page size and order (to-many), each filled with its own keys; a narrowing scope is built per request', async () => {
      const records = new RecordsRepository(database.db, panel.resources);
      const one = (keys: number[], scope?: ScopeFunction) => records.includeOne({ field: field('Book', 'author'), view: 'show', ids: keys, scope });
      const many = (parents: number[], perPage: number) =>
        records.includeMany({ field: field('Author', 'books'), parent: panel.resource('Author'), parentIds: parents, view: 'index', perPage, sort: { column: 'id', direction: 'asc' } });
      expect([...(await one([1])).keys()]).toEqual(['1']);
      expect([...(await one([2, 3])).keys()].sort()).toEqual(['2', '3']);
      expect([...(await one([2], (query) => query.where('r.id', '=', 1))).keys()]).toEqual([]);
      const named = await records.includeOne({ field: field('Book', 'author'), view: 'show', ids: [3], fields: new Set(['name']) });
      expect(named.get('3')).toMatchObject({ id: 3, name: 'cy' });
      expect(ids((await many([1], 2)).get('1')?.rows)).toEqual([1, 4]);
      const second = await many([2, 3], 2);
      expect(ids(second.get('2')?.rows)).toEqual([2, 5]);
      expect(ids(second.get('3')?.rows)).toEqual([3, 6]);
      expect(ids((await many([2], 3)).get('2')?.rows)).toEqual([2, 5, 8]);
      expect(records.includeShapes).toEqual(
        records.cachesStatements ? { one: { kept: 2, compiled: 2 }, many: { kept: 2, compiled: 2 } } : { one: { kept: 0, compiled: 0 }, many: { kept: 0, compiled: 0 } },
      );
    });

    it('answers a target outside the scope exactly like a missing one: no entry', async () => {
      const onlyAnn: ScopeFunction = (query) => query.where('r.id', '=', 1);
      const result = await panel.records.includeOne({ field: field('Book', 'author'), view: 'show', ids: [1, 2, 999], scope: onlyAnn });
      expect([...result.keys()]).toEqual(['1']);
      expect(result.get('1')).toMatchObject({ id: 1, name: 'ann' });
    });

    it("loads the target's own view and fieldset: columns and association values, nothing else", async () => {
      const result = await panel.records.includeOne({ field: field('Review', 'book'), view: 'show', ids: [1], fields: new Set(['title', 'author']) });
      const book = result.get('1')!;
      expect(book.title).toBe('book 1');
      expect(book.author_id).toBe(1);
      expect(book).not.toHaveProperty('pages');
    });

    it('reads has_one targets from the ids the parents answer (the first the actor may read)', async () => {
      const authors = await panel.records.list({ resource: panel.resource('Author'), view: 'index', page: 1, perPage: 10, sort: { column: 'id', direction: 'asc' } });
      const has = field('Author', 'biography');
      const targets = authors.rows.map((row) => has.kind.association!.include!.kind === 'one' && (has.kind.association!.include as { targetKey: (f: typeof has, r: RecordRow) => unknown }).targetKey(has, row));
      const result = await panel.records.includeOne({ field: has, view: 'show', ids: targets });
      expect(authors.rows.map((row) => result.get(String(targets[authors.rows.indexOf(row)]))?.summary ?? null)).toEqual(['ann wrote', null, 'cy wrote', null]);
    });

    it('reads the first page of every parent\'s has_many records in one statement, with has_more and the place of the last', async () => {
      const { result, count } = await countQueries(database, () =>
        panel.records.includeMany({ field: field('Author', 'books'), parent: panel.resource('Author'), parentIds: [1, 2, 3, 4, 2], view: 'index', perPage: 3, sort: { column: 'pages', direction: 'desc' } }),
      );
      expect(count).toBe(1);
      const expected = (author: number) =>
        Array.from({ length: 30 }, (_, i) => ({ id: i + 1, pages: 100 + (i % 4), author: 1 + (i % 3) }))
          .filter((book) => book.author === author)
          .sort((a, b) => b.pages - a.pages || b.id - a.id)
          .map((book) => book.id);
      for (const author of [1, 2, 3]) {
        const page = result.get(String(author))!;
        expect(ids(page.rows)).toEqual(expected(author).slice(0, 3));
        expect(page.hasMore).toBe(true);
        const last = page.rows.at(-1)!;
        expect(page.last).toEqual({ value: String(last.pages), id: String(last.id) });
      }
      // A parent without records has no page: the caller answers it as an empty one.
      expect(result.has('4')).toBe(false);
    });

    it('applies the scope to every parent\'s page and says has_more only when a further record may be read', async () => {
      const result = await panel.records.includeMany({ field: field('Author', 'books'), parent: panel.resource('Author'), parentIds: [1], view: 'index', perPage: 8, scope: published, sort: { column: 'id', direction: 'asc' } });
      const visible = Array.from({ length: 30 }, (_, i) => i).filter((i) => i % 3 === 0 && i % 5 !== 0).map((i) => i + 1);
      expect(visible.length).toBe(8);
      expect(ids(result.get('1')!.rows)).toEqual(visible);
      expect(result.get('1')!.hasMore).toBe(false);
    });

    it('reads has_and_belongs_to_many pages through the join table, in one statement', async () => {
      const { result, count } = await countQueries(database, () =>
        panel.records.includeMany({ field: field('Genre', 'books'), parent: panel.resource('Genre'), parentIds: [1, 2, 3], view: 'index', perPage: 2, sort: { column: 'id', direction: 'asc' } }),
      );
      expect(count).toBe(1);
      expect(ids(result.get('1')!.rows)).toEqual([1, 2]);
      expect(result.get('1')!.hasMore).toBe(true);
      expect(ids(result.get('2')!.rows)).toEqual([2]);
      expect(result.get('2')!.hasMore).toBe(false);
      expect(result.has('3')).toBe(false);
    });

    it('costs one statement for 1, 25 or 100 parents with 0, 1 or many records each', async () => {
      const counts = new Set<number>();
      for (const parents of [[4], [1], [1, 2, 3], Array.from({ length: 100 }, (_, i) => 1 + (i % 4))]) {
        for (const perPage of [1, 5, 20]) {
          const { count } = await countQueries(database, () => panel.records.includeMany({ field: field('Author', 'books'), parent: panel.resource('Author'), parentIds: parents, view: 'index', perPage }));
          counts.add(count);
        }
      }
      expect([...counts]).toEqual([1]);
    });
  });
}
