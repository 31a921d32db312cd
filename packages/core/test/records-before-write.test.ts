import { expect, it } from 'vitest';
import { RecordInvalidError, type RecordRow } from '@panel/core';
import { countQueries } from '@panel/test-support';
import { describeOnEachDatabase, type Library } from './fixtures/library-database.js';
import { insertRows } from './fixtures/library-schema.js';

async function seed({ db }: Library): Promise<void> {
  await insertRows(db, 'authors', [{ name: 'Ursula' }]);
}

/** `update`'s `beforeWrite`: the API authorizes there, on the record it found, before the values are judged and written. */
describeOnEachDatabase('RecordsRepository.update with beforeWrite', (library) => {
  const update = (id: number, beforeWrite: (context: { record: RecordRow }) => void | Promise<void>) =>
    library().records.update({ resource: library().resource('Book'), view: 'show', id, values: { title: 'After' }, beforeWrite });

  it('receives every column of the record as it is before the update, read through the scope before the write', async () => {
    const [id] = await insertRows(library().db, 'books', [{ title: 'Before', isbn: '978-0', author_id: 1 }]);
    const seen: RecordRow[] = [];
    const { result, statements } = await countQueries(library().database, () => update(id!, ({ record }) => void seen.push(record)));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ id, title: 'Before', isbn: '978-0', author_id: 1 });
    expect(result).toMatchObject({ id, title: 'After' });
    expect(statements.map((statement) => statement.split(' ')[0])).toEqual(['select', 'with']);
  });

  it('refuses the update when it throws: nothing is written and the error comes out', async () => {
    const [id] = await insertRows(library().db, 'books', [{ title: 'Before' }]);
    const refusal = new RecordInvalidError({ title: ['is invalid'] });
    const { result, statements } = await countQueries(library().database, () => update(id!, () => Promise.reject(refusal)).catch((error: unknown) => error));
    expect(result).toBe(refusal);
    // Only the read ran: no write statement, and no transaction to roll back.
    expect(statements.map((statement) => statement.split(' ')[0])).toEqual(['select']);
    expect(await library().db.selectFrom('books').select('title').where('id', '=', id!).executeTakeFirst()).toEqual({ title: 'Before' });
  });

  it('is not called for a record outside the scope: that is a 404 first', async () => {
    const [id] = await insertRows(library().db, 'books', [{ title: 'Hidden', published: false }]);
    let called = false;
    const outcome = library()
      .records.update({ resource: library().resource('Book'), view: 'show', id: id!, values: { title: 'x' }, scope: (query) => query.where('r.published', '=', true), beforeWrite: () => {
        called = true;
      } })
      .catch((error: unknown) => error);
    expect(await outcome).toMatchObject({ code: 'PANEL_ERR_RECORD_NOT_FOUND' });
    expect(called).toBe(false);
  });
}, seed);
