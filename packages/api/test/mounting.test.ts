import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { createPanel, type PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { mountPanelApi } from '../src/index.js';
import { AUTHORIZED, LIBRARY_ROOT, buildLibraryApp, prepareLibrary } from './library-app.js';

for (const kind of testDatabaseKinds()) {
  describe(`mounting the API engine [${kind}]`, () => {
    let database: PanelDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareLibrary(database);
    });
    afterAll(async () => database?.close());

    it('"When that directory does not exist, no API routes exist and every request returns 404"', async () => {
      const { app } = await buildLibraryApp(database, AUTHORIZED, { controllersDir: 'app/controllers/panel/api/nowhere' });
      for (const url of ['/api/resources/v1/books', '/api/resources/v1/books/1', '/api']) {
        const response = await app.inject({ method: 'GET', url, headers: { 'x-user-id': '1' } });
        expect(response.statusCode, url).toBe(404);
        expect(response.json()).toEqual({ error: 'Not Found' });
      }
      expect(app.panelApiRoutes).toEqual([]);
      await app.close();
    });

    it('draws routes only for the controllers that exist ("A resource added later needs its own generated controller")', async () => {
      const { app } = await buildLibraryApp(database);
      const paths = new Set(app.panelApiRoutes!.map((r) => `${r.method} ${r.path}`));
      expect(paths).toEqual(new Set([
        'GET /api/resources/closed/books', 'POST /api/resources/closed/books', 'POST /api/resources/closed/books/batch', 'GET /api/resources/closed/books/:id', 'PATCH /api/resources/closed/books/:id', 'PUT /api/resources/closed/books/:id', 'DELETE /api/resources/closed/books/:id',
        'GET /api/resources/v1/authors', 'POST /api/resources/v1/authors', 'POST /api/resources/v1/authors/batch', 'GET /api/resources/v1/authors/:id', 'PATCH /api/resources/v1/authors/:id', 'PUT /api/resources/v1/authors/:id', 'DELETE /api/resources/v1/authors/:id',
        'GET /api/resources/csrf/authors', 'POST /api/resources/csrf/authors', 'POST /api/resources/csrf/authors/batch', 'GET /api/resources/csrf/authors/:id', 'PATCH /api/resources/csrf/authors/:id', 'PUT /api/resources/csrf/authors/:id', 'DELETE /api/resources/csrf/authors/:id',
        'GET /api/resources/csrf/books', 'POST /api/resources/csrf/books', 'POST /api/resources/csrf/books/batch', 'GET /api/resources/csrf/books/:id', 'PATCH /api/resources/csrf/books/:id', 'PUT /api/resources/csrf/books/:id', 'DELETE /api/resources/csrf/books/:id',
        'GET /api/resources/v1/books', 'POST /api/resources/v1/books', 'POST /api/resources/v1/books/batch', 'GET /api/resources/v1/books/:id', 'PATCH /api/resources/v1/books/:id', 'PUT /api/resources/v1/books/:id', 'DELETE /api/resources/v1/books/:id',
      ]));
      expect((await app.inject({ method: 'GET', url: '/api/resources/closed/authors' })).statusCode).toBe(404);
      await app.close();
    });

    it('answers 404 on every API request when the license does not enable the api feature', async () => {
      const { app } = await buildLibraryApp(database, { ...AUTHORIZED, license: { features: ['authorization'] } });
      const response = await app.inject({ method: 'GET', url: '/api/resources/v1/books', headers: { 'x-user-id': '1' } });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Not Found' });
      await app.close();
    });

    it('mounts at another path with at (a String, default "api")', async () => {
      const { app } = await buildLibraryApp(database, AUTHORIZED, { at: '/panel/api' });
      expect((await app.inject({ method: 'GET', url: '/panel/api/resources/v1/books', headers: { 'x-user-id': '1' } })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/resources/v1/books', headers: { 'x-user-id': '1' } })).statusCode).toBe(404);
      await app.close();
    });

    it('adds custom routes inside the engine that share its 404 and error handling', async () => {
      const { app } = await buildLibraryApp(database, AUTHORIZED, {
        routes: (api) => {
          api.get('/health', async () => ({ ok: true }));
          api.get('/boom', async () => {
            throw new Error('secret detail');
          });
        },
      });
      expect((await app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ ok: true });
      const boom = await app.inject({ method: 'GET', url: '/api/boom' });
      expect(boom.statusCode).toBe(500);
      expect(boom.json()).toEqual({ error: 'Internal Server Error' });
      await app.close();
    });

    it('"via:" draws only the routes of the methods named; the others are 404', async () => {
      const { app } = await buildLibraryApp(database, AUTHORIZED, { via: ['GET'] });
      const headers = { 'x-user-id': '1' };
      expect((await app.inject({ method: 'GET', url: '/api/resources/v1/books', headers })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/resources/v1/books/1', headers })).statusCode).toBe(200);
      for (const method of ['POST', 'PATCH', 'PUT', 'DELETE'] as const) {
        const response = await app.inject({ method, url: method === 'POST' ? '/api/resources/v1/books' : '/api/resources/v1/books/1', headers, payload: { book: { title: 'x' } } });
        expect(response.statusCode, method).toBe(404);
        expect(response.json()).toEqual({ error: 'Not Found' });
      }
      await app.close();
    });

    it('"constraints: { subdomain: ... } restricts by subdomain", and host matches a whole host', async () => {
      const bySubdomain = await buildLibraryApp(database, AUTHORIZED, { constraints: { subdomain: 'api' } });
      const get = (app: typeof bySubdomain.app, host: string) => app.inject({ method: 'GET', url: '/api/resources/v1/books', headers: { host, 'x-user-id': '1' } });
      expect((await get(bySubdomain.app, 'api.example.com')).statusCode).toBe(200);
      expect((await get(bySubdomain.app, 'api.localhost:3000')).statusCode).toBe(200);
      expect((await get(bySubdomain.app, 'www.example.com')).statusCode).toBe(404);
      expect((await get(bySubdomain.app, 'example.com')).statusCode).toBe(404);
      await bySubdomain.app.close();
      const byHost = await buildLibraryApp(database, AUTHORIZED, { constraints: { host: 'admin.example.org' } });
      expect((await get(byHost.app, 'admin.example.org')).statusCode).toBe(200);
      expect((await get(byHost.app, 'api.example.org')).statusCode).toBe(404);
      await byHost.app.close();
    });

    it('"defaults:" supplies query parameters a request does not send', async () => {
      const { app } = await buildLibraryApp(database, AUTHORIZED, { defaults: { per_page: '1', sort_by: 'id', sort_direction: 'desc' } });
      const headers = { 'x-user-id': '1' };
      const fallback = (await app.inject({ method: 'GET', url: '/api/resources/v1/books', headers })).json();
      expect(fallback.pagination).toMatchObject({ per_page: 1, total_count: 2 });
      expect(fallback.records.map((b: { title: string }) => b.title)).toEqual(['Invisible Cities']);
      const sent = (await app.inject({ method: 'GET', url: '/api/resources/v1/books?per_page=5', headers })).json();
      expect(sent.pagination.per_page).toBe(5);
      await app.close();
    });

    it('keeps the cookie-stored per_page over the mount defaults, and sets the cookie only when the query sends per_page', async () => {
      const { app } = await buildLibraryApp(database, AUTHORIZED, { defaults: { per_page: '1' } });
      const headers = { 'x-user-id': '1' };
      const plain = await app.inject({ method: 'GET', url: '/api/resources/v1/books', headers });
      expect(plain.json().pagination.per_page).toBe(1);
      expect(plain.cookies.find((c) => c.name === 'per_page')).toBeUndefined();
      const withCookie = await app.inject({ method: 'GET', url: '/api/resources/v1/books', headers: { ...headers, cookie: 'per_page=2' } });
      expect(withCookie.json().pagination.per_page).toBe(2);
      await app.close();
    });

    it('fails at boot when defaults do not fit a resource (an unknown sort_by)', async () => {
      await expect(buildLibraryApp(database, AUTHORIZED, { defaults: { sort_by: 'isbn' } })).rejects.toThrow(/mountPanelApi: defaults do not fit the resource (Author|Book): sort_by must be one of/);
    });

    it('fails at boot when a controller declares a before-action that is not a method', async () => {
      await expect(buildLibraryApp(database, AUTHORIZED, { controllersDir: 'app/controllers/panel/api/broken' })).rejects.toThrow(
        'app/controllers/panel/api/broken/v1/books-controller.ts: BooksController declares the before-action "loadShelf", which is not a method of the controller. Fix: define loadShelf(), or correct the name given to beforeAction.',
      );
    });

    it('answers 404 on custom routes too when the license does not enable the api feature', async () => {
      const { app } = await buildLibraryApp(database, { ...AUTHORIZED, license: { features: ['authorization'] } }, { routes: (api) => void api.get('/health', async () => ({ ok: true })) });
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(404);
      await app.close();
    });

    it('fails at boot, naming the option and the fix, for a bad mount option', async () => {
      const panel = await createPanel({ database, appRoot: LIBRARY_ROOT });
      const app = Fastify();
      await expect(app.register(mountPanelApi, { panel, at: 'api v1' }).ready()).rejects.toThrow('mountPanelApi: at must be a path such as "api" or "/panel/api", instead got "api v1". Fix: pass a String of path segments.');
      for (const [options, message] of [
        [{ via: ['FETCH'] }, /via must be HTTP methods/],
        [{ constraints: { subdomain: 'a.b' } }, /constraints.subdomain must be a host label/],
        [{ constraints: { subdomain: 'api', host: 'x' } }, /constraints take host or subdomain, not both/],
        [{ defaults: { per_page: 10 } }, /defaults must map parameter names to strings/],
        [{ defaults: { per_page: 'x' } }, /defaults.per_page must be a positive integer written as a string/],
        [{ defaults: { sort_direction: 'up' } }, /defaults.sort_direction must be 'asc' or 'desc'/],
        [{ bodyLimit: 0 }, /bodyLimit must be a positive number of bytes/],
      ] as const) {
        await expect(Fastify().register(mountPanelApi, { panel, ...(options as object) }).ready()).rejects.toThrow(message);
      }
    });

    describe('"When the panel itself is mounted inside an authentication block, mount_panel_api must be mounted outside that block and before it"', () => {
      const build = async (apiInside: boolean) => {
        const panel = await createPanel({ database, appRoot: LIBRARY_ROOT, ...AUTHORIZED });
        const app = Fastify();
        if (!apiInside) await app.register(mountPanelApi, { panel });
        await app.register(async (authenticated) => {
          // The panel's web-session authentication: no session cookie, no entry.
          authenticated.addHook('onRequest', async (request, reply) => {
            if (!/(^|;\s*)session=valid/.test(request.headers.cookie ?? '')) return reply.code(302).header('location', '/login').send();
          });
          authenticated.get('/panel', async () => 'the panel');
          if (apiInside) await authenticated.register(mountPanelApi, { panel });
        });
        await app.ready();
        return app;
      };

      it('"Mounted inside, every API request passes the web-session authentication and external clients fail"', async () => {
        const app = await build(true);
        const external = await app.inject({ method: 'GET', url: '/api/resources/v1/books', headers: { 'x-user-id': '1' } });
        expect(external.statusCode).toBe(302);
        expect(external.headers.location).toBe('/login');
        await app.close();
      });

      it('mounted outside and before it, external clients reach the API, which "still authenticates itself"', async () => {
        const app = await build(false);
        expect((await app.inject({ method: 'GET', url: '/api/resources/v1/books', headers: { 'x-user-id': '1' } })).statusCode).toBe(200);
        expect((await app.inject({ method: 'GET', url: '/api/resources/v1/books' })).statusCode).toBe(401);
        expect((await app.inject({ method: 'GET', url: '/panel' })).statusCode).toBe(302);
        await app.close();
      });
    });
  });
}
