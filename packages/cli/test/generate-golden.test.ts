// Golden test of `panel-api generate`: the files it writes for the fixture app
// `fixtures/blog-resources` must equal, byte for byte, the committed files under
// `golden/generate/`. After an intended change to a template, rewrite them with
//   UPDATE_GOLDEN=1 npx vitest run packages/cli/test/generate-golden.test.ts
// and review the diff of `golden/` before committing it.
import { readFile, rm, cp } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles } from './support/list-files.js';
import { runPanelApi, type PanelApiRun } from './support/run-panel-api.js';
import { tempApps } from './support/temp-apps.js';

const GOLDEN_DIR = fileURLToPath(new URL('./golden/generate/', import.meta.url));
const UPDATE_GOLDEN = process.env.UPDATE_GOLDEN === '1';
const V1 = 'app/controllers/panel/api/resources/v1';

describe('panel-api generate (golden files)', () => {
  const apps = tempApps();
  let root: string;
  let run: PanelApiRun;

  beforeAll(async () => {
    root = await apps.copy('blog-resources');
    run = await runPanelApi(['generate', '--root', root]);
    if (UPDATE_GOLDEN) {
      await rm(GOLDEN_DIR, { recursive: true, force: true });
      await cp(join(root, 'app', 'controllers'), join(GOLDEN_DIR, 'app', 'controllers'), { recursive: true });
    }
  });
  afterAll(() => apps.removeAll());

  it('exits 0 and prints nothing on standard error', () => {
    expect(run.exitCode).toBe(0);
    expect(run.err).toEqual([]);
  });

  it('creates exactly one controller per resource and then the base controller, and nothing else', async () => {
    expect(await listFiles(root, 'app/controllers')).toEqual([
      `${V1}/base-resources-controller.ts`,
      `${V1}/blog-posts-controller.ts`,
      `${V1}/product-categories-controller.ts`,
      `${V1}/users-controller.ts`,
    ]);
    expect(await listFiles(root, 'app/panel')).toEqual([
      'app/panel/resources/blog-post.ts',
      'app/panel/resources/product-category.ts',
      'app/panel/resources/user.ts',
    ]);
  });

  it('prints one line per file: the controllers in resource-name order, then the base controller', () => {
    expect(run.out).toEqual([
      `✓ Created BlogPostsController  ${V1}/blog-posts-controller.ts`,
      `✓ Created ProductCategoriesController  ${V1}/product-categories-controller.ts`,
      `✓ Created UsersController  ${V1}/users-controller.ts`,
      `✓ Created BaseResourcesController  ${V1}/base-resources-controller.ts`,
    ]);
  });

  it('has a golden file for every generated file, and no golden file that is not generated', async () => {
    expect(await listFiles(GOLDEN_DIR)).toEqual(await listFiles(root, 'app/controllers'));
  });

  it.each([
    ['resource `User` gives `Panel::Api::Resources::V1::UsersController`', 'users-controller.ts', 'UsersController', 'User'],
    ['`BlogPost` gives `BlogPostsController`', 'blog-posts-controller.ts', 'BlogPostsController', 'BlogPost'],
    ['`ProductCategory` gives `ProductCategoriesController`', 'product-categories-controller.ts', 'ProductCategoriesController', 'ProductCategory'],
  ])('names the controller as the spec does: "%s"', async (_rule, file, controllerName, resourceName) => {
    const source = await readFile(join(root, V1, file), 'utf8');
    expect(source).toContain(`export class ${controllerName} extends BaseResourcesController {`);
    expect(source).toContain(`static override resourceName = '${resourceName}';`);
  });

  it.each([
    'base-resources-controller.ts',
    'blog-posts-controller.ts',
    'product-categories-controller.ts',
    'users-controller.ts',
  ])('writes %s byte for byte as its golden file', async (file) => {
    const generated = await readFile(join(root, V1, file));
    const golden = await readFile(join(GOLDEN_DIR, V1, file));
    expect(generated.toString('utf8')).toBe(golden.toString('utf8'));
    expect(generated.equals(golden)).toBe(true);
  });
});
