import { expect, it } from 'vitest';
import { countQueries } from '@panel/test-support';
import { describeOnEachDatabase, type Library } from './fixtures/library-database.js';
import { insertRows } from './fixtures/library-schema.js';
import { createPanel, recordsWhere, type FilterOperator } from '@panel/core';
import { LIBRARY_RESOURCES, MANY_TO_MANY_RESOURCES } from './fixtures/library-resources.js';

/** 120 books, each with an author, most with an editor and some reviews; every author has a biography. */
async function seed({ db }: Library): Promise<void> {
  const authors = await insertRows(db, 'authors', Array.from({ length: 10 }, (_, i) => ({ name: `author ${i}`, handle: `@a${i}` })));
  await insertRows(db, 'biographies', authors.map((author_id) => ({ author_id, summary: 'bio' })));
  const books = await insertRows(
    db,
    'books',
    Array.from({ length: 120 }, (_, i) => ({
      title: `book ${i}`,
      author_id: authors[i % authors.length],
      editor_id: i % 3 === 0 ? null : authors[(i + 1) % authors.length],
    })),
  );
  await insertRows(db, 'reviews', books.flatMap((book_id, i) => Array.from({ length: i % 4 }, () => ({ book_id, stars: 3 }))));
  const genres = await insertRows(db, 'genres', ['novel', 'essay', 'poetry'].map((name) => ({ name })));
  await db.insertInto('books_genres').values(books.flatMap((book_id, i) => genres.slice(0, i % 4).map((genre_id) => ({ book_id, genre_id })))).execute();
}

/**
 * "The records layer answers an index page with a constant number of SQL queries, whatever the
 * page size or the number of association fields … No N+1."
 */
describeOnEachDatabase('the constant-query rule of an index page', (library) => {
  const index = (resource: string, perPage: number) =>
    countQueries(library().database, () => library().records.list({ resource: library().resource(resource), view: 'index', page: 1, perPage }));

  it('lists a resource with three association fields on index (belongs_to author and editor, has_many reviews)', () => {
    const associations = library().resource('Book').fieldsOn('index').filter((f) => f.target !== undefined);
    expect(associations.map((f) => `${f.type} ${f.name}`)).toEqual(['belongs_to author', 'belongs_to editor', 'has_many reviews']);
    expect(library().resource('BookRow').fieldsOn('index').filter((f) => f.target !== undefined)).toEqual([]);
  });

  it('"an index page stays two statements, whatever the number of filters": 0, 1 and 8 filters with a search, and a sparse fieldset', async () => {
    const book = library().resource('Book');
    const field = (name: string) => book.fieldsByName.get(name)!;
    const filter = (name: string, operator: FilterOperator, value: unknown) => ({ field: field(name), operator, value });
    const listed = (filters: ReturnType<typeof filter>[], search?: string[]) =>
      countQueries(library().database, () =>
        library().records.list({ resource: book, view: 'index', page: 1, perPage: 25, scope: recordsWhere({ filters, search: search ? { fields: [field('title')], words: search } : undefined }), fields: search ? new Set(['id', 'title', 'reviews']) : undefined }),
      );
    const none = await listed([]);
    const one = await listed([filter('author', 'eq', 1)]);
    const many = await listed(
      [filter('author', 'in', [1, 2, 3]), filter('editor', 'null', false), filter('title', 'contains', 'book'), filter('pages', 'null', true), filter('id', 'gte', 1), filter('id', 'ne', 5), filter('published', 'null', true), filter('title', 'starts_with', 'BOOK')],
      ['book', '1'],
    );
    expect([none.count, one.count, many.count]).toEqual([2, 2, 2]);
    expect(one.result.totalCount).toBe(12);
    expect(many.result.rows.every((row) => [1, 2, 3].includes(Number(row.author_id)) && row.editor_id !== null && String(row.title).includes('1'))).toBe(true);
    expect(many.result.totalCount).toBe(many.result.rows.length);
  });

  it('costs 2 statements (the page and the count) for 5 records as for 100', async () => {
    const five = await index('Book', 5);
    const hundred = await index('Book', 100);
    expect(five.result.rows).toHaveLength(5);
    expect(hundred.result.rows).toHaveLength(100);
    expect(hundred.count).toBe(five.count);
    expect(five.count).toBe(2);
  });

  it('costs the same 2 statements for a resource with 3 association fields as for one with none', async () => {
    const none = await index('BookRow', 100);
    const three = await index('Book', 100);
    expect(none.result.rows).toHaveLength(100);
    expect(three.count).toBe(none.count);
    expect(none.count).toBe(2);
  });

  it('costs 2 statements for has_many and has_one fields too (Author: has_many books, has_one biography)', async () => {
    const few = await index('Author', 2);
    const all = await index('Author', 100);
    expect(all.result.rows).toHaveLength(10);
    expect(few.count).toBe(2);
    expect(all.count).toBe(2);
  });

  it('runs one select for the page with its association values and one count', async () => {
    const { statements } = await index('Book', 25);
    expect(statements).toHaveLength(2);
    const page = statements.find((statement) => /limit \$\d+ offset \$\d+/.test(statement));
    const count = statements.find((statement) => statement.startsWith('select count(*)'));
    expect(page).toContain('from "reviews" as "t"');
    expect(page).toContain('from "authors" as "t"');
    expect(count).toBe('select count(*) as "count" from "books" as "r"');
  });

  it('computes every association value in the page statement: the 100 rows carry them without another query', async () => {
    const { result, count } = await index('Book', 100);
    expect(count).toBe(2);
    for (const row of result.rows) {
      expect(row).toHaveProperty('__belongs_to__author');
      expect(row).toHaveProperty('__belongs_to__editor');
      expect(typeof row.__has_many__reviews).toBe('number');
    }
  });

  it('costs 2 statements with a has_and_belongs_to_many field too, counted through the join table within the page query', async () => {
    const panel = await createPanel({ database: library().database, resources: [...LIBRARY_RESOURCES, ...MANY_TO_MANY_RESOURCES] });
    const index = (resource: string, perPage: number) =>
      countQueries(library().database, () => panel.records.list({ resource: panel.resource(resource), view: 'index', page: 1, perPage }));
    const few = await index('ShelvedBook', 5);
    const many = await index('ShelvedBook', 100);
    expect(many.result.rows).toHaveLength(100);
    expect(few.count).toBe(2);
    expect(many.count).toBe(2);
    const page = many.statements.find((statement) => /limit \$\d+ offset \$\d+/.test(statement));
    expect(page).toContain('from "books_genres" as "j"');
    const counts = new Map(many.result.rows.map((row) => [row.id as number, Number(row.__has_and_belongs_to_many__genres)]));
    const joined = await library().db.selectFrom('books_genres').select(['book_id']).execute();
    for (const [id, count] of counts) expect(count, `book ${id}`).toBe(joined.filter((j) => j.book_id === id).length);
    const genres = await index('Genre', 100);
    expect(genres.count).toBe(2);
    expect(genres.result.rows.map((row) => Number(row.__has_and_belongs_to_many__books)).sort()).toEqual([30, 60, 90]);
  });

  it('finds one record, with its association values, in 1 statement', async () => {
    const { count, result } = await countQueries(library().database, () => library().records.find({ resource: library().resource('Book'), view: 'show', id: 7 }));
    expect(result.id).toBe(7);
    expect(count).toBe(1);
  });
}, seed);
