// "Every read path (counts, aggregates, revisions, traversal, expansion) asks one function":
// association values (labels, counts, ids) and belongs_to checks cover only what the actor may read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { associationKey, createPanel, type CompiledResource, type Panel, type PanelDatabase, type ReadableRecords, type RecordsQuery } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { LIBRARY_RESOURCES, MANY_TO_MANY_RESOURCES } from './fixtures/library-resources.js';
import { createLibrarySchema, insertRows } from './fixtures/library-schema.js';

/** An actor who may not read the author "Hidden", reviews under 3 stars, the genre "Secret" nor any biography. */
const readable: ReadableRecords = (target: CompiledResource) => {
  if (target.name === 'Author') return (query: RecordsQuery) => query.where('r.name', '<>', 'Hidden');
  if (target.name === 'Review') return (query: RecordsQuery) => query.where('r.stars', '>=', 3);
  if (target.name === 'Genre') return (query: RecordsQuery) => query.where('r.name', '<>', 'Secret');
  if (target.name === 'Biography') return (query: RecordsQuery) => query.where('r.id', '<', 0);
  return undefined;
};

for (const kind of testDatabaseKinds()) {
  describe(`association values through the actor's scopes [${kind}]`, () => {
    let database: PanelDatabase;
    let panel: Panel;
    const ids = { authors: [] as number[], books: [] as number[], genres: [] as number[] };
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await createLibrarySchema(database.db);
      panel = await createPanel({ database, resources: [...LIBRARY_RESOURCES, ...MANY_TO_MANY_RESOURCES] });
      ids.authors = await insertRows(database.db, 'authors', [{ name: 'Visible', handle: 'vis' }, { name: 'Hidden', handle: 'hid' }]);
      ids.books = await insertRows(database.db, 'books', [
        { title: 'By visible', author_id: ids.authors[0], editor_id: ids.authors[1] },
        { title: 'By hidden', author_id: ids.authors[1] },
      ]);
      await insertRows(database.db, 'reviews', [
        { book_id: ids.books[0], stars: 5 },
        { book_id: ids.books[0], stars: 1 },
        { book_id: ids.books[0], stars: 3 },
        { book_id: ids.books[1], stars: 2 },
      ]);
      ids.genres = await insertRows(database.db, 'genres', [{ name: 'Open' }, { name: 'Secret' }]);
      await database.db.insertInto('books_genres').values([
        { book_id: ids.books[0], genre_id: ids.genres[0] },
        { book_id: ids.books[0], genre_id: ids.genres[1] },
        { book_id: ids.books[1], genre_id: ids.genres[1] },
      ]).execute();
      await insertRows(database.db, 'biographies', [{ author_id: ids.authors[0], summary: 'private' }]);
    });
    afterAll(async () => {
      await database?.close();
    });

    const value = (row: Record<string, unknown>, resource: string, fieldName: string) => row[associationKey(panel.resource(resource).fieldsByName.get(fieldName)!)];
    const book = (id: number, scopes?: ReadableRecords) => panel.records.find({ resource: panel.resource('Book'), view: 'show', id, readable: scopes });
    const shelved = (id: number, scopes?: ReadableRecords) => panel.records.find({ resource: panel.resource('ShelvedBook'), view: 'show', id, readable: scopes });

    it('without scopes, every association value counts every row', async () => {
      const row = await book(ids.books[0]!);
      expect(value(row, 'Book', 'author')).toBe('Visible');
      expect(value(row, 'Book', 'editor')).toBe('Hidden');
      expect(value(row, 'Book', 'reviews')).toBe(3);
      expect(value(await shelved(ids.books[0]!), 'ShelvedBook', 'genres')).toBe(2);
    });

    it('a has_many counts only the children the actor may read: the count is no oracle for hidden rows', async () => {
      expect(value(await book(ids.books[0]!, readable), 'Book', 'reviews')).toBe(2);
      expect(value(await book(ids.books[1]!, readable), 'Book', 'reviews')).toBe(0);
    });

    it('a belongs_to to a target the actor may not read keeps its id and answers no label', async () => {
      const row = await book(ids.books[0]!, readable);
      expect(row.editor_id).toBe(ids.authors[1]);
      expect(value(row, 'Book', 'editor')).toBeNull();
      expect(value(row, 'Book', 'author')).toBe('Visible');
      expect(value(await book(ids.books[1]!, readable), 'Book', 'author')).toBeNull();
    });

    it('a has_and_belongs_to_many counts only the readable targets', async () => {
      expect(value(await shelved(ids.books[0]!, readable), 'ShelvedBook', 'genres')).toBe(1);
      expect(value(await shelved(ids.books[1]!, readable), 'ShelvedBook', 'genres')).toBe(0);
    });

    it('a has_one the actor may not read is null, as if there were none', async () => {
      const author = (scopes?: ReadableRecords) => panel.records.find({ resource: panel.resource('Author'), view: 'show', id: ids.authors[0]!, readable: scopes });
      expect(value(await author(), 'Author', 'biography')).not.toBeNull();
      expect(value(await author(readable), 'Author', 'biography')).toBeNull();
    });

    it('lists apply the same scopes to every row of the page', async () => {
      const page = await panel.records.list({ resource: panel.resource('Book'), view: 'index', page: 1, perPage: 10, sort: { column: 'id', direction: 'asc' }, readable });
      expect(page.rows.map((row) => [value(row, 'Book', 'author'), value(row, 'Book', 'reviews')])).toEqual([
        ['Visible', 2],
        [null, 0],
      ]);
    });

    it('a write may point a belongs_to only at a target the actor may read: "must exist", the same answer as a missing one', async () => {
      const refused = await panel.records
        .create({ resource: panel.resource('Book'), view: 'show', values: { title: 'Aimed at hidden', author_id: ids.authors[1] }, readable })
        .then(() => undefined, (error: unknown) => error as { code?: string; errors?: Record<string, string[]> });
      expect(refused?.code).toBe('PANEL_ERR_RECORD_INVALID');
      expect(refused?.errors).toEqual({ author: ['must exist'] });
      const created = await panel.records.create({ resource: panel.resource('Book'), view: 'show', values: { title: 'Aimed at visible', author_id: ids.authors[0] }, readable });
      expect(created.author_id).toBe(ids.authors[0]);
    });

    it('a write statement compiled once for an actor whose scopes let every record through (an admin\'s return their query) is never sent for an actor they narrow', async () => {
      const everything: ReadableRecords = () => (query: RecordsQuery) => query;
      const create = (title: string, scopes: ReadableRecords) =>
        panel.records.create({ resource: panel.resource('Book'), view: 'show', values: { title, author_id: ids.authors[1] }, readable: scopes }).then(
          (row) => row.title,
          (error: unknown) => (error as { errors?: unknown }).errors,
        );
      expect(await create('Admin aims at hidden', everything)).toBe('Admin aims at hidden');
      expect(await create('Reader aims at hidden', readable)).toEqual({ author: ['must exist'] });
      expect(await create('Admin aims at hidden again', everything)).toBe('Admin aims at hidden again');
      // The same for an update's own scope: one that returns its query writes any row; one that narrows does not reach the others.
      // The stored row is given, so the write's own statement is what applies the scope.
      const existing = await panel.records.find({ resource: panel.resource('Book'), view: 'edit', id: ids.books[1]! });
      const update = (title: string, scope: (query: RecordsQuery) => RecordsQuery) =>
        panel.records.update({ resource: panel.resource('Book'), view: 'show', id: ids.books[1]!, values: { title }, existing, scope }).then(
          (row) => row.title,
          (error: unknown) => (error as { code?: string }).code,
        );
      expect(await update('Retitled by admin', (query) => query)).toBe('Retitled by admin');
      expect(await update('Retitled by reader', (query) => query.where('r.title', '<>', 'Retitled by admin'))).toBe('PANEL_ERR_RECORD_NOT_FOUND');
      expect(await update('Retitled by admin again', (query) => query)).toBe('Retitled by admin again');
    });

    it('a sparse fieldset loads only the fields asked for', async () => {
      const row = await panel.records.find({ resource: panel.resource('Book'), view: 'show', id: ids.books[0]!, fields: new Set(['title']) });
      expect(row.title).toBe('By visible');
      expect(associationKey(panel.resource('Book').fieldsByName.get('reviews')!) in row).toBe(false);
    });
  });
}
