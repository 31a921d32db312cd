// Issue: "The policy-denial 302 to /panel surprises API-only apps (a fetch client follows it to a
// 404 HTML route)… have /panel answer something meaningful when the panel pages are not mounted."
// The 302 itself is the spec's (Edition A) and stays; what changes is the answer at /panel.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPanel, type PanelDatabase } from '@panel/core';
import { openTestDatabase } from '@panel/test-support';
import { mountPanelApi } from '../src/index.js';
import { LIBRARY_ROOT, prepareLibrary } from './library-app.js';

const explanation = (rootPath: string, mountPath: string) =>
  `No panel pages are mounted at ${rootPath}; the API is at ${mountPath}/resources/<version>/. ` +
  'A refused policy check redirects here (302, as the specification says). An API client that wants a 403 instead: ' +
  'add rescueFrom(NotAuthorizedError) to the BaseResourcesController (docs/authorization.md).';

// Routing only: one database (PGlite) is enough, the answer does not touch it.
describe('the panel root path when no panel pages are mounted', () => {
  let database: PanelDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    await prepareLibrary(database);
  });
  afterAll(async () => {
    await database?.close();
  });
  const build = async (options: { rootPath?: string; at?: string; page?: boolean; notFound?: boolean } = {}) => {
    const panel = await createPanel({ database, appRoot: LIBRARY_ROOT, ...(options.rootPath ? { rootPath: options.rootPath } : {}) });
    const app = Fastify();
    await app.register(mountPanelApi, { panel, ...(options.at ? { at: options.at } : {}) });
    // Registered after the API, as the demo does: the fallback must not stand in the way.
    if (options.page) app.get(panel.config.rootPath, async () => 'the panel');
    if (options.notFound) app.setNotFoundHandler((_request, reply) => reply.code(404).send({ app: 'not found' }));
    await app.ready();
    return app;
  };

  it('answers GET /panel with a JSON 404 that says why and names the 403 recipe', async () => {
    const app = await build();
    const response = await app.inject({ method: 'GET', url: '/panel' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual({ error: 'Not Found', message: explanation('/panel', '/api') });
    expect((await app.inject({ method: 'GET', url: '/panel/?x=1' })).json()).toEqual({ error: 'Not Found', message: explanation('/panel', '/api') });
    await app.close();
  });

  it('shows the flash a refused policy check left, and clears it', async () => {
    const app = await build();
    const response = await app.inject({ method: 'GET', url: '/panel', headers: { cookie: 'panel_flash=You%20are%20not%20authorized%20to%20perform%20this%20action.' } });
    expect(response.json()).toEqual({ error: 'Not Found', message: explanation('/panel', '/api'), flash: 'You are not authorized to perform this action.' });
    expect(response.headers['set-cookie']).toBe('panel_flash=; Path=/panel; Max-Age=0; HttpOnly; SameSite=Lax');
    await app.close();
  });

  it('follows the configured rootPath and mount path', async () => {
    const app = await build({ rootPath: '/admin', at: 'v2api' });
    expect((await app.inject({ method: 'GET', url: '/admin' })).json()).toEqual({ error: 'Not Found', message: explanation('/admin', '/v2api') });
    expect((await app.inject({ method: 'GET', url: '/panel' })).json()).toMatchObject({ error: 'Not Found', message: 'Route GET:/panel not found' });
    await app.close();
  });

  it('leaves the panel\'s own page alone when the app mounts one, even after the API', async () => {
    const app = await build({ page: true });
    const response = await app.inject({ method: 'GET', url: '/panel' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('the panel');
    await app.close();
  });

  it('answers only GET and HEAD at the root path, and leaves every other path to the app\'s own 404 handler', async () => {
    const app = await build({ notFound: true });
    expect((await app.inject({ method: 'POST', url: '/panel' })).json()).toEqual({ app: 'not found' });
    expect((await app.inject({ method: 'GET', url: '/panel/books' })).json()).toEqual({ app: 'not found' });
    expect((await app.inject({ method: 'GET', url: '/elsewhere' })).json()).toEqual({ app: 'not found' });
    expect((await app.inject({ method: 'HEAD', url: '/panel' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/panel' })).json()).toEqual({ error: 'Not Found', message: explanation('/panel', '/api') });
    await app.close();
  });
});
