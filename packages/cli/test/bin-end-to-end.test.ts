import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { listFiles } from './support/list-files.js';
import { tempApps } from './support/temp-apps.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = 'packages/cli/bin/panel-api.js';
const V1 = 'app/controllers/panel/api/resources/v1';

const apps = tempApps();
afterAll(() => apps.removeAll());

/** Spawns `node packages/cli/bin/panel-api.js …args` in `cwd` (the repository root unless given). */
function panelApiBin(args: readonly string[], cwd = REPO_ROOT): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(REPO_ROOT, BIN), ...args], { cwd }, (error, stdout, stderr) => {
      resolve({ exitCode: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('the panel-api bin, spawned with node', () => {
  it('generate --root <tmp> prints the created files on standard output, writes them and exits 0', async () => {
    const root = await apps.copy('blog-resources');
    const { exitCode, stdout, stderr } = await panelApiBin(['generate', '--root', root]);
    expect(stderr).toBe('');
    expect(stdout).toBe(
      [
        `✓ Created BlogPostsController  ${V1}/blog-posts-controller.ts`,
        `✓ Created ProductCategoriesController  ${V1}/product-categories-controller.ts`,
        `✓ Created UsersController  ${V1}/users-controller.ts`,
        `✓ Created BaseResourcesController  ${V1}/base-resources-controller.ts`,
        '',
      ].join('\n'),
    );
    expect(exitCode).toBe(0);
    expect(await listFiles(root, 'app/controllers')).toHaveLength(4);
  });

  it('without --root generates into the current directory', async () => {
    const root = await apps.copy('blog-resources');
    const { exitCode, stdout } = await panelApiBin(['controller', 'User'], root);
    expect(stdout.split('\n')[0]).toBe(`✓ Created UsersController  ${V1}/users-controller.ts`);
    expect(exitCode).toBe(0);
    expect(await listFiles(root, 'app/controllers')).toEqual([`${V1}/users-controller.ts`]);
  });

  it('exits 1 with the message on standard error when the app has no resources', async () => {
    const root = await apps.empty();
    const { exitCode, stdout, stderr } = await panelApiBin(['generate', '--root', root]);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^No resources found in .+app\/panel\/resources\. Add a class extending Resource there, then run this again\.\n$/);
    expect(exitCode).toBe(1);
  });

  it('exits 2 on a usage error', async () => {
    const { exitCode, stderr } = await panelApiBin(['generate', '--version', '../v1']);
    expect(stderr).toBe('--version must be a path segment such as v1 or v2, instead got "../v1".\n');
    expect(exitCode).toBe(2);
  });
});
