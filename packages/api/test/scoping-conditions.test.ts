import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyAuthorization, type CreatePanelOptions, type PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { AUTHORIZED, buildLibraryApp, prepareLibrary } from './library-app.js';

const user1 = { 'x-user-id': '1' };

for (const kind of testDatabaseKinds()) {
  describe(`"Policy scoping applies only when all of these hold. Otherwise the query is unscoped and every record is returned" [${kind}]`, () => {
    let database: PanelDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareLibrary(database);
    });
    afterAll(async () => database?.close());

    const titles = async (options: Partial<CreatePanelOptions>) => {
      const { app } = await buildLibraryApp(database, options);
      const response = await app.inject({ method: 'GET', url: '/api/resources/v1/books', headers: user1 });
      await app.close();
      expect(response.statusCode).toBe(200);
      return response.json().records.map((b: { title: string }) => b.title).sort();
    };

    it('scopes when all four hold: user 1 sees only the books it owns', async () => {
      expect(await titles(AUTHORIZED)).toEqual(['Invisible Cities', 'The Dispossessed']);
    });

    it('"(a) the authorization add-on is installed": without the plug-in, every record is returned', async () => {
      expect(await titles({ ...AUTHORIZED, plugins: [] })).toHaveLength(4);
    });

    it('"(b) the authorization feature is enabled on the license": without it, every record is returned', async () => {
      expect(await titles({ ...AUTHORIZED, license: { features: ['api'] } })).toHaveLength(4);
    });

    it('"(c) authorization_client is set to the policy library\'s identifier": another identifier returns every record', async () => {
      expect(await titles({ ...AUTHORIZED, authorizationClient: 'cancan' })).toHaveLength(4);
      expect(await titles({ ...AUTHORIZED, authorizationClient: null })).toHaveLength(4);
    });

    it('"(d) a user is resolved by current_user_method": with no method configured, every record is returned', async () => {
      expect(await titles({ ...AUTHORIZED, currentUserMethod: null })).toHaveLength(4);
    });

    it('applies the policy methods under the same conditions: unscoped, the refused update goes through', async () => {
      const scoped = await buildLibraryApp(database, AUTHORIZED);
      const refused = await scoped.app.inject({ method: 'PATCH', url: '/api/resources/v1/books/3', headers: user1, payload: { book: { title: 'Mine now' } } });
      await scoped.app.close();
      expect(refused.statusCode).toBe(404);
      const open = await buildLibraryApp(database, { plugins: [policyAuthorization()] });
      const allowed = await open.app.inject({ method: 'PATCH', url: '/api/resources/v1/books/3', headers: user1, payload: { book: { title: 'Ficciones' } } });
      await open.app.close();
      expect(allowed.statusCode).toBe(200);
    });

    it('says why authorization is not in force', async () => {
      const { createPanel } = await import('@panel/core');
      const { LIBRARY_ROOT } = await import('./library-app.js');
      const panel = await createPanel({ database, appRoot: LIBRARY_ROOT, ...AUTHORIZED, license: { features: ['api'] } });
      expect(panel.authorization).toBeNull();
      expect(panel.authorizationInactiveReason).toBe("the license does not enable the 'authorization' feature");
    });
  });
}
