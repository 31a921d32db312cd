// Golden test of `panel-api generate`: the files it writes for the fixture apps must equal, byte
// for byte, the committed files: `fixtures/blog-resources` (TypeScript) under `golden/generate/`,
// `fixtures/blog-resources-js` (JavaScript resources, so JavaScript controllers) under
// `golden/generate-js/`. After an intended change to a template, rewrite them with
//   UPDATE_GOLDEN=1 npx vitest run packages/cli/test/generate-golden.test.ts
// and review the diff of `golden/` before committing it.
import { readFile, rm, cp } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles } from './support/list-files.js';
import { runPanelApi, type PanelApiRun } from './support/run-panel-api.js';
import { tempApps } from './support/temp-apps.js';

const UPDATE_GOLDEN = process.env.UPDATE_GOLDEN === '1';
const V1 = 'app/controllers/panel/api/resources/v1';

describe.each([
  { fixture: 'blog-resources', golden: 'generate', ext: 'ts', resourceExt: 'ts' },
  { fixture: 'blog-resources-js', golden: 'generate-js', ext: 'js', resourceExt: 'js' },
])('panel-api generate on $fixture (golden files under golden/$golden)', ({ fixture, golden, ext, resourceExt }) => {
  const GOLDEN_DIR = fileURLToPath(new URL(`./golden/${golden}/`, import.meta.url));
  const apps = tempApps();
  let root: string;
  let run: PanelApiRun;

  beforeAll(async () => {
    root = await apps.copy(fixture);
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
      `${V1}/base-resources-controller.${ext}`,
      `${V1}/blog-posts-controller.${ext}`,
      `${V1}/product-categories-controller.${ext}`,
      `${V1}/users-controller.${ext}`,
    ]);
    expect(await listFiles(root, 'app/panel')).toEqual([
      `app/panel/resources/blog-post.${resourceExt}`,
      `app/panel/resources/product-category.${resourceExt}`,
      `app/panel/resources/user.${resourceExt}`,
    ]);
    expect(await listFiles(root)).toEqual([...(await listFiles(root, 'app/controllers')), ...(await listFiles(root, 'app/panel'))]);
  });

  it('prints one line per file: the controllers in resource-name order, then the base controller', () => {
    expect(run.out).toEqual([
      `✓ Created BlogPostsController  ${V1}/blog-posts-controller.${ext}`,
      `✓ Created ProductCategoriesController  ${V1}/product-categories-controller.${ext}`,
      `✓ Created UsersController  ${V1}/users-controller.${ext}`,
      `✓ Created BaseResourcesController  ${V1}/base-resources-controller.${ext}`,
    ]);
  });

  it('has a golden file for every generated file, and no golden file that is not generated', async () => {
    expect(await listFiles(GOLDEN_DIR)).toEqual(await listFiles(root, 'app/controllers'));
  });

  it.each([
    ['resource `User` gives `Panel::Api::Resources::V1::UsersController`', 'users-controller', 'UsersController', 'User'],
    ['`BlogPost` gives `BlogPostsController`', 'blog-posts-controller', 'BlogPostsController', 'BlogPost'],
    ['`ProductCategory` gives `ProductCategoriesController`', 'product-categories-controller', 'ProductCategoriesController', 'ProductCategory'],
  ])('names the controller as the spec does: "%s"', async (_rule, file, controllerName, resourceName) => {
    const source = await readFile(join(root, V1, `${file}.${ext}`), 'utf8');
    expect(source).toContain(`export class ${controllerName} extends BaseResourcesController {`);
    expect(source).toContain(ext === 'ts' ? `static override resourceName = '${resourceName}';` : `static resourceName = '${resourceName}';`);
  });

  it.each([
    'base-resources-controller',
    'blog-posts-controller',
    'product-categories-controller',
    'users-controller',
  ])('writes %s byte for byte as its golden file', async (stem) => {
    const file = `${stem}.${ext}`;
    const generated = await readFile(join(root, V1, file));
    const golden = await readFile(join(GOLDEN_DIR, V1, file));
    expect(generated.toString('utf8')).toBe(golden.toString('utf8'));
    expect(generated.equals(golden)).toBe(true);
  });
});
