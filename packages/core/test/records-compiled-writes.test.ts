import { expect, it } from 'vitest';
import { RecordsRepository, Resource, compileResources, field } from '@panel/core';
import { countQueries } from '@panel/test-support';
import { describeOnEachDatabase } from './fixtures/library-database.js';
import { tableRows } from './fixtures/library-schema.js';

/** A book whose writes have no check in their statement (no unique field, no association): its statement is compiled once per column list. */
class PlainBookResource extends Resource {
  static override resourceName = 'PlainBook';
  static override table = 'books';
  fields() {
    return [field.id(), field.text('title', { required: true }), field.integer('pages'), field.boolean('published'), field.date('published_on')];
  }
}

describeOnEachDatabase('writes compiled once per resource and column list', (library) => {
  const registry = compileResources([PlainBookResource]);
  const records = () => new RecordsRepository(library().db, registry);
  const resource = registry.get('PlainBook')!;
  const count = <T,>(work: () => Promise<T>) => countQueries(library().database, work);

  it('"compile create/update statements once per resource and field set": the same text each time, each write with its own values, in one statement', async () => {
    const first = await count(() => records().create({ resource, view: 'show', values: { title: 'First', pages: 10, published: true } }));
    const second = await count(() => records().create({ resource, view: 'show', values: { title: 'Second', pages: null, published: false } }));
    expect(first.result).toMatchObject({ title: 'First', pages: 10, published: true });
    expect(second.result).toMatchObject({ title: 'Second', pages: null, published: false });
    expect(second.result.id).not.toBe(first.result.id);
    expect(first.statements).toHaveLength(1);
    expect(second.statements).toEqual(first.statements);
    // Another column list is another statement, with its own values.
    const third = await records().create({ resource, view: 'show', values: { pages: 7, title: 'Third' } });
    expect(third).toMatchObject({ title: 'Third', pages: 7, published: false });
    const stored = await tableRows(library().db, 'books');
    expect(stored.filter((row) => ['First', 'Second', 'Third'].includes(row.title as string)).map((row) => [row.title, row.pages, row.published])).toEqual([
      ['First', 10, true],
      ['Second', null, false],
      ['Third', 7, false],
    ]);
  });

  it('updates each record with its own values and id through the statement compiled once, and a missing id is still not found', async () => {
    const a = await records().create({ resource, view: 'show', values: { title: 'A' } });
    const b = await records().create({ resource, view: 'show', values: { title: 'B' } });
    const one = await count(() => records().update({ resource, view: 'show', id: a.id as number, values: { title: 'A2', pages: 1 } }));
    const two = await count(() => records().update({ resource, view: 'show', id: b.id as number, values: { title: 'B2', pages: 2 } }));
    expect(one.result).toMatchObject({ id: a.id, title: 'A2', pages: 1 });
    expect(two.result).toMatchObject({ id: b.id, title: 'B2', pages: 2 });
    expect(two.statements).toEqual(one.statements);
    const error = await records()
      .update({ resource, view: 'show', id: 999_999, values: { title: 'Nobody', pages: 3 } })
      .then(() => undefined, (reason: unknown) => reason);
    expect((error as { code?: string }).code).toBe('PANEL_ERR_RECORD_NOT_FOUND');
  });

  it('writes a date through the compiled statement as its text', async () => {
    const dated = await records().create({ resource, view: 'show', values: { title: 'Dated', published_on: '2024-02-29' } });
    expect(String(dated.published_on)).toMatch(/2024-02-29|Thu Feb 29 2024/);
  });
});
