import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { createPanel, policyAuthorization, type PanelDatabase } from '@panel/core';
import { mountPanelApi } from '@panel/api';
import { runCli } from '@panel/api-cli';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { APP_ROOT, prepareDatabase } from '../src/build-app.js';
import { ADMIN } from './demo-app-support.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const NEW_RESOURCE = `import { Resource, field } from '@panel/core';

/** The posts' titles alone: a resource added after the first generate. */
export default class PostTitleResource extends Resource {
  static override table = 'blog_posts';

  override fields() {
    return [field.id(), field.text('title', { required: true })];
  }
}
`;

async function panelApi(argv: string[]): Promise<{ exitCode: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const exitCode = await runCli(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { exitCode, out, err };
}

describe('the demo\'s controllers are in step with its resources (what CI runs)', () => {
  it('panel-api generate --check passes on examples/blog as committed', async () => {
    const run = await panelApi(['generate', '--check', '--root', APP_ROOT]);
    expect(run.err).toEqual([]);
    expect(run.out).toHaveLength(1);
    expect(run.out[0]).toMatch(/^✓ Up to date: \d+ resources, \d+ controllers in v1\.$/);
    expect(run.exitCode).toBe(0);
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`adding a resource to the demo: --check fails naming it, generate creates its controller, it answers after a restart [${kind}]`, () => {
    let database: PanelDatabase;
    let root: string;
    const apps: FastifyInstance[] = [];

    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareDatabase(database);
      // A copy of the demo's app/ (resources, policies, controllers) and src/ (the base controller
      // imports its keys from there), inside the repo so that @panel/* resolve.
      root = await mkdtemp(join(HERE, '.tmp-check-'));
      for (const folder of ['app', 'src']) await cp(join(APP_ROOT, folder), join(root, folder), { recursive: true });
    });
    afterAll(async () => {
      for (const app of apps) await app.close();
      await database?.close();
      if (root) await rm(root, { recursive: true, force: true });
    });

    const boot = async () => {
      const panel = await createPanel({ database, appRoot: root, plugins: [policyAuthorization()], authorizationClient: 'policies', license: { features: ['api', 'authorization'] } });
      const app = Fastify();
      apps.push(app);
      await app.register(mountPanelApi, { panel });
      await app.ready();
      return app;
    };

    it('runs the whole loop', async () => {
      expect((await panelApi(['generate', '--check', '--root', root])).exitCode).toBe(0);
      await writeFile(join(root, 'app/panel/resources/post-title.ts'), NEW_RESOURCE);

      const failing = await panelApi(['generate', '--check', '--root', root]);
      expect(failing.exitCode).toBe(1);
      expect(failing.err).toEqual([
        '✗ Missing PostTitlesController  app/controllers/panel/api/resources/v1/post-titles-controller.ts (resource PostTitle, app/panel/resources/post-title.ts:4)',
        '1 problem. Fix: run `panel-api generate` to create the missing files.',
      ]);
      const before = await boot();
      expect((await before.inject({ method: 'GET', url: '/api/resources/v1/post_titles', headers: ADMIN })).statusCode).toBe(404);

      const generate = await panelApi(['generate', '--root', root]);
      expect(generate.exitCode).toBe(0);
      expect(generate.out.filter((line) => !line.startsWith('• Skipped'))).toEqual(['✓ Created PostTitlesController  app/controllers/panel/api/resources/v1/post-titles-controller.ts']);
      expect((await panelApi(['generate', '--check', '--root', root])).exitCode).toBe(0);

      const after = await boot();
      const response = await after.inject({ method: 'GET', url: '/api/resources/v1/post_titles?per_page=2&sort_by=id', headers: ADMIN });
      expect(response.statusCode).toBe(200);
      const { count } = await database.db.selectFrom('blog_posts').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
      expect(response.json()).toMatchObject({ records: [{ id: 1 }, { id: 2 }], pagination: { page: 1, per_page: 2, total_count: Number(count) } });
      expect(Object.keys(response.json().records[0]).sort()).toEqual(['id', 'title']);
    });
  });
}
