import { expect, it } from 'vitest';
import { RecordNotFoundError, isPanelError, type ScopeFunction } from '@panel/core';
import { describeOnEachDatabase, type Library } from './fixtures/library-database.js';
import { insertRows, tableRows } from './fixtures/library-schema.js';

/** Book 1 is published, book 2 is a draft; the scope lets only published books through. */
async function seed({ db }: Library): Promise<void> {
  await insertRows(db, 'authors', [{ name: 'Octavia' }]);
  await insertRows(db, 'books', [
    { title: 'Kindred', published: true, author_id: 1 },
    { title: 'Draft', published: false, author_id: 1 },
  ]);
}

const publishedOnly: ScopeFunction = (query) => query.where('r.published', '=', true);

async function rejection(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => {
      throw new Error('expected the records layer to refuse');
    },
    (error: unknown) => error,
  );
}

describeOnEachDatabase('finding a record through a scope', (library) => {
  const book = () => library().resource('Book');

  it('finds a record inside the scope, on the view asked for', async () => {
    const row = await library().records.find({ resource: book(), view: 'show', id: 1, scope: publishedOnly });
    expect(row).toMatchObject({ id: 1, title: 'Kindred', published: true, author_id: 1, __belongs_to__author: 'Octavia' });
  });

  it('throws RecordNotFoundError (PANEL_ERR_RECORD_NOT_FOUND) for a record outside the scope: "A record outside it returns 404, never 403."', async () => {
    const error = await rejection(library().records.find({ resource: book(), view: 'show', id: 2, scope: publishedOnly }));
    expect(error).toBeInstanceOf(RecordNotFoundError);
    expect(isPanelError(error, 'PANEL_ERR_RECORD_NOT_FOUND')).toBe(true);
    expect((error as Error).message).toBe("Couldn't find Book with id=2");
  });

  it('finds the same record without a scope: the scope, not the data, hid it', async () => {
    const row = await library().records.find({ resource: book(), view: 'show', id: 2 });
    expect(row.title).toBe('Draft');
  });

  it('throws the same error for an id that does not exist', async () => {
    const error = await rejection(library().records.find({ resource: book(), view: 'show', id: 404 }));
    expect(isPanelError(error, 'PANEL_ERR_RECORD_NOT_FOUND')).toBe(true);
    expect((error as Error).message).toBe("Couldn't find Book with id=404");
  });

  it('refuses to update a record outside the scope and leaves it unchanged: "Show, update and destroy look the record up through the same Scope."', async () => {
    const before = await tableRows(library().db, 'books');
    const error = await rejection(library().records.update({ resource: book(), view: 'show', id: 2, values: { title: 'Leaked' }, scope: publishedOnly }));
    expect(isPanelError(error, 'PANEL_ERR_RECORD_NOT_FOUND')).toBe(true);
    expect(await tableRows(library().db, 'books')).toEqual(before);
  });

  it('refuses to destroy a record outside the scope and keeps it', async () => {
    const before = await tableRows(library().db, 'books');
    const error = await rejection(library().records.destroy({ resource: book(), id: 2, scope: publishedOnly }));
    expect(isPanelError(error, 'PANEL_ERR_RECORD_NOT_FOUND')).toBe(true);
    expect(await tableRows(library().db, 'books')).toEqual(before);
  });

  it('finds each id, in turn, with a scope that lets everything through (the statement is compiled once) and with one that narrows', async () => {
    const everything: ScopeFunction = (query) => query;
    const found = [];
    for (const id of [1, 2, 1]) found.push((await library().records.find({ resource: book(), view: 'show', id, scope: everything })).title);
    expect(found).toEqual(['Kindred', 'Draft', 'Kindred']);
    // The narrowing scope after the compiled statement was used: still applied.
    expect(isPanelError(await rejection(library().records.find({ resource: book(), view: 'show', id: 2, scope: publishedOnly })), 'PANEL_ERR_RECORD_NOT_FOUND')).toBe(true);
    expect(isPanelError(await rejection(library().records.find({ resource: book(), view: 'show', id: 404, scope: everything })), 'PANEL_ERR_RECORD_NOT_FOUND')).toBe(true);
  });

  it('updates a record inside the scope', async () => {
    const row = await library().records.update({ resource: book(), view: 'show', id: 1, values: { pages: 264 }, scope: publishedOnly });
    expect(row).toMatchObject({ id: 1, pages: 264 });
  });
}, seed);
