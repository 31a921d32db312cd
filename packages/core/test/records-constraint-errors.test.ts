import { expect, it } from 'vitest';
import { RecordInvalidError, type ColumnValues } from '@panel/core';
import { describeOnEachDatabase, refusal, type Library } from './fixtures/library-database.js';
import { insertRows, tableRows } from './fixtures/library-schema.js';

/** Author 1 wrote book 1 (isbn 978-1) and has a biography; author 2 wrote nothing. */
async function seed({ db }: Library): Promise<void> {
  await insertRows(db, 'authors', [{ name: 'Ursula' }, { name: 'Terry' }]);
  await insertRows(db, 'biographies', [{ author_id: 1 }]);
  await insertRows(db, 'books', [{ title: 'Earthsea', isbn: '978-1', author_id: 1 }, { title: 'Lathe', isbn: '978-2' }]);
  await insertRows(db, 'reviews', [{ book_id: 1, stars: 5 }]);
  await insertRows(db, 'shelves', [{ size: 'small', size_limit: 3 }]);
}

const TABLES = ['authors', 'books', 'reviews', 'biographies', 'shelves'] as const;

/**
 * "a database constraint (unique, not null, foreign key) → 422 with a per-field or `base`
 * message, never a 500": each refused write comes back as RecordInvalidError, and no table changed.
 */
describeOnEachDatabase('constraint violations as RecordInvalidError', (library) => {
  const snapshot = async () => Promise.all(TABLES.map((table) => tableRows(library().db, table)));
  const create = (resource: string, values: ColumnValues) => library().records.create({ resource: library().resource(resource), view: 'show', values });
  const update = (resource: string, id: number, values: ColumnValues) => library().records.update({ resource: library().resource(resource), view: 'show', id, values });
  const destroy = (resource: string, id: number) => library().records.destroy({ resource: library().resource(resource), id });

  /** Runs a write that must be refused, checks that no table changed, and returns its messages. */
  async function refusedWithoutChange(write: () => Promise<unknown>) {
    const before = await snapshot();
    const errors = await refusal(write());
    expect(await snapshot()).toEqual(before);
    return errors;
  }

  it('throws a RecordInvalidError with the code PANEL_ERR_RECORD_INVALID and a readable message', async () => {
    const error = await create('Book', { title: 'Copy', isbn: '978-1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecordInvalidError);
    expect(error).toMatchObject({ code: 'PANEL_ERR_RECORD_INVALID', message: 'Validation failed: isbn has already been taken' });
  });

  it('maps a unique violation on create to "has already been taken" on the field', async () => {
    expect(await refusedWithoutChange(() => create('Book', { title: 'Copy', isbn: '978-1' }))).toEqual({ isbn: ['has already been taken'] });
  });

  it('maps a unique violation on update to "has already been taken" on the field', async () => {
    expect(await refusedWithoutChange(() => update('Book', 2, { isbn: '978-1' }))).toEqual({ isbn: ['has already been taken'] });
  });

  it('maps a unique violation on a belongs_to column to the belongs_to field (a second biography of author 1)', async () => {
    expect(await refusedWithoutChange(() => create('Biography', { author_id: 1 }))).toEqual({ author: ['has already been taken'] });
  });

  it('maps a not-null violation to "can\'t be blank" on the field', async () => {
    expect(await refusedWithoutChange(() => create('Book', { isbn: '978-9' }))).toEqual({ title: ["can't be blank"] });
    expect(await refusedWithoutChange(() => update('Book', 1, { title: null }))).toEqual({ title: ["can't be blank"] });
  });

  it('maps a not-null violation on a foreign key to "can\'t be blank" on the belongs_to field', async () => {
    expect(await refusedWithoutChange(() => create('Review', { stars: 3 }))).toEqual({ book: ["can't be blank"] });
  });

  it('maps a foreign key violation on create to "must exist" on the belongs_to field name, not the column', async () => {
    expect(await refusedWithoutChange(() => create('Book', { title: 'Orphan', author_id: 999 }))).toEqual({ author: ['must exist'] });
  });

  it('maps a foreign key violation on update to "must exist" on the belongs_to field (editor_id → editor)', async () => {
    expect(await refusedWithoutChange(() => update('Book', 1, { editor_id: 999 }))).toEqual({ editor: ['must exist'] });
  });

  it('refuses to delete a record that a restricting foreign key still references: base "Cannot delete record because dependent books exist"', async () => {
    expect(await refusedWithoutChange(() => destroy('Author', 1))).toEqual({ base: ['Cannot delete record because dependent books exist'] });
  });

  it('deletes a record whose dependents cascade (author 2 with a biography, no books)', async () => {
    const [biography] = await insertRows(library().db, 'biographies', [{ author_id: 2 }]);
    await destroy('Author', 2);
    expect(await library().db.selectFrom('biographies').select('id').where('id', '=', biography!).execute()).toEqual([]);
    await insertRows(library().db, 'authors', [{ id: 2, name: 'Terry' }]);
  });

  it('maps a column check violation to "is invalid" on the field (books_pages_check)', async () => {
    expect(await refusedWithoutChange(() => create('Book', { title: 'Empty', pages: 0 }))).toEqual({ pages: ['is invalid'] });
    expect(await refusedWithoutChange(() => update('Book', 1, { pages: -5 }))).toEqual({ pages: ['is invalid'] });
  });

  it('maps a named table check whose name starts with <table>_<column>_ to that field (reviews_stars_range)', async () => {
    expect(await refusedWithoutChange(() => create('Review', { book_id: 1, stars: 6 }))).toEqual({ stars: ['is invalid'] });
  });

  // The check constraint is matched by the prefix <table>_<column>_: shelves_size_limit_check
  // must land on "size_limit", not on "size" (declared first, and a prefix of it).
  it('maps a check violation to the field whose column the constraint names, not to a field whose name prefixes it', async () => {
    expect(await refusedWithoutChange(() => create('Shelf', { size: 'big', size_limit: 0 }))).toEqual({ size_limit: ['is invalid'] });
  });

  // Issue 42, item 15: "no PostgreSQL text in any body" (this answered PostgreSQL's own message on base).
  it('maps a value too long for a varchar (class 22, data exception) to the field whose value is too long, in its own words', async () => {
    const errors = await refusedWithoutChange(() => create('Author', { name: 'x'.repeat(41) }));
    expect(errors).toEqual({ name: ['is too long (maximum is 40 characters)'] });
  });

  it('maps an integer out of range (class 22) to the field whose value PostgreSQL quotes', async () => {
    expect(await refusedWithoutChange(() => update('Book', 1, { pages: 2 ** 31 }))).toEqual({ pages: ['is out of range'] });
  });

  // Issue 42, item 15: "no PostgreSQL text in any body" (this answered `numeric field overflow` on base).
  it('maps a decimal too large for numeric(8, 2) (class 22) to the field, never PostgreSQL\'s text', async () => {
    expect(await refusedWithoutChange(() => create('Book', { title: 'Dear', price: 1_000_000 }))).toEqual({ price: ['is out of range'] });
    // 999999.995 rounds to 1000000.00 at scale 2: out of range too; 999999.99 fits.
    expect(await refusedWithoutChange(() => create('Book', { title: 'Dearer', price: 999_999.995 }))).toEqual({ price: ['is out of range'] });
  });

  it('accepts the write once the value is valid: a refusal leaves the connection usable', async () => {
    const row = await create('Book', { title: 'Fine', isbn: '978-3', pages: 10 });
    expect(row).toMatchObject({ title: 'Fine', isbn: '978-3', pages: 10 });
  });
}, seed);
