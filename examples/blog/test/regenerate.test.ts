import { cp, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { createPanel, type PanelDatabase } from '@panel/core';
import { mountPanelApi } from '@panel/api';
import { runCli } from '@panel/api-cli';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { APP_ROOT, prepareDatabase } from '../src/build-app.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));

for (const kind of testDatabaseKinds()) {
  describe(`"The generator is mandatory. Routes are drawn by scanning app/controllers/panel/api/resources/*" [${kind}]`, () => {
    let database: PanelDatabase;
    let appRoot: string;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareDatabase(database);
      // A copy of the demo's resources and policies, inside the repo so that @panel/* resolve, without controllers.
      appRoot = await mkdtemp(join(HERE, '.tmp-regenerate-'));
      await cp(join(APP_ROOT, 'app', 'panel'), join(appRoot, 'app', 'panel'), { recursive: true });
    });
    afterAll(async () => {
      await database?.close();
      if (appRoot) await rm(appRoot, { recursive: true, force: true });
    });

    const boot = async () => {
      const app = Fastify();
      await app.register(mountPanelApi, { panel: await createPanel({ database, appRoot }) });
      await app.ready();
      return app;
    };

    it('answers 404 on every request without the controllers folder, and draws the routes again once `panel-api generate` has run', async () => {
      const before = await boot();
      for (const url of ['/api/resources/v1/blog_posts', '/api/resources/v1/users/1', '/api/resources/v1/products']) {
        const response = await before.inject({ method: 'GET', url, headers: { authorization: 'ApiKey demo-admin-key' } });
        expect(response.statusCode, url).toBe(404);
        expect(response.json()).toEqual({ error: 'Not Found' });
      }
      await before.close();

      const lines: string[] = [];
      expect(await runCli(['generate', '--root', appRoot], { out: (l) => lines.push(l), err: (l) => lines.push(l) })).toBe(0);
      expect(lines).toContain('✓ Created BlogPostsController  app/controllers/panel/api/resources/v1/blog-posts-controller.ts');

      const after = await boot();
      // Seven routes per resource (with POST …/batch, issue 45), and POST /uploads: the demo has file fields.
      expect(after.panelApiRoutes).toHaveLength(7 * 7 + 1);
      expect(after.panelApiRoutes!.filter((route) => route.action === 'upload').map((route) => `${route.method} ${route.path}`)).toEqual(['POST /api/uploads']);
      // The freshly generated BaseResourcesController keeps the API closed until the app opens it.
      const response = await after.inject({ method: 'GET', url: '/api/resources/v1/blog_posts', headers: { authorization: 'ApiKey demo-admin-key' } });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Unauthorized' });
      await after.close();
    });
  });
}
