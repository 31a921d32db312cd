import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { buildLibraryApp, prepareLibrary } from './library-app.js';

const user = { 'x-user-id': '1' };
const HOOKS = { controllersDir: 'app/controllers/panel/api/hooks' };

for (const kind of testDatabaseKinds()) {
  describe(`overridable hooks on BaseResourcesController ("call the parent and adjust, or replace it outright") [${kind}]`, () => {
    let database: PanelDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareLibrary(database);
      await database.db.insertInto('books').values({ title: 'Keeper (kept)', owner_id: 1, author_id: 1 }).execute();
    });
    afterAll(async () => database?.close());

    const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => {
      const { app } = await buildLibraryApp(database, { license: { features: ['api'] } }, HOOKS);
      const response = await app.inject({ method, url: `/api/resources/v1${url}`, headers: user, ...(payload === undefined ? {} : { payload: payload as object }) });
      await app.close();
      return response;
    };

    it('index: the override calls super and adjusts the rendered body; serializeRecords, serializeRecord and serializeFieldValue apply', async () => {
      const response = await call('GET', '/books?sort_by=id&sort_direction=asc&per_page=2');
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.meta).toEqual({ generated_by: 'BooksController#index' });
      expect(body.records).toEqual([
        { id: 1, title: 'THE DISPOSSESSED', owner_id: 1, author: { id: 1, label: 'Le Guin' }, view: 'index', position: 0 },
        { id: 2, title: 'INVISIBLE CITIES', owner_id: 1, author: { id: 2, label: 'Calvino' }, view: 'index', position: 1 },
      ]);
      expect(body.pagination.total_count).toBe(5);
    });

    it('show: the override replaces the action outright for one id and defers to super otherwise', async () => {
      expect((await call('GET', '/books/1')).json()).toEqual({ record: { id: 1, replaced: true } });
      expect((await call('GET', '/books/3')).json()).toEqual({ record: { id: 3, title: 'FICCIONES', owner_id: 2, author: { id: 3, label: 'Borges' }, view: 'show' } });
    });

    it('createSuccessAction: calls super and adds a Location header', async () => {
      const response = await call('POST', '/books', { book: { title: 'Cosmicomics', author_id: 2 } });
      expect(response.statusCode).toBe(201);
      expect(response.headers.location).toBe(`/api/resources/v1/books/${response.json().record.id}`);
      expect(response.json().record.title).toBe('COSMICOMICS');
    });

    it('createFailAction: replaced with a 400 { problems }', async () => {
      const response = await call('POST', '/books', { book: { title: '' } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ problems: { title: ["can't be blank"] } });
    });

    it('updateSuccessAction and updateFailAction', async () => {
      expect((await call('PATCH', '/books/2', { book: { title: 'Invisible Cities' } })).json()).toEqual({ updated: 2 });
      const failed = await call('PATCH', '/books/2', { book: { title: 'x'.repeat(61) } });
      expect(failed.statusCode).toBe(422);
      expect(failed.json()).toEqual({ errors: { title: ['is too long (maximum is 60 characters)'] }, message: 'Please fix the book' });
    });

    it('destroySuccessAction (204) and destroyFailAction (409 with the beforeDestroy message)', async () => {
      const created = (await call('POST', '/books', { book: { title: 'Short-lived' } })).json().record;
      const gone = await call('DELETE', `/books/${created.id}`);
      expect(gone.statusCode).toBe(204);
      expect(gone.body).toBe('');
      const kept = await call('DELETE', '/books/5');
      expect(kept.statusCode).toBe(409);
      expect(kept.json()).toEqual({ conflict: ['This book is kept'] });
      expect((await call('GET', '/books/5')).statusCode).toBe(200);
    });
  });
}
