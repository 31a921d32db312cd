import { expect, it } from 'vitest';
import { RecordsRepository, Resource, compileResources, field, isPanelError } from '@panel/core';
import { countQueries } from '@panel/test-support';
import { describeOnEachDatabase, refusal, type Library } from './fixtures/library-database.js';
import { countRows, insertRows, tableRows } from './fixtures/library-schema.js';

async function seed({ db }: Library): Promise<void> {
  await insertRows(db, 'authors', [{ name: 'Ursula' }, { name: 'Terry' }, { name: 'Iain' }]);
}

/**
 * A `books` resource whose show view labels its author from a table that does not exist:
 * reading the record back fails inside the write's statement (the write and its read-back
 * are one statement, so the statement fails as a whole).
 */
class BrokenBookResource extends Resource {
  static override resourceName = 'Book';
  static override table = 'books';
  fields() {
    return [field.id(), field.text('title'), field.belongsTo('author', { resource: 'Ghost', onlyOn: 'show' })];
  }
}
class GhostResource extends Resource {
  static override table = 'no_such_table';
  fields() {
    return [field.id(), field.text('name')];
  }
}

describeOnEachDatabase('writing records', (library) => {
  const records = () => library().records;
  const resource = (name: string) => library().resource(name);
  const broken = () => {
    const registry = compileResources([BrokenBookResource, GhostResource]);
    return { records: new RecordsRepository(library().db, registry), book: registry.get('Book')! };
  };

  it('creates a record and returns it on the view asked for, with defaults and association values', async () => {
    const row = await records().create({
      resource: resource('Book'),
      view: 'show',
      values: { title: 'Excession', isbn: '978-1', pages: 451, price: 12.5, published_on: '1996-08-01', author_id: 3 },
    });
    expect(row).toMatchObject({ title: 'Excession', isbn: '978-1', pages: 451, price: 12.5, published: false, published_on: '1996-08-01', author_id: 3, editor_id: null, __belongs_to__author: 'Iain', __has_many__reviews: 0 });
    expect(typeof row.id).toBe('number');
    expect(row.created_at).toBeInstanceOf(Date);
    const stored = await library().db.selectFrom('books').selectAll().where('id', '=', row.id as number).execute();
    expect(stored).toEqual([expect.objectContaining({ title: 'Excession', isbn: '978-1', price: 12.5, author_id: 3 })]);
  });

  it('creates a record from no values at all with the columns\' defaults', async () => {
    const row = await records().create({ resource: resource('Shelf'), view: 'show', values: {} });
    expect(row).toEqual({ id: expect.any(Number), size: null, size_limit: null });
  });

  it('stores a datetime given as a Date and reads it back as the same instant', async () => {
    const created = await records().create({ resource: resource('Book'), view: 'show', values: { title: 'Timed', created_at: new Date('2026-11-22T10:40:10.397Z') } });
    expect((created.created_at as Date).toISOString()).toBe('2026-11-22T10:40:10.397Z');
  });

  it('runs a create as one statement, atomic by itself: the insert that reads the record back, no transaction', async () => {
    const { result, statements } = await countQueries(library().database, () => records().create({ resource: resource('Author'), view: 'show', values: { name: 'Mary' } }));
    expect(statements[0]).toMatch(/^with "written" as \(insert into "authors" .* returning \*\) select "r"\.\*, /);
    expect(statements).toHaveLength(1);
    expect(result).toMatchObject({ name: 'Mary', __has_many__books: 0, __has_one__biography: null });
  });

  it('runs an update as two statements: find through the scope, the update that reads the record back; no transaction', async () => {
    const [id] = await insertRows(library().db, 'authors', [{ name: 'Nnedi' }]);
    const { result, statements } = await countQueries(library().database, () => records().update({ resource: resource('Author'), view: 'show', id: id!, values: { handle: '@nnedi' } }));
    expect(statements.map((s) => s.split(' ')[0])).toEqual(['select', 'with']);
    expect(statements[1]).toMatch(/^with "written" as \(update "authors" set "handle" = \$1 where "id" = \$2 returning \*\) select/);
    expect(result).toMatchObject({ id, name: 'Nnedi', handle: '@nnedi' });
  });

  it('reads a record back in a second statement, in a transaction with the write, when an association of the view reads its own table', async () => {
    class ChapterResource extends Resource {
      static override table = 'books';
      fields() {
        return [field.id(), field.text('title'), field.belongsTo('sequel', { resource: 'Chapter', foreignKey: 'editor_id' })];
      }
    }
    const registry = compileResources([ChapterResource]);
    const own = new RecordsRepository(library().db, registry);
    const [first] = await insertRows(library().db, 'books', [{ title: 'One' }]);
    const { result, statements } = await countQueries(library().database, () =>
      own.update({ resource: registry.get('Chapter')!, view: 'show', id: first!, values: { title: 'One, revised' } }),
    );
    expect(statements.map((s) => s.split(' ')[0])).toEqual(['select', 'begin', 'with', 'select', 'commit']);
    expect(result).toMatchObject({ id: first, title: 'One, revised' });
  });

  it('runs a destroy in one transaction: begin, find through the scope, delete, commit', async () => {
    const [id] = await insertRows(library().db, 'authors', [{ name: 'Gene' }]);
    const { statements } = await countQueries(library().database, () => records().destroy({ resource: resource('Author'), id: id! }));
    expect(statements.map((s) => s.split(' ')[0])).toEqual(['begin', 'select', 'delete', 'commit']);
  });

  it('leaves no row when reading the new record fails: the insert and its read-back are one statement', async () => {
    const before = await countRows(library().db, 'books');
    const { records: brokenRecords, book } = broken();
    const { statements, result: error } = await countQueries(library().database, () =>
      brokenRecords.create({ resource: book, view: 'show', values: { title: 'Ghost written' } }).then(() => undefined, (e: unknown) => e),
    );
    // 42P01 undefined_table: the statement that inserts and reads back failed.
    expect(error).toMatchObject({ code: '42P01' });
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^with "written" as \(insert into "books"/);
    expect(await countRows(library().db, 'books')).toBe(before);
  });

  it('updates only the given columns and returns the record on the view asked for', async () => {
    const [id] = await insertRows(library().db, 'books', [{ title: 'Mort', pages: 243, author_id: 2 }]);
    const row = await records().update({ resource: resource('Book'), view: 'show', id: id!, values: { pages: 250, published: true, editor_id: 1 } });
    expect(row).toMatchObject({ id, title: 'Mort', pages: 250, published: true, author_id: 2, editor_id: 1, __belongs_to__editor: 'Ursula' });
    expect(await library().db.selectFrom('books').select(['title', 'pages', 'published']).where('id', '=', id!).executeTakeFirst()).toEqual({ title: 'Mort', pages: 250, published: true });
  });

  it('updates nothing and returns the record when no value is given', async () => {
    const [id] = await insertRows(library().db, 'books', [{ title: 'Sourcery' }]);
    const { result, statements } = await countQueries(library().database, () => records().update({ resource: resource('Book'), view: 'show', id: id!, values: {} }));
    expect(result).toMatchObject({ id, title: 'Sourcery' });
    expect(statements.some((s) => s.startsWith('update'))).toBe(false);
  });

  it('rolls an update back when reading the record fails after the update: the row is unchanged', async () => {
    const [id] = await insertRows(library().db, 'books', [{ title: 'Before' }]);
    const { records: brokenRecords, book } = broken();
    await expect(brokenRecords.update({ resource: book, view: 'show', id: id!, values: { title: 'After' } })).rejects.toMatchObject({ code: '42P01' });
    expect(await library().db.selectFrom('books').select('title').where('id', '=', id!).executeTakeFirst()).toEqual({ title: 'Before' });
  });

  it('destroys a record, and its reviews with it through the cascading foreign key', async () => {
    const [id] = await insertRows(library().db, 'books', [{ title: 'Gone' }]);
    await insertRows(library().db, 'reviews', [{ book_id: id, stars: 4 }, { book_id: id, stars: 2 }]);
    await records().destroy({ resource: resource('Book'), id: id! });
    expect(await library().db.selectFrom('books').select('id').where('id', '=', id!).execute()).toEqual([]);
    expect(await library().db.selectFrom('reviews').select('id').where('book_id', '=', id!).execute()).toEqual([]);
  });

  it('destroys an editor and sets the books\' editor to null (on delete set null)', async () => {
    const [editor] = await insertRows(library().db, 'authors', [{ name: 'Ed' }]);
    const [bookId] = await insertRows(library().db, 'books', [{ title: 'Edited', editor_id: editor }]);
    await records().destroy({ resource: resource('Author'), id: editor! });
    expect(await library().db.selectFrom('books').select('editor_id').where('id', '=', bookId!).executeTakeFirst()).toEqual({ editor_id: null });
  });

  it('throws RecordNotFoundError when destroying a record that does not exist', async () => {
    await expect(records().destroy({ resource: resource('Book'), id: 999_999 })).rejects.toMatchObject({ code: 'PANEL_ERR_RECORD_NOT_FOUND' });
  });

  it('maps a foreign key checked only at commit on create to "must exist", and leaves no row', async () => {
    const before = await tableRows(library().db, 'loans');
    const errors = await refusal(records().create({ resource: resource('Loan'), view: 'show', values: { book_id: 999_999, borrower: 'Sam' } }));
    expect(errors).toEqual({ book: ['must exist'] });
    expect(await tableRows(library().db, 'loans')).toEqual(before);
  });

  it('refuses at commit to destroy a book still on loan, and rolls back the reviews the cascade had deleted', async () => {
    const [id] = await insertRows(library().db, 'books', [{ title: 'On loan' }]);
    await insertRows(library().db, 'reviews', [{ book_id: id, stars: 5 }]);
    await insertRows(library().db, 'loans', [{ book_id: id, borrower: 'Sam' }]);
    const [books, reviews] = [await tableRows(library().db, 'books'), await tableRows(library().db, 'reviews')];
    const errors = await refusal(records().destroy({ resource: resource('Book'), id: id! }));
    expect(errors).toEqual({ base: ['Cannot delete record because dependent loans exist'] });
    expect(await tableRows(library().db, 'books')).toEqual(books);
    expect(await tableRows(library().db, 'reviews')).toEqual(reviews);
  });

  it('passes an error that is not about the data through unchanged (not a RecordInvalidError)', async () => {
    const { records: brokenRecords, book } = broken();
    const error = await brokenRecords.create({ resource: book, view: 'show', values: { title: 'x' } }).then(() => undefined, (e: unknown) => e);
    expect(isPanelError(error)).toBe(false);
  });
}, seed);
