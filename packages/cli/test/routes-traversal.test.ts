import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPanel, openDatabase } from '@panel/core';
import { mountPanelApi } from '@panel/api';
import { configurePanelApi } from '@panel/api-tokens';
import { runPanelApi } from './support/run-panel-api.js';
import { IN_REPO_TMP_PARENT, tempApps } from './support/temp-apps.js';
import { createBlogResourcesTables } from './support/blog-resources-tables.js';

// Issue 31, finding 11: "panel-api routes omits traversal routes". In Edition B, mountPanelApi
// also draws `GET …/<route_key>/:id/<association>` for each has_many / has_one /
// has_and_belongs_to_many whose target has a controller; routes prints them too, from the same code.

const V1 = 'app/controllers/panel/api/resources/v1';
const TRAVERSAL = `GET     /api/resources/v1/users/:id/blog_posts      UsersController#related → BlogPostsController  ${V1}/users-controller.ts`;

const apps = tempApps(IN_REPO_TMP_PARENT);
afterAll(() => apps.removeAll());

describe('panel-api routes in Edition B', () => {
  let root: string;
  beforeAll(async () => {
    root = await apps.copy('blog-resources');
    expect((await runPanelApi(['generate', '--root', root])).exitCode).toBe(0);
  });

  it('an Edition A app (no configurePanelApi in the initializer) lists no traversal route', async () => {
    const run = await runPanelApi(['routes', '--json', '--root', root]);
    expect((JSON.parse(run.out.join('\n')) as { action: string }[]).filter((route) => route.action === 'related')).toEqual([]);
  });

  it('lists each association traversal after the resources\' routes, with the controller whose rules answer it, as the mount draws it', async () => {
    await writeFile(join(root, 'app/panel/initializer.ts'), "import { configurePanelApi } from '@panel/api-tokens';\n\nexport const panelApi = configurePanelApi();\n");
    const run = await runPanelApi(['routes', '--root', root]);
    expect(run.err).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.out).toHaveLength(1 + 21 + 1);
    expect(run.out.at(-1)).toBe(TRAVERSAL);
    const json = JSON.parse((await runPanelApi(['routes', '--json', '--root', root])).out.join('\n')) as { method: string; path: string; action: string; association?: string; targetController?: string }[];
    const traversals = json.filter((route) => route.action === 'related');
    expect(traversals).toEqual([
      { method: 'GET', path: '/api/resources/v1/users/:id/blog_posts', controller: 'UsersController', action: 'related', resource: 'User', file: `${V1}/users-controller.ts`, association: 'blog_posts', targetController: 'BlogPostsController' },
    ]);
    // The runtime draws exactly these: a real Edition B mount of the same app answers each printed route.
    const database = await openDatabase();
    // The mount checks the resources' tables at boot.
    await createBlogResourcesTables(database);
    const app = Fastify();
    try {
      const panel = await createPanel({ database, appRoot: root });
      await app.register(mountPanelApi, { panel, tokens: configurePanelApi({ pepper: 'a-routes-test-pepper-of-at-least-32-chars' }) });
      await app.ready();
      for (const route of json) expect(app.hasRoute({ method: route.method as 'GET', url: route.path }), `${route.method} ${route.path}`).toBe(true);
      expect(app.hasRoute({ method: 'GET', url: '/api/resources/v1/blog_posts/:id/author' })).toBe(false);
    } finally {
      await app.close();
      await database.close();
    }
  }, 60_000);
});
