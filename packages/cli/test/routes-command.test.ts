import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPanelApi } from './support/run-panel-api.js';
import { IN_REPO_TMP_PARENT, tempApps } from './support/temp-apps.js';

const BIN = fileURLToPath(new URL('../bin/panel-api.js', import.meta.url));
const V1 = 'app/controllers/panel/api/resources/v1';

// Inside the repository, so that the controllers' imports of @panel/api resolve when they are loaded.
const apps = tempApps(IN_REPO_TMP_PARENT);
afterAll(() => apps.removeAll());

const TABLE = [
  'Method  Path                                        Controller#action                    File',
  `GET     /api/resources/v1/blog_posts                BlogPostsController#index            ${V1}/blog-posts-controller.ts`,
  `POST    /api/resources/v1/blog_posts                BlogPostsController#create           ${V1}/blog-posts-controller.ts`,
  `POST    /api/resources/v1/blog_posts/batch          BlogPostsController#batch            ${V1}/blog-posts-controller.ts`,
  `GET     /api/resources/v1/blog_posts/:id            BlogPostsController#show             ${V1}/blog-posts-controller.ts`,
  `PATCH   /api/resources/v1/blog_posts/:id            BlogPostsController#update           ${V1}/blog-posts-controller.ts`,
  `PUT     /api/resources/v1/blog_posts/:id            BlogPostsController#update           ${V1}/blog-posts-controller.ts`,
  `DELETE  /api/resources/v1/blog_posts/:id            BlogPostsController#destroy          ${V1}/blog-posts-controller.ts`,
  `GET     /api/resources/v1/product_categories        ProductCategoriesController#index    ${V1}/product-categories-controller.ts`,
  `POST    /api/resources/v1/product_categories        ProductCategoriesController#create   ${V1}/product-categories-controller.ts`,
  `POST    /api/resources/v1/product_categories/batch  ProductCategoriesController#batch    ${V1}/product-categories-controller.ts`,
  `GET     /api/resources/v1/product_categories/:id    ProductCategoriesController#show     ${V1}/product-categories-controller.ts`,
  `PATCH   /api/resources/v1/product_categories/:id    ProductCategoriesController#update   ${V1}/product-categories-controller.ts`,
  `PUT     /api/resources/v1/product_categories/:id    ProductCategoriesController#update   ${V1}/product-categories-controller.ts`,
  `DELETE  /api/resources/v1/product_categories/:id    ProductCategoriesController#destroy  ${V1}/product-categories-controller.ts`,
  `GET     /api/resources/v1/users                     UsersController#index                ${V1}/users-controller.ts`,
  `POST    /api/resources/v1/users                     UsersController#create               ${V1}/users-controller.ts`,
  `POST    /api/resources/v1/users/batch               UsersController#batch                ${V1}/users-controller.ts`,
  `GET     /api/resources/v1/users/:id                 UsersController#show                 ${V1}/users-controller.ts`,
  `PATCH   /api/resources/v1/users/:id                 UsersController#update               ${V1}/users-controller.ts`,
  `PUT     /api/resources/v1/users/:id                 UsersController#update               ${V1}/users-controller.ts`,
  `DELETE  /api/resources/v1/users/:id                 UsersController#destroy              ${V1}/users-controller.ts`,
];

describe('panel-api routes', () => {
  let root: string;
  beforeAll(async () => {
    root = await apps.copy('blog-resources');
    expect((await runPanelApi(['generate', '--root', root])).exitCode).toBe(0);
  });

  it('prints method, path, controller#action and controller file of every route, as a table', async () => {
    const run = await runPanelApi(['routes', '--root', root]);
    expect(run.err).toEqual([]);
    expect(run.out).toEqual(TABLE);
    expect(run.exitCode).toBe(0);
  });

  it('"panel-api routes (or a --filters flag) prints the filters each list accepts": each filter[…] with its operators, q\'s search fields, fields', async () => {
    const run = await runPanelApi(['routes', '--filters', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(run.out.slice(0, TABLE.length)).toEqual(TABLE);
    const after = run.out.slice(TABLE.length).join('\n');
    expect(after).toContain('GET /api/resources/v1/blog_posts\n');
    expect(after).toMatch(/ {2}filter\[title\] +eq ne in contains starts_with null\n/);
    expect(after).toMatch(/ {2}filter\[author_id\] +eq ne in null\n/);
    expect(after).toMatch(/ {2}q +none \(the resource declares no search fields: q is refused\)\n/);
    const json = JSON.parse((await runPanelApi(['routes', '--filters', '--json', '--root', root])).out.join('\n')) as { action: string; query?: { filters: Record<string, string[]>; fields: string[] } }[];
    const index = json.filter((route) => route.action === 'index');
    expect(index.every((route) => route.query !== undefined)).toBe(true);
    expect(json.filter((route) => route.action !== 'index').every((route) => route.query === undefined)).toBe(true);
    expect(index[0]!.query!.filters.author_id).toEqual(['eq', 'ne', 'in', 'null']);
    expect(index[0]!.query!.fields).toEqual(['id', 'title', 'author']);
  });

  it('puts the mount path given with --at in front of every path', async () => {
    const run = await runPanelApi(['routes', '--at', '/panel/api', '--json', '--root', root]);
    const paths = (JSON.parse(run.out.join('\n')) as { path: string }[]).map((route) => route.path);
    expect(paths).toHaveLength(21);
    expect(paths.every((path) => path.startsWith('/panel/api/resources/v1/'))).toBe(true);
  });

  it('runs from the bin (spawned with node) and prints the same table', async () => {
    const { stdout, stderr, code } = await new Promise<{ stdout: string; stderr: string; code: number }>((resolve) => {
      execFile(process.execPath, [BIN, 'routes'], { cwd: root }, (error, out, err) => resolve({ stdout: out, stderr: err, code: error ? Number(error.code ?? 1) : 0 }));
    });
    expect(stderr).toBe('');
    expect(stdout).toBe(`${TABLE.join('\n')}\n`);
    expect(code).toBe(0);
  });

  it('says there are no routes, and how to get them, when no controller was generated', async () => {
    const empty = await apps.copy('blog-resources');
    const run = await runPanelApi(['routes', '--root', empty]);
    expect(run.out).toEqual(['No routes: app/controllers/panel/api/resources holds no controllers, so the API answers 404 everywhere. Run `panel-api generate` to create them.']);
    expect(run.exitCode).toBe(0);
  });

  it('exits 1 with the boot error the server would give, such as a controller whose resource is gone', async () => {
    const broken = await apps.copy('blog-resources');
    await runPanelApi(['generate', '--root', broken]);
    await rm(join(broken, 'app/panel/resources/product-category.ts'));
    const run = await runPanelApi(['routes', '--root', broken]);
    expect(run.out).toEqual([]);
    expect(run.err).toHaveLength(1);
    expect(run.err[0]).toMatch(/^Cannot list the routes: .*ProductCategoriesController serves the resource "ProductCategory", which the panel does not have\./);
    expect(run.exitCode).toBe(1);
  });
});
