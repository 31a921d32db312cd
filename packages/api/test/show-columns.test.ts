// What show reads of the row (issue 41, "a request that costs what a hand-written route costs"):
// the show view's own columns when nothing but its serializers reads the row, as the hand-written
// route selects the columns it answers; every column when a policy may decide on the record or
// the controller overrides a method that receives the row (`authorize`, `serializeRecord`,
// `serializeRecords`, `serializeFieldValue`), since either may read any column.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resource, field, type PanelDatabase } from '@panel/core';
import AuthorResource from './fixtures/library/app/panel/resources/author.js';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { AUTHORIZED, buildLibraryApp, prepareLibrary } from './library-app.js';

for (const kind of testDatabaseKinds()) {
  describe(`show's columns [${kind}]`, () => {
    let database: PanelDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareLibrary(database);
      // A column no field declares: never answered, read only by code that reads the whole row.
      await sql`alter table books add column notes text default 'kept for the owner'`.execute(database.db);
    });
    afterAll(async () => {
      await database?.close();
    });

    /** The statements one request sends, after one unmeasured request (the statement cache and the pool warm up). */
    async function statementsOf(app: Awaited<ReturnType<typeof buildLibraryApp>>['app'], url: string, headers: Record<string, string>) {
      await app.inject({ method: 'GET', url, headers });
      const statements: string[] = [];
      const stop = database.onQuery((query) => statements.push(query.sql));
      try {
        const response = await app.inject({ method: 'GET', url, headers });
        return { response, statements };
      } finally {
        stop();
      }
    }

    it('without policies, and with the runtime\'s own methods, show selects the view\'s columns and nothing else, in one statement', async () => {
      const { app } = await buildLibraryApp(database, {});
      try {
        const { response, statements } = await statementsOf(app, '/api/resources/v1/books/1', { 'x-user-id': '1' });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ record: { id: 1, title: 'The Dispossessed', owner_id: 1, author: { id: 1, label: 'Le Guin' } } });
        expect(statements).toHaveLength(1);
        expect(statements[0]).not.toContain('notes');
        expect(statements[0]).not.toMatch(/"r"\.\*/);
      } finally {
        await app.close();
      }
    });

    it('with `include`, show reads every column (an included path reads the row\'s own keys)', async () => {
      const { app } = await buildLibraryApp(database, {});
      try {
        const { response, statements } = await statementsOf(app, '/api/resources/v1/books/1?include=author', { 'x-user-id': '1' });
        expect(response.statusCode).toBe(200);
        expect(response.json().record.author.record).toMatchObject({ id: 1, name: 'Le Guin' });
        expect(statements[0]).toMatch(/"r"\.\*/);
      } finally {
        await app.close();
      }
    });

    it('under policies, show reads every column: a policy deciding on the record may read any', async () => {
      const { app } = await buildLibraryApp(database, AUTHORIZED);
      try {
        const { response, statements } = await statementsOf(app, '/api/resources/v1/books/1', { 'x-user-id': '1' });
        expect(response.statusCode).toBe(200);
        expect(statements.some((statement) => /"r"\.\*/.test(statement))).toBe(true);
      } finally {
        await app.close();
      }
    });

    it('"The record a rule sees is the row as the records layer loaded it: on show … every column of the table" (docs/authorization.md): a visible rule deciding on a column no field shows still hides the field on show', async () => {
      /** Books whose title is hidden when their `notes` column (no field) says so. */
      class RuledBookResource extends Resource {
        static override resourceName = 'Book';
        static override table = 'books';
        override fields() {
          return [field.id(), field.text('title', { visible: ({ record }) => (record as { notes?: unknown } | null)?.notes !== 'secret title' }), field.integer('owner_id'), field.belongsTo('author')];
        }
      }
      await sql`update books set notes = 'secret title' where id = 2`.execute(database.db);
      const { app } = await buildLibraryApp(database, { resources: [AuthorResource, RuledBookResource] });
      try {
        const { response, statements } = await statementsOf(app, '/api/resources/v1/books/2', { 'x-user-id': '1' });
        expect(response.statusCode).toBe(200);
        expect(response.json().record).not.toHaveProperty('title');
        expect(statements[0]).toMatch(/"r"\.\*/);
        const other = await app.inject({ method: 'GET', url: '/api/resources/v1/books/1', headers: { 'x-user-id': '1' } });
        expect(other.json().record.title).toBe('The Dispossessed');
      } finally {
        await sql`update books set notes = 'kept for the owner' where id = 2`.execute(database.db);
        await app.close();
      }
    });

    it('a controller that overrides serializeRecord receives every column of the row, `notes` included', async () => {
      const { app } = await buildLibraryApp(database, {}, { controllersDir: 'app/controllers/panel/api/hooks' });
      try {
        // Book 1 is the fixture's replaced answer; book 2 goes through the runtime's show.
        const { response, statements } = await statementsOf(app, '/api/resources/v1/books/2', { 'x-user-id': '1' });
        expect(response.statusCode).toBe(200);
        expect(statements.some((statement) => /"r"\.\*/.test(statement))).toBe(true);
      } finally {
        await app.close();
      }
    });
  });
}
