import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listFiles } from './support/list-files.js';
import { runPanelApi } from './support/run-panel-api.js';
import { tempApps } from './support/temp-apps.js';

const V1 = 'app/controllers/panel/api/resources/v1';

const apps = tempApps();
afterAll(() => apps.removeAll());

describe('the language of generated controllers', () => {
  it('is TypeScript for TypeScript resources, JavaScript when every resource file is JavaScript', async () => {
    const ts = await apps.copy('blog-resources');
    await runPanelApi(['generate', '--root', ts]);
    expect((await listFiles(ts, V1)).every((file) => file.endsWith('.ts'))).toBe(true);
    const js = await apps.copy('blog-resources-js');
    await runPanelApi(['generate', '--root', js]);
    expect((await listFiles(js, V1)).every((file) => file.endsWith('.js'))).toBe(true);
  });

  it('--js writes JavaScript controllers for TypeScript resources; --ts the other way round', async () => {
    const ts = await apps.copy('blog-resources');
    const run = await runPanelApi(['controller', 'User', '--js', '--root', ts]);
    expect(run.out).toEqual([
      `✓ Created UsersController  ${V1}/users-controller.js`,
      `Note: ${V1}/base-resources-controller.js does not exist yet; run \`panel-api generate\` to create the BaseResourcesController the controllers extend.`,
    ]);
    const js = await apps.copy('blog-resources-js');
    await runPanelApi(['controller', 'User', '--ts', '--root', js]);
    expect(await listFiles(js, V1)).toEqual([`${V1}/users-controller.ts`]);
  });

  it('follows "language" in panel.config.json, and a flag wins over it', async () => {
    const root = await apps.copy('blog-resources');
    await writeFile(join(root, 'panel.config.json'), '{ "language": "js" }\n');
    await runPanelApi(['controller', 'User', '--root', root]);
    await runPanelApi(['controller', 'BlogPost', '--ts', '--root', root]);
    expect(await listFiles(root, V1)).toEqual([`${V1}/blog-posts-controller.ts`, `${V1}/users-controller.js`]);
  });

  it('exits 2 when given both --js and --ts', async () => {
    const root = await apps.copy('blog-resources');
    const run = await runPanelApi(['generate', '--js', '--ts', '--root', root]);
    expect(run.err).toEqual(['--js and --ts cannot be used together: pick the language of the new controllers.']);
    expect(run.exitCode).toBe(2);
  });

  it('never adds a controller in the other language beside an existing one (the boot would refuse two controllers for one resource)', async () => {
    const root = await apps.copy('blog-resources');
    await runPanelApi(['generate', '--js', '--root', root]);
    const run = await runPanelApi(['generate', '--root', root]);
    expect(run.out).toEqual([
      `• Skipped BlogPostsController  ${V1}/blog-posts-controller.js (exists; --force overwrites)`,
      `• Skipped ProductCategoriesController  ${V1}/product-categories-controller.js (exists; --force overwrites)`,
      `• Skipped UsersController  ${V1}/users-controller.js (exists; --force overwrites)`,
      `• Skipped BaseResourcesController  ${V1}/base-resources-controller.js (exists; keeps your authentication: \`panel-api controllers --force\` regenerates the others)`,
    ]);
    expect((await listFiles(root, V1)).every((file) => file.endsWith('.js'))).toBe(true);
  });

  it('--force rewrites a file where it is, in its own language', async () => {
    const root = await apps.copy('blog-resources');
    await runPanelApi(['controller', 'User', '--js', '--root', root]);
    await writeFile(join(root, V1, 'users-controller.js'), '// edited\n');
    const run = await runPanelApi(['controller', 'User', '--force', '--root', root]);
    expect(run.out[0]).toBe(`✓ Overwrote UsersController  ${V1}/users-controller.js`);
    expect(await readFile(join(root, V1, 'users-controller.js'), 'utf8')).toContain("  static resourceName = 'User';\n");
    expect(await listFiles(root, V1)).toEqual([`${V1}/users-controller.js`]);
  });
});
