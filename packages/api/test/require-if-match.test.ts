import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { buildLibraryApp, prepareLibrary } from './library-app.js';

const REQUIRED = { controllersDir: 'app/controllers/panel/api/required' };
const USER = { 'x-user-id': '1', 'content-type': 'application/json' };

for (const kind of testDatabaseKinds()) {
  describe(`a controller's static requireIfMatch [${kind}]`, () => {
    let database: PanelDatabase;
    let app: FastifyInstance;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareLibrary(database);
      ({ app } = await buildLibraryApp(database, { license: { features: ['api'] } }, REQUIRED));
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });
    const title = async (id: number) => (await database.db.selectFrom('books').select('title').where('id', '=', id).executeTakeFirst())?.title;

    it('"`static requireIfMatch = true` on one controller makes a missing If-Match on update and delete a 428", in a batch per operation too, and "the OpenAPI document then marks the header required"', async () => {
      const patch = await app.inject({ method: 'PATCH', url: '/api/resources/v1/books/1', headers: USER, payload: JSON.stringify({ book: { title: 'Untagged' } }) });
      expect(patch.statusCode).toBe(428);
      expect(patch.json()).toEqual({ error: 'Precondition Required' });
      const batch = await app.inject({ method: 'POST', url: '/api/resources/v1/books/batch', headers: USER, payload: JSON.stringify({ atomic: false, operations: [{ op: 'update', id: 1, data: { title: 'Untagged' } }, { op: 'delete', id: 2 }, { op: 'update', id: 3, if_match: '*', data: { title: 'Ficciones, starred' } }] }) });
      expect(batch.statusCode).toBe(200);
      expect(batch.json().results).toEqual([
        { index: 0, status: 428, error: 'Precondition Required' },
        { index: 1, status: 428, error: 'Precondition Required' },
        { index: 2, status: 200, record: expect.objectContaining({ id: 3, title: 'Ficciones, starred' }) },
      ]);
      expect([await title(1), await title(2), await title(3)]).toEqual(['The Dispossessed', 'Invisible Cities', 'Ficciones, starred']);
      const document = (await app.inject({ url: '/api/resources/v1/openapi.json' })).json();
      const member = document.paths['/api/resources/v1/books/{id}'];
      expect(member.patch.responses['428']).toBeDefined();
      expect(member.delete.responses['428']).toBeDefined();
      expect(member.patch.parameters.find((parameter: { name: string }) => parameter.name === 'If-Match').required).toBe(true);
      const results = document.paths['/api/resources/v1/books/batch'].post.responses['200'].content['application/json'].schema.properties.results;
      expect(results.items.properties.status.enum).toContain(428);
    });
  });
}
