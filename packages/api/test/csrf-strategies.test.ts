import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionCodec, type PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { buildLibraryApp, prepareLibrary } from './library-app.js';

const SECRET = 'a-test-session-secret-of-32-chars-or-more';
const sessions = createSessionCodec(SECRET);
const cookie = `panel_session=${sessions.seal({ userId: 1, csrfToken: 'token-1' })}`;

for (const kind of testDatabaseKinds()) {
  describe(`"A controller overrides the class method setup_csrf_protection to change it" [${kind}]`, () => {
    let database: PanelDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareLibrary(database);
    });
    afterAll(async () => database?.close());

    const app = () => buildLibraryApp(database, { sessionSecret: SECRET, license: { features: ['api'] } });

    it('"for example raise on forgery": the exception strategy answers 422 JSON and writes nothing', async () => {
      const { app: server } = await app();
      const refused = await server.inject({ method: 'PATCH', url: '/api/resources/csrf/books/1', headers: { cookie }, payload: { book: { title: 'Forged' } } });
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toEqual({ error: "Can't verify CSRF token authenticity." });
      const read = await server.inject({ method: 'GET', url: '/api/resources/csrf/books/1', headers: { cookie } });
      expect(read.statusCode).toBe(200);
      expect(read.json().record.title).toBe('The Dispossessed');
      const allowed = await server.inject({ method: 'PATCH', url: '/api/resources/csrf/books/1', headers: { cookie, 'x-csrf-token': 'token-1' }, payload: { book: { title: 'The Dispossessed' } } });
      expect(allowed.statusCode).toBe(200);
      await server.close();
    });

    it('"or leave it empty to disable": an empty override keeps the session on unsafe requests', async () => {
      const { app: server } = await app();
      const response = await server.inject({ method: 'PATCH', url: '/api/resources/csrf/authors/2', headers: { cookie }, payload: { author: { name: 'Italo Calvino' } } });
      expect(response.statusCode).toBe(200);
      expect(response.json().record.name).toBe('Italo Calvino');
      await server.close();
    });

    it('gives every request an empty session when no sessionSecret is configured', async () => {
      const { app: server } = await buildLibraryApp(database, { license: { features: ['api'] } });
      const response = await server.inject({ method: 'GET', url: '/api/resources/csrf/books/1', headers: { cookie } });
      expect(response.statusCode).toBe(401);
      await server.close();
    });
  });
}
