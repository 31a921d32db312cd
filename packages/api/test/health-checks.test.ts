import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { createPanel, DatabaseUnavailableError, type PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { errorReply, mountPanelApi } from '../src/index.js';
import { AUTHORIZED, LIBRARY_ROOT, buildLibraryApp, prepareLibrary } from './library-app.js';

for (const kind of testDatabaseKinds()) {
  describe(`health checks and the 503 mapping [${kind}]`, () => {
    let database: PanelDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareLibrary(database);
    });
    afterAll(async () => database?.close());

    it('"Health: GET <mount>/health (liveness) and a readiness check that touches the database (/health/ready → 200 or 503) … never behind authentication, never leaking versions or config"', async () => {
      const { app } = await buildLibraryApp(database);
      for (const url of ['/api/health', '/api/health/ready']) {
        const response = await app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(200);
        expect(response.body, url).toBe('{"status":"ok"}');
        expect(Object.keys(response.headers).filter((name) => /version|server|powered/i.test(name))).toEqual([]);
      }
      await app.close();
    });

    it('follow the mount path, and healthPath renames them or (false) draws none', async () => {
      const { app: mounted } = await buildLibraryApp(database, AUTHORIZED, { at: '/panel/api', healthPath: 'status' });
      expect((await mounted.inject({ method: 'GET', url: '/panel/api/status' })).statusCode).toBe(200);
      expect((await mounted.inject({ method: 'GET', url: '/panel/api/status/ready' })).statusCode).toBe(200);
      expect((await mounted.inject({ method: 'GET', url: '/panel/api/health' })).statusCode).toBe(404);
      await mounted.close();
      const { app: none } = await buildLibraryApp(database, AUTHORIZED, { healthPath: false });
      for (const url of ['/api/health', '/api/health/ready']) expect((await none.inject({ method: 'GET', url })).json()).toEqual({ error: 'Not Found' });
      await none.close();
    });

    it('leave a route of the app\'s own at the same path in place, and are 404 like every engine route without the api feature', async () => {
      const { app: own } = await buildLibraryApp(database, AUTHORIZED, { routes: (api) => void api.get('/health', async () => ({ mine: true })) });
      expect((await own.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ mine: true });
      expect((await own.inject({ method: 'GET', url: '/api/health/ready' })).json()).toEqual({ status: 'ok' });
      await own.close();
      const { app: unlicensed } = await buildLibraryApp(database, { ...AUTHORIZED, license: { features: ['authorization'] } });
      expect((await unlicensed.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(404);
      await unlicensed.close();
    });

    it('fails at boot for a healthPath that is not a path under the mount', async () => {
      const panel = await createPanel({ database, appRoot: LIBRARY_ROOT });
      for (const healthPath of ['/health', 'a b', '', 42]) {
        await expect(Fastify().register(mountPanelApi, { panel, healthPath: healthPath as string }).ready()).rejects.toThrow(/mountPanelApi: healthPath must be a path under the mount such as "health", or false/);
      }
    });

    it('a DatabaseUnavailableError thrown in a custom route is 503 { "error": "Service Unavailable" } with Retry-After, logged at warn without a stack', async () => {
      const { app, logs } = await buildLibraryApp(database, AUTHORIZED, {
        routes: (api) => void api.get('/report', async () => {
          throw new DatabaseUnavailableError('timeout', 'The database is unavailable (timeout): 57014: canceling statement due to statement timeout', { cause: Object.assign(new Error('canceling statement'), { code: '57014' }) });
        }),
      });
      const response = await app.inject({ method: 'GET', url: '/api/report' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ error: 'Service Unavailable' });
      expect(response.headers['retry-after']).toBe('5');
      expect(logs.join('')).not.toContain('stack');
      await app.close();
    });
  });
}

describe('errorReply() for an unavailable database', () => {
  it('gives 503 with Retry-After for the typed error and for an untyped driver error, and keeps client errors 4xx', () => {
    expect(errorReply(new DatabaseUnavailableError('connection', 'down'))).toEqual({ status: 503, body: { error: 'Service Unavailable' }, headers: { 'retry-after': '5' } });
    expect(errorReply(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })).status).toBe(503);
    expect(errorReply(Object.assign(new Error('aborted'), { code: 'ECONNRESET', statusCode: 400 })).status).toBe(400);
    expect(errorReply(new Error('a bug')).status).toBe(500);
  });
});
