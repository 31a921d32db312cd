import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations, type PanelDatabase } from '@panel/core';
import { apiTokensSchemaV1, configurePanelApi, mintToken } from '@panel/api-tokens';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { AUTHORIZED, buildLibraryApp, prepareLibrary } from './library-app.js';

for (const kind of testDatabaseKinds()) {
  describe(`mountPanelApi with tokens [${kind}]`, () => {
    let database: PanelDatabase;
    const saved = process.env.PANEL_API_TOKEN_PEPPER;
    beforeAll(async () => {
      delete process.env.PANEL_API_TOKEN_PEPPER;
      database = await openTestDatabase(kind);
      await prepareLibrary(database);
      await runMigrations(database, { '0001-create-panel-api-tokens': apiTokensSchemaV1 });
    });
    afterAll(async () => {
      if (saved !== undefined) process.env.PANEL_API_TOKEN_PEPPER = saved;
      await database?.close();
    });

    it('"Required. Token creation and authentication raise until it is set": the boot logs the fix, a Bearer request is a 500 that says nothing of the cause, the code-hook path still answers', async () => {
      const { app, logs } = await buildLibraryApp(database, AUTHORIZED, { tokens: configurePanelApi() });
      try {
        expect(logs.join('')).toContain('PANEL_API_TOKEN_PEPPER');
        const bearer = await app.inject({ url: '/api/resources/v1/books', headers: { authorization: `Bearer ${mintToken().secret}` } });
        expect(bearer.statusCode).toBe(500);
        expect(bearer.json()).toEqual({ error: 'Internal Server Error' });
        expect(bearer.body).not.toContain('PEPPER');
        // "Nothing is reachable until a grant exists": the default permissions list is empty.
        const hook = await app.inject({ url: '/api/resources/v1/books', headers: { 'x-user-id': '1' } });
        expect(hook.statusCode).toBe(403);
        expect(hook.json()).toEqual({ error: 'Forbidden' });
      } finally {
        await app.close();
      }
    });

    it('"Code-hook path: policies still apply on top of the grant": a refused policy method is 403 JSON in Edition B, not the redirect', async () => {
      process.env.PANEL_API_TOKEN_PEPPER = 'p'.repeat(40);
      const { app } = await buildLibraryApp(database, AUTHORIZED, { tokens: configurePanelApi(), controllersDir: 'app/controllers/panel/api/edition-b' });
      try {
        await app.panelApiTokens!.setDefaultPermissions(['authors:index', 'authors:show']);
        // AuthorPolicy allows index and leaves show at the default, false.
        expect((await app.inject({ url: '/api/resources/v1/authors', headers: { 'x-user-id': '1' } })).statusCode).toBe(200);
        const refused = await app.inject({ url: '/api/resources/v1/authors/1', headers: { 'x-user-id': '1' } });
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toEqual({ error: 'Forbidden' });
        expect(refused.headers.location).toBeUndefined();
      } finally {
        delete process.env.PANEL_API_TOKEN_PEPPER;
        await app.close();
      }
    });

    it('refuses a tokens option that is not a configurePanelApi() result, naming the fix', async () => {
      await expect(buildLibraryApp(database, AUTHORIZED, { tokens: { manageTokensIf: () => true } as never })).rejects.toThrow(/tokens must be the result of configurePanelApi\(\)/);
    });
  });
}
