import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { RecordsRepository, Resource, compileResources, createPanel, defineField, defineFieldType, field, isPanelError, type ValidationContext } from '@panel/core';
import { countQueries } from '@panel/test-support';
import { describeOnEachDatabase, refusal, type Library } from './fixtures/library-database.js';
import { insertRows, tableRows } from './fixtures/library-schema.js';

/** A book with a unique ISBN and an author that must exist, and no hook: its writes need no transaction. */
class CheckedBookResource extends Resource {
  static override resourceName = 'CheckedBook';
  static override table = 'books';
  fields() {
    return [field.id(), field.text('title', { required: true }), field.text('isbn', { unique: true }), field.belongsTo('author')];
  }
}

/** The same book with a `validate` hook that reads only the record and the errors so far: it runs no query. */
class ReviewedBookResource extends CheckedBookResource {
  static override resourceName = 'ReviewedBook';
  static calls = 0;
  static sawTakenIsbn = false;
  override validate({ record, errors }: ValidationContext) {
    ReviewedBookResource.calls += 1;
    ReviewedBookResource.sawTakenIsbn = errors.has('isbn');
    if (record.title === 'Untitled') errors.add('title', 'needs a real title');
  }
}

/**
 * The same book with a `validate` hook that writes through its `db` (a genre named after the
 * title, as an audit trail would) and may delete the author it was given: it runs in a transaction.
 */
class AuditedBookResource extends CheckedBookResource {
  static override resourceName = 'AuditedBook';
  static calls = 0;
  override async validate({ record, db }: ValidationContext) {
    AuditedBookResource.calls += 1;
    await db.insertInto('genres').values({ name: `audit: ${String(record.title)}` }).execute();
    if (record.title === 'Orphan') await db.deleteFrom('authors').where('id', '=', record.author_id as number).execute();
  }
}

/** An app's field type whose database check is not one condition: it asks in the write's transaction (a banned ISBN is listed in `genres`). */
const registeredIsbnField = defineFieldType({
  name: 'registered_isbn',
  serialize: ({ field, row }) => row[field.column!] ?? null,
  schema: () => ({ type: ['string', 'null'] }),
  parse: (value) => (typeof value === 'string' ? { ok: true, value } : { ok: false, message: 'must be a string' }),
  checkInTransaction: async ({ trx, value }) => {
    const banned = await trx.selectFrom('genres').select('id').where('name', '=', `banned: ${String(value)}`).executeTakeFirst();
    return banned ? 'is banned' : undefined;
  },
});

class RegisteredBookResource extends Resource {
  static override resourceName = 'RegisteredBook';
  static override table = 'books';
  fields() {
    return [field.id(), field.text('title', { required: true }), defineField('registered_isbn', 'isbn', { unique: true }), field.belongsTo('author')];
  }
}

class AuthorResource extends Resource {
  fields() {
    return [field.id(), field.text('name', { required: true }), field.text('handle')];
  }
}

async function seed({ db }: Library): Promise<void> {
  await insertRows(db, 'authors', [{ name: 'Ursula' }, { name: 'Terry' }]);
  await insertRows(db, 'books', [{ title: 'Taken', isbn: 'isbn-taken', author_id: 1 }]);
}

describeOnEachDatabase(
  'the statements of a write',
  (library, kind) => {
    const registry = compileResources([CheckedBookResource, ReviewedBookResource, AuditedBookResource, AuthorResource]);
    const records = () => new RecordsRepository(library().db, registry);
    const resource = (name: string) => registry.get(name)!;
    const count = <T,>(work: () => Promise<T>) => countQueries(library().database, work);
    const genres = async () => (await tableRows(library().db, 'genres')).map((row) => row.name);
    const titles = async () => (await tableRows(library().db, 'books')).map((row) => row.title);

    it('creates with its checks in one statement: "with checks as (…), written as (insert … where <checks>) select …", no transaction', async () => {
      const { result, count: statements, statements: sqls } = await count(() =>
        records().create({ resource: resource('CheckedBook'), view: 'show', values: { title: 'Dune', isbn: 'isbn-dune', author_id: 2 } }),
      );
      expect(result).toMatchObject({ title: 'Dune', isbn: 'isbn-dune', author_id: 2, __belongs_to__author: 'Terry' });
      expect(Object.keys(result).filter((key) => key.startsWith('panel_check'))).toEqual([]);
      expect(statements).toBe(1);
      expect(sqls[0]).toMatch(/^with "checks" as \(select .* as "panel_check_0", .* as "panel_check_1"\), "written" as \(insert into "books"/);
    });

    it('refuses a create whose checks fail with every message in field order, in the same one statement, writing nothing', async () => {
      const before = await titles();
      const { result, count: statements } = await count(() =>
        refusal(records().create({ resource: resource('CheckedBook'), view: 'show', values: { title: 'Copy', isbn: 'isbn-taken', author_id: 999 } })),
      );
      expect(result).toEqual({ isbn: ['has already been taken'], author: ['must exist'] });
      expect(Object.keys(result)).toEqual(['isbn', 'author']);
      expect(statements).toBe(1);
      expect(await titles()).toEqual(before);
    });

    it('updates in two statements, the read through the scope (the policy answers on it) and the update with its checks', async () => {
      const [id] = await insertRows(library().db, 'books', [{ title: 'Draft', isbn: 'isbn-draft', author_id: 1 }]);
      const { result, statements } = await count(() => records().update({ resource: resource('CheckedBook'), view: 'show', id: id!, values: { title: 'Final', author_id: 2 } }));
      expect(result).toMatchObject({ id, title: 'Final', author_id: 2, __belongs_to__author: 'Terry' });
      expect(statements).toHaveLength(2);
      expect(statements[0]).toMatch(/^select /);
      expect(statements[1]).toMatch(/^with "checks" as \(select .*\), "written" as \(update "books" set .* where "id" = \$\d+ and \(select "panel_check_0" from "checks"\) returning \*\)/);
      const refused = await refusal(records().update({ resource: resource('CheckedBook'), view: 'show', id: id!, values: { isbn: 'isbn-taken' } }));
      expect(refused).toEqual({ isbn: ['has already been taken'] });
      expect(await records().update({ resource: resource('CheckedBook'), view: 'show', id: id!, values: { isbn: 'isbn-draft' } })).toMatchObject({ isbn: 'isbn-draft' });
    });

    it('does not write a record that left the scope between its read and its update: 404, the record unchanged', async () => {
      const [id] = await insertRows(library().db, 'books', [{ title: 'Unpublished', author_id: 1 }]);
      const attempt = records().update({
        resource: resource('CheckedBook'),
        view: 'show',
        id: id!,
        values: { title: 'Rewritten' },
        scope: (query) => query.where('r.published', '=', false),
        // Another request publishes the book after this one read it.
        beforeWrite: async () => {
          await library().db.updateTable('books').set({ published: true }).where('id', '=', id!).execute();
        },
      });
      const error = await attempt.then(() => undefined, (reason: unknown) => reason);
      expect(isPanelError(error, 'PANEL_ERR_RECORD_NOT_FOUND')).toBe(true);
      expect((await library().db.selectFrom('books').select('title').where('id', '=', id!).executeTakeFirstOrThrow()).title).toBe('Unpublished');
    });

    it('applies a scope again in the update only when it narrows: an admin\'s scope, which returns its query, adds nothing', async () => {
      const [id] = await insertRows(library().db, 'books', [{ title: 'Scoped', author_id: 1 }]);
      const update = (scope: (query: any) => any) => count(() => records().update({ resource: resource('CheckedBook'), view: 'show', id: id!, values: { title: 'Scoped again' }, scope }));
      expect((await update((query) => query)).statements[1]).not.toContain(' in (select');
      expect((await update((query) => query.where('r.published', '=', false))).statements[1]).toMatch(/and "id" in \(select "r"\."id" from "books" as "r" where "r"\."published" = \$\d+ and "r"\."id" = \$\d+\)/);
    });

    it('runs a validate hook that makes no query without a transaction, after the checks: it finds their messages in errors, its own come after', async () => {
      ReviewedBookResource.calls = 0;
      const created = await count(() => records().create({ resource: resource('ReviewedBook'), view: 'show', values: { title: 'Kindred', author_id: 1 } }));
      expect(created.result).toMatchObject({ title: 'Kindred', __belongs_to__author: 'Ursula' });
      expect(created.statements).toHaveLength(2);
      expect(created.statements[0]).toMatch(/^select exists \(.*\) as "panel_check_0"$/);
      expect(created.statements[1]).toMatch(/^with "checks" as .*"written" as \(insert into "books"/);
      expect(ReviewedBookResource.sawTakenIsbn).toBe(false);
      const refused = await count(() => refusal(records().create({ resource: resource('ReviewedBook'), view: 'show', values: { title: 'Untitled', isbn: 'isbn-taken', author_id: 1 } })));
      expect(refused.result).toEqual({ isbn: ['has already been taken'], title: ['needs a real title'] });
      expect(Object.keys(refused.result)).toEqual(['isbn', 'title']);
      expect(refused.statements).toHaveLength(1);
      expect(ReviewedBookResource.sawTakenIsbn).toBe(true);
      expect(ReviewedBookResource.calls).toBe(2);
    });

    it('runs a validate hook that queries its db in a transaction with the write: begin at its first query, commit after the write', async () => {
      AuditedBookResource.calls = 0;
      const { result, statements } = await count(() => records().create({ resource: resource('AuditedBook'), view: 'show', values: { title: 'Solaris', author_id: 1 } }));
      expect(result).toMatchObject({ title: 'Solaris' });
      expect(statements.map((statement) => statement.split(' ').slice(0, 3).join(' '))).toEqual(['select exists (select', 'begin', 'insert into "genres"', 'with "checks" as', 'commit']);
      expect(await genres()).toContain('audit: Solaris');
      expect(AuditedBookResource.calls).toBe(1);
    });

    it('rolls back what the hook wrote when the write is refused: nothing half-written', async () => {
      AuditedBookResource.calls = 0;
      const before = await titles();
      const { result, statements } = await count(() => refusal(records().create({ resource: resource('AuditedBook'), view: 'show', values: { title: 'Second copy', isbn: 'isbn-taken', author_id: 1 } })));
      expect(result).toEqual({ isbn: ['has already been taken'] });
      expect(statements.slice(1, 2)).toEqual(['begin']);
      expect(statements.at(-1)).toBe('rollback');
      expect(await genres()).not.toContain('audit: Second copy');
      expect(await titles()).toEqual(before);
      expect(AuditedBookResource.calls).toBe(1);
    });

    it('judges the checks again in the write\'s statement, in the hook\'s transaction: a hook that deletes the author gets "must exist", and the delete is rolled back', async () => {
      const [author] = await insertRows(library().db, 'authors', [{ name: 'Stanisław' }]);
      const errors = await refusal(records().create({ resource: resource('AuditedBook'), view: 'show', values: { title: 'Orphan', author_id: author! } }));
      expect(errors).toEqual({ author: ['must exist'] });
      expect(await library().db.selectFrom('authors').select('name').where('id', '=', author!).executeTakeFirst()).toEqual({ name: 'Stanisław' });
      expect(await genres()).not.toContain('audit: Orphan');
    });

    it('runs the write in a transaction when a field type checks in it (checkInTransaction): its message follows the field\'s unique check', async () => {
      const panel = await createPanel({ database: library().database, resources: [RegisteredBookResource, AuthorResource], fieldTypes: [registeredIsbnField] });
      const book = panel.resource('RegisteredBook');
      await insertRows(library().db, 'genres', [{ name: 'banned: isbn-taken' }, { name: 'banned: isbn-banned' }]);
      const created = await count(() => panel.records.create({ resource: book, view: 'show', values: { title: 'Ubik', isbn: 'isbn-ubik', author_id: 1 } }));
      expect(created.result).toMatchObject({ title: 'Ubik', isbn: 'isbn-ubik' });
      expect(created.statements.map((statement) => statement.split(' ').slice(0, 2).join(' '))).toEqual(['begin', 'select "id"', 'with "checks"', 'commit']);
      const refused = await count(() => refusal(panel.records.create({ resource: book, view: 'show', values: { title: 'Copy', isbn: 'isbn-taken', author_id: 999 } })));
      expect(refused.result).toEqual({ isbn: ['has already been taken', 'is banned'], author: ['must exist'] });
      expect(refused.statements.at(-1)).toBe('rollback');
      expect(await titles()).not.toContain('Copy');
    });

    if (kind === 'postgres') {
      it('answers 422 "must exist", never 500, when the author is deleted by another transaction while the insert waits on it', async () => {
        const { db } = library();
        const [author] = await insertRows(db, 'authors', [{ name: 'Doomed' }]);
        // Another transaction deletes the author and has not committed: the insert's statement sees the author (its check holds), and its foreign key waits on the row.
        const deleter = await db.startTransaction().execute();
        await deleter.deleteFrom('authors').where('id', '=', author!).execute();
        const create = records().create({ resource: resource('CheckedBook'), view: 'show', values: { title: 'Too late', author_id: author! } });
        const settled = create.then(() => undefined, (reason: unknown) => reason);
        for (;;) {
          const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%insert into "books"%'`.execute(db);
          if (waiting.rows[0]!.n > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        await deleter.commit().execute();
        const error = await settled;
        expect(isPanelError(error, 'PANEL_ERR_RECORD_INVALID'), String(error)).toBe(true);
        expect((error as { errors: unknown }).errors).toEqual({ author: ['must exist'] });
        expect(await titles()).not.toContain('Too late');
      });
    }
  },
  seed,
);
