// Extension points (issue 41, item 2): "an ApiExtension interface (a gate stage, routes, OpenAPI
// contributions, file presentation, rate-limit keys)"; "removing Edition B is deleting the package
// and one `extensions: [...]` line". An extension that is not Edition B goes through the same
// interface; Edition B's `configurePanelApi()` result is one, listed in `extensions` or given as
// the earlier `tokens:` spelling.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPanelError, runMigrations, type PanelDatabase } from '@panel/core';
import { apiTokensSchemaV1, apiTokensSchemaV2, configurePanelApi } from '@panel/api-tokens';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { AuthenticationError, ForbiddenError, type ApiExtension, type RequestActor } from '../src/index.js';
import { AUTHORIZED, buildLibraryApp, prepareLibrary } from './library-app.js';

const PEPPER = 'x'.repeat(40);

/** A reader's key: `Authorization: Demo <key>` may list and show, nothing else; every field is presented as it is. */
function demoKeys(limits: Record<number, number> = {}): ApiExtension {
  const actor = (id: number): RequestActor => ({ credential: { id }, followsPolicies: false, omits: () => false, presents: (_field, json) => json });
  return {
    name: 'demo keys',
    async mount() {
      return {
        gate: {
          async authenticate(request) {
            const match = /^Demo (\d+)$/.exec(request.headers.authorization ?? '');
            if (request.headers.authorization?.startsWith('Demo') && !match) throw new AuthenticationError();
            return match ? actor(Number(match[1])) : undefined;
          },
          async permit({ action, authenticated }) {
            if (!authenticated || (action !== 'index' && action !== 'show')) throw new ForbiddenError();
            return authenticated;
          },
        },
        securitySchemes: { demoKey: { type: 'http', scheme: 'Demo' } },
        credentialLimit: async (id) => limits[id] ?? null,
      };
    },
  };
}

for (const kind of testDatabaseKinds()) {
  describe(`mountPanelApi extensions [${kind}]`, () => {
    let database: PanelDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareLibrary(database);
      await runMigrations(database, { '0001-create-panel-api-tokens': apiTokensSchemaV1, '0002-index': apiTokensSchemaV2 });
    });
    afterAll(async () => {
      await database?.close();
    });

    it('an extension\'s gate authenticates before the controller and permits each action; its scheme is in the OpenAPI document and the 401\'s challenge; its credential limit keys the rate limit', async () => {
      const { app } = await buildLibraryApp(database, AUTHORIZED, { extensions: [demoKeys({ 7: 1 })] });
      try {
        const listed = await app.inject({ url: '/api/resources/v1/books', headers: { authorization: 'Demo 3' } });
        expect(listed.statusCode).toBe(200);
        expect((listed.json() as { records: unknown[] }).records).toHaveLength(4);
        const written = await app.inject({ method: 'POST', url: '/api/resources/v1/books', headers: { authorization: 'Demo 3' }, payload: { book: { title: 'Six Memos' } } });
        expect(written.statusCode).toBe(403);
        const malformed = await app.inject({ url: '/api/resources/v1/books', headers: { authorization: 'Demo x' } });
        expect(malformed.statusCode).toBe(401);
        expect(malformed.headers['www-authenticate']).toBe('Demo realm="/api"');
        // The credential's own limit: one request per window for key 7.
        expect((await app.inject({ url: '/api/resources/v1/books', headers: { authorization: 'Demo 7' } })).statusCode).toBe(200);
        expect((await app.inject({ url: '/api/resources/v1/books', headers: { authorization: 'Demo 7' } })).statusCode).toBe(429);
        const document = (await app.inject({ url: '/api/resources/v1/openapi.json' })).json() as { paths: Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>>; components: { securitySchemes: Record<string, unknown> } };
        expect(document.components.securitySchemes).toEqual({ demoKey: { type: 'http', scheme: 'Demo' } });
        expect(document.paths['/api/resources/v1/books']!.get!.security).toEqual([{ demoKey: [] }]);
        // A gated mount's authenticated routes may answer 403.
        expect(Object.keys(document.paths['/api/resources/v1/books']!.get!.responses)).toContain('403');
      } finally {
        await app.close();
      }
    });

    it('"the tokens: spelling keeps working": extensions: [configurePanelApi()] and tokens: configurePanelApi() mount the same Edition B', async () => {
      const routes: string[][] = [];
      for (const option of [{ extensions: [configurePanelApi({ pepper: PEPPER })] }, { tokens: configurePanelApi({ pepper: PEPPER }) }]) {
        const { app } = await buildLibraryApp(database, AUTHORIZED, { ...option, controllersDir: 'app/controllers/panel/api/edition-b' });
        try {
          const { secret } = await app.panelApiTokens!.create({ name: 'reader', grants: ['books:index'], createdById: 1 });
          expect((await app.inject({ url: '/api/resources/v1/books', headers: { authorization: `Bearer ${secret}` } })).statusCode).toBe(200);
          expect((await app.inject({ url: '/api/resources/v1/authors', headers: { authorization: `Bearer ${secret}` } })).statusCode).toBe(403);
          routes.push(app.panelApiRoutes!.map((route) => `${route.method} ${route.path}`));
        } finally {
          await app.close();
        }
      }
      // The catch-all controllers: every resource served without a generated controller, the same table both ways.
      expect(routes[0]).toEqual(expect.arrayContaining(['GET /api/resources/v1/books', 'GET /api/resources/v1/authors/:id', 'DELETE /api/resources/v1/authors/:id']));
      expect(routes[1]).toEqual(routes[0]);
    });

    it('refuses two gates in one mount, and an extensions value that is not a list of extensions, naming the fix', async () => {
      const twoGates = buildLibraryApp(database, AUTHORIZED, { extensions: [demoKeys(), configurePanelApi({ pepper: PEPPER })] });
      await expect(twoGates).rejects.toThrow('mountPanelApi: demo keys and Edition B (@panel/api-tokens) both gate requests; a mount takes one gate. Fix: list one of them in extensions.');
      for (const extensions of [{}, [{ name: 'x' }], [null]]) {
        const error = await buildLibraryApp(database, AUTHORIZED, { extensions: extensions as never }).catch((caught: unknown) => caught);
        expect(isPanelError(error, 'PANEL_ERR_CONFIG'), String(error)).toBe(true);
        expect((error as Error).message).toMatch(/^mountPanelApi: extensions must be an array of API extensions \(each with a name and mount\(\)\)/);
      }
    });
  });
}
