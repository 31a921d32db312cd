import { expect, it } from 'vitest';
import { associationKey, type RecordRow } from '@panel/core';
import { describeOnEachDatabase, type Library } from './fixtures/library-database.js';
import { insertRows } from './fixtures/library-schema.js';

/**
 * Ursula (id 1) wrote books 1 and 2 and has a biography; Terry (id 2) edits book 1 and has
 * nothing else. Book 3 has no author, no editor and no review.
 */
async function seed({ db }: Library): Promise<void> {
  await insertRows(db, 'authors', [{ name: 'Ursula', handle: '@ursula' }, { name: 'Terry' }]);
  await insertRows(db, 'biographies', [{ author_id: 1, summary: 'Earthsea' }]);
  await insertRows(db, 'books', [
    { title: 'A Wizard of Earthsea', author_id: 1, editor_id: 2, isbn: '978-0' },
    { title: 'The Dispossessed', author_id: 1 },
    { title: 'Anonymous', author_id: null },
  ]);
  await insertRows(db, 'reviews', [{ book_id: 1, stars: 5 }, { book_id: 1, stars: 4 }, { book_id: 2, stars: 3 }]);
}

describeOnEachDatabase('association values of a record', (library) => {
  const key = (resource: string, fieldName: string) => associationKey(library().resource(resource).fieldsByName.get(fieldName)!);
  const find = (resource: string, id: number, view: 'index' | 'show' = 'show') =>
    library().records.find({ resource: library().resource(resource), view, id });
  const listById = async (resource: string): Promise<RecordRow[]> =>
    (await library().records.list({ resource: library().resource(resource), view: 'index', page: 1, perPage: 10, sort: { column: 'id', direction: 'asc' } })).rows;

  it('names the key of an association value __<type>__<name>', () => {
    expect(key('Book', 'author')).toBe('__belongs_to__author');
    expect(key('Book', 'reviews')).toBe('__has_many__reviews');
    expect(key('Author', 'biography')).toBe('__has_one__biography');
  });

  it('carries a belongs_to as its foreign key column and the label of the target (the target\'s name by default)', async () => {
    const book = await find('Book', 1);
    expect(book.author_id).toBe(1);
    expect(book[key('Book', 'author')]).toBe('Ursula');
    expect(book.editor_id).toBe(2);
    expect(book[key('Book', 'editor')]).toBe('Terry');
  });

  it('labels a belongs_to by the target\'s title column when it has no name (Review → book title)', async () => {
    const [review] = await listById('Review');
    expect(review).toMatchObject({ book_id: 1, [key('Review', 'book')]: 'A Wizard of Earthsea' });
  });

  it('labels a belongs_to by its label option (Biography → author handle)', async () => {
    const biography = await find('Biography', 1);
    expect(biography[key('Biography', 'author')]).toBe('@ursula');
  });

  it('gives a null foreign key a null label: "belongs_to null → null"', async () => {
    const book = await find('Book', 3);
    expect(book.author_id).toBeNull();
    expect(book[key('Book', 'author')]).toBeNull();
    expect(book[key('Book', 'editor')]).toBeNull();
  });

  it('counts a has_many as a number, 0 when there is none: "has_many → { count }"', async () => {
    const rows = await listById('Book');
    expect(rows.map((row) => row[key('Book', 'reviews')])).toEqual([2, 1, 0]);
    const authors = await listById('Author');
    expect(authors.map((row) => row[key('Author', 'books')])).toEqual([2, 0]);
  });

  it('gives a has_one as the id of the target, or null: "has_one → { id } or null"', async () => {
    const authors = await listById('Author');
    expect(authors.map((row) => row[key('Author', 'biography')])).toEqual([1, null]);
  });

  it('gives the same association values on index and on show', async () => {
    const [fromIndex] = await listById('Book');
    const fromShow = await find('Book', 1);
    for (const name of ['author', 'editor', 'reviews']) expect(fromIndex![key('Book', name)]).toBe(fromShow[key('Book', name)]);
  });

  it('selects only the columns of the view: isbn is hidden on index, shown on show', async () => {
    const [fromIndex] = await listById('Book');
    expect(fromIndex).not.toHaveProperty('isbn');
    expect(await find('Book', 1)).toHaveProperty('isbn', '978-0');
  });

  it('returns every column of the view once, and the association values, and nothing else', async () => {
    const [fromIndex] = await listById('Book');
    expect(Object.keys(fromIndex!).sort()).toEqual(
      ['id', 'title', 'pages', 'price', 'published', 'published_on', 'author_id', 'editor_id', 'created_at', '__belongs_to__author', '__belongs_to__editor', '__has_many__reviews'].sort(),
    );
  });
}, seed);
