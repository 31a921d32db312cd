import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { buildLibraryApp, prepareLibrary, AUTHORIZED } from './library-app.js';

for (const kind of testDatabaseKinds()) {
  describe(`Edition A authentication and the current user [${kind}]`, () => {
    let database: PanelDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareLibrary(database);
    });
    afterAll(async () => database?.close());

    it('"The default implementation raises, so the API is closed: every request gets 401 with { "error": "Unauthorized" }"', async () => {
      const { app } = await buildLibraryApp(database);
      for (const [method, url] of [['GET', '/api/resources/closed/books'], ['GET', '/api/resources/closed/books/1'], ['POST', '/api/resources/closed/books'], ['PATCH', '/api/resources/closed/books/1'], ['PUT', '/api/resources/closed/books/1'], ['DELETE', '/api/resources/closed/books/1']] as const) {
        const response = await app.inject({ method, url, headers: { 'x-user-id': '1' } });
        expect(response.statusCode, `${method} ${url}`).toBe(401);
        expect(response.json()).toEqual({ error: 'Unauthorized' });
      }
      await app.close();
    });

    it('"Raising Panel::Api::AuthenticationError anywhere in the hook rejects the request with that response", also from an awaited helper', async () => {
      const { app } = await buildLibraryApp(database);
      const response = await app.inject({ method: 'GET', url: '/api/resources/v1/books', headers: { 'x-user-id': 'nobody' } });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Unauthorized' });
      await app.close();
    });

    it('"Panel::Current.user is assigned after the hook from the configured method current_user_method (default :current_user)"; assigning it inside the hook has no effect', async () => {
      const { app } = await buildLibraryApp(database);
      const response = await app.inject({ method: 'GET', url: '/api/resources/v1/books', headers: { 'x-user-id': '2' } });
      expect(response.statusCode).toBe(200);
      expect(JSON.parse(response.headers['x-seen-user'] as string)).toEqual({ id: 2 });
      expect(response.json().records.map((b: { title: string }) => b.title).sort()).toEqual(['Ficciones', 'The Lathe of Heaven']);
      await app.close();
    });

    it('calls the configured currentUserMethod instead when one is named', async () => {
      const { app } = await buildLibraryApp(database, { ...AUTHORIZED, currentUserMethod: 'findUser' });
      const response = await app.inject({ method: 'GET', url: '/api/resources/v1/books', headers: { 'x-user-id': '2' } });
      expect(JSON.parse(response.headers['x-seen-user'] as string)).toEqual({ id: 102 });
      await app.close();
    });

    it('fails at boot when a controller lacks the configured currentUserMethod, naming it and the fix', async () => {
      await expect(buildLibraryApp(database, { ...AUTHORIZED, currentUserMethod: 'whoIsIt' })).rejects.toThrow(/has no method "whoIsIt", the panel's currentUserMethod\. Fix: define whoIsIt\(\) in the BaseResourcesController/);
    });

    it('keeps concurrent requests\' users apart (Current is request-scoped)', async () => {
      const { app } = await buildLibraryApp(database);
      const responses = await Promise.all([1, 2, 1, 2, 1, 2].map((id) => app.inject({ method: 'GET', url: '/api/resources/v1/books', headers: { 'x-user-id': String(id) } })));
      responses.forEach((response, i) => {
        expect(JSON.parse(response.headers['x-seen-user'] as string)).toEqual({ id: i % 2 === 0 ? 1 : 2 });
      });
      await app.close();
    });

    it('"A public (skipped) endpoint has a nil user. A policy scope that calls a method on the user then raises and the request returns 500" — with a generic body; the stack is logged, never sent', async () => {
      const { app, logs } = await buildLibraryApp(database);
      const response = await app.inject({ method: 'GET', url: '/api/resources/v1/authors' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ error: 'Internal Server Error' });
      expect(response.body).not.toMatch(/TypeError|at |resolve/);
      expect(logs.join('')).toMatch(/TypeError/);
      expect(logs.join('')).toMatch(/"stack":"TypeError/);
      await app.close();
    });

    it('runs beforeAction callbacks with only/except, and lets one render to stop the request', async () => {
      const { app } = await buildLibraryApp(database);
      const show = await app.inject({ method: 'GET', url: '/api/resources/v1/books/1', headers: { 'x-user-id': '1' } });
      expect(JSON.parse(show.headers['x-current-user'] as string)).toEqual({ id: 999, note: 'assigned inside the hook' });
      const teapot = await app.inject({ method: 'GET', url: '/api/resources/v1/books/418', headers: { 'x-user-id': '1' } });
      expect(teapot.statusCode).toBe(418);
      const destroy = await app.inject({ method: 'DELETE', url: '/api/resources/v1/books/1', headers: { 'x-user-id': '1' } });
      expect(destroy.headers['x-current-user']).toBeUndefined();
      await app.close();
    });

    it('rescues an error by its code with rescueFrom', async () => {
      const { app } = await buildLibraryApp(database);
      const response = await app.inject({ method: 'DELETE', url: '/api/resources/v1/books/1', headers: { 'x-user-id': '1' } });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: 'Forbidden', user: { id: 1 } });
      await app.close();
    });
  });
}
