import { writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { createPanel, type PanelDatabase } from '@panel/core';
import { mountPanelApi } from '@panel/api';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import type { PrintedRoute } from '../src/index.js';
import { runPanelApi } from './support/run-panel-api.js';
import { IN_REPO_TMP_PARENT, tempApps } from './support/temp-apps.js';
import { createBlogResourcesTables } from './support/blog-resources-tables.js';

const RESOURCES = 'app/controllers/panel/api/resources';

/** The generated base controller of `version`, opened to requests that send `X-Api-Key: secret-<version>`. */
const openBase = (version: string) => `import { AuthenticationError, ResourcesController } from '@panel/api';

export class BaseResourcesController extends ResourcesController {
  override async setupAuthentication(): Promise<void> {
    if (this.request.headers['x-api-key'] !== 'secret-${version}') throw new AuthenticationError();
  }
}
`;


// Inside the repository, so that the generated controllers' imports of @panel/api resolve.
const apps = tempApps(IN_REPO_TMP_PARENT);
afterAll(() => apps.removeAll());

for (const kind of testDatabaseKinds()) {
  describe(`"--version <name> puts the controllers under a namespace other than v1": v1 and v2 side by side [${kind}]`, () => {
    let database: PanelDatabase;
    let root: string;
    let app: FastifyInstance;

    beforeAll(async () => {
      root = await apps.copy('blog-resources');
      expect((await runPanelApi(['generate', '--root', root])).exitCode).toBe(0);
      expect((await runPanelApi(['generate', '--version', 'v2', '--root', root])).exitCode).toBe(0);
      for (const version of ['v1', 'v2']) await writeFile(join(root, RESOURCES, version, 'base-resources-controller.ts'), openBase(version));
      database = await openTestDatabase(kind);
      await createBlogResourcesTables(database);
      app = Fastify();
      await app.register(mountPanelApi, { panel: await createPanel({ database, appRoot: root }) });
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    it('answers under /api/resources/v1/... and /api/resources/v2/..., each version behind its own base controller', async () => {
      for (const version of ['v1', 'v2']) {
        const response = await app.inject({ method: 'GET', url: `/api/resources/${version}/users`, headers: { 'x-api-key': `secret-${version}` } });
        expect(response.statusCode, version).toBe(200);
        expect(response.json().records).toEqual([{ id: 1, name: 'Ada', email: 'ada@example.com', blog_posts: { count: 0 } }]);
      }
      const crossed = await app.inject({ method: 'GET', url: '/api/resources/v2/users', headers: { 'x-api-key': 'secret-v1' } });
      expect(crossed.statusCode).toBe(401);
      expect((await app.inject({ method: 'GET', url: '/api/resources/v3/users', headers: { 'x-api-key': 'secret-v1' } })).statusCode).toBe(404);
    });

    it('serves the same records through both: a post created through v2 is listed through v1', async () => {
      const created = await app.inject({
        method: 'POST',
        url: '/api/resources/v2/blog_posts',
        headers: { 'x-api-key': 'secret-v2' },
        payload: { blog_post: { title: 'Hello from v2', author_id: 1 } },
      });
      expect(created.statusCode).toBe(201);
      const listed = await app.inject({ method: 'GET', url: '/api/resources/v1/blog_posts', headers: { 'x-api-key': 'secret-v1' } });
      expect(listed.json().records.map((r: { title: string }) => r.title)).toEqual(['Hello from v2']);
    });

    it('panel-api routes --json lists exactly the routes the runtime drew', async () => {
      const run = await runPanelApi(['routes', '--json', '--root', root]);
      expect(run.exitCode).toBe(0);
      const printed = JSON.parse(run.out.join('\n')) as PrintedRoute[];
      const drawn = app.panelApiRoutes!.map((route) => ({
        method: route.method,
        path: route.path,
        controller: route.controller.name,
        action: route.action,
        resource: route.resourceName,
        file: relative(root, route.file).split(sep).join('/'),
      }));
      expect(printed).toEqual(drawn);
      expect(printed).toHaveLength(2 * 3 * 7);
    });
  });
}
