// Issue 21, "one code → status → body mapping used by every route and plugin": a custom route's
// errors, the mount's 404 and Edition B's refused policy are the same table's answers, by HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotAuthorizedError, runMigrations, type PanelDatabase } from '@panel/core';
import { apiTokensSchemaV1, configurePanelApi } from '@panel/api-tokens';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import type { FastifyInstance } from 'fastify';
import { errorReply, NotFoundError } from '../src/index.js';
import { AUTHORIZED, buildLibraryApp, prepareLibrary } from './library-app.js';

/** Custom routes that throw what the table answers. */
function routes(api: FastifyInstance): void {
  api.get('/refuse', async () => {
    throw new NotAuthorizedError('show', 'Report');
  });
  api.get('/gone', async () => {
    throw new NotFoundError({ detail: 'The report was archived' });
  });
}

for (const kind of testDatabaseKinds()) {
  describe(`custom routes and the mount answer through the error table [${kind}]`, () => {
    let database: PanelDatabase;
    const saved = process.env.PANEL_API_TOKEN_PEPPER;
    beforeAll(async () => {
      process.env.PANEL_API_TOKEN_PEPPER = 'p'.repeat(40);
      database = await openTestDatabase(kind);
      await prepareLibrary(database);
      await runMigrations(database, { '0001-create-panel-api-tokens': apiTokensSchemaV1 });
    });
    afterAll(async () => {
      if (saved === undefined) delete process.env.PANEL_API_TOKEN_PEPPER;
      else process.env.PANEL_API_TOKEN_PEPPER = saved;
      await database?.close();
    });

    it('Edition A: a refused policy in a custom route is the redirect with the flash; an unknown URL and a NotFoundError are the table\'s 404', async () => {
      const { app } = await buildLibraryApp(database, AUTHORIZED, { routes });
      try {
        const refused = await app.inject({ url: '/api/refuse' });
        expect(refused.statusCode).toBe(302);
        expect(refused.headers.location).toBe('/panel');
        expect(String(refused.headers['set-cookie'])).toMatch(/^panel_flash=You%20are%20not%20authorized/);
        const unknown = await app.inject({ url: '/api/resources/v1/no-such-thing' });
        expect(unknown.statusCode).toBe(404);
        expect(unknown.json()).toEqual(errorReply(new NotFoundError()).body);
        expect(unknown.json()).toEqual({ error: 'Not Found' });
        const gone = await app.inject({ url: '/api/gone' });
        expect(gone.statusCode).toBe(404);
        expect(gone.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(gone.json()).toEqual({ error: 'Not Found', detail: 'The report was archived' });
      } finally {
        await app.close();
      }
    });

    it('Edition B ("a refused policy method is 403 JSON in Edition B, not the redirect"): a custom route of the mount answers a refused policy the same way', async () => {
      const { app } = await buildLibraryApp(database, AUTHORIZED, { routes, tokens: configurePanelApi() });
      try {
        const refused = await app.inject({ url: '/api/refuse' });
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toEqual({ error: 'Forbidden' });
        expect(refused.headers.location).toBeUndefined();
        expect(refused.headers['set-cookie']).toBeUndefined();
      } finally {
        await app.close();
      }
    });
  });
}
