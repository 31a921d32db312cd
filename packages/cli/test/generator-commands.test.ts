import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listFiles } from './support/list-files.js';
import { runPanelApi } from './support/run-panel-api.js';
import { tempApps } from './support/temp-apps.js';

const RESOURCES = 'app/controllers/panel/api/resources';

const apps = tempApps();
afterAll(() => apps.removeAll());

describe('panel-api generate --version', () => {
  it('"`--version <name>` puts the controllers under a namespace other than `v1`": --version v2 writes under resources/v2', async () => {
    const root = await apps.copy('blog-resources');
    const run = await runPanelApi(['generate', '--version', 'v2', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(await listFiles(root, 'app/controllers')).toEqual([
      `${RESOURCES}/v2/base-resources-controller.ts`,
      `${RESOURCES}/v2/blog-posts-controller.ts`,
      `${RESOURCES}/v2/product-categories-controller.ts`,
      `${RESOURCES}/v2/users-controller.ts`,
    ]);
    expect(run.out).toEqual([
      `✓ Created BlogPostsController  ${RESOURCES}/v2/blog-posts-controller.ts`,
      `✓ Created ProductCategoriesController  ${RESOURCES}/v2/product-categories-controller.ts`,
      `✓ Created UsersController  ${RESOURCES}/v2/users-controller.ts`,
      `✓ Created BaseResourcesController  ${RESOURCES}/v2/base-resources-controller.ts`,
    ]);
  });

  it('puts the version in the generated code: the route comment and the base controller', async () => {
    const root = await apps.copy('blog-resources');
    await runPanelApi(['generate', '--version', 'v2', '--root', root]);
    expect(await readFile(join(root, RESOURCES, 'v2', 'users-controller.ts'), 'utf8')).toContain('as JSON at `/resources/v2/users`');
    expect(await readFile(join(root, RESOURCES, 'v2', 'base-resources-controller.ts'), 'utf8')).toContain('The base of every generated `v2` controller');
  });

  it.each(['../v1', 'v1/admin', '2', ''])('exits 2 with a message on standard error for the invalid --version %j, and writes nothing', async (version) => {
    const root = await apps.copy('blog-resources');
    const run = await runPanelApi(['generate', '--version', version, '--root', root]);
    expect(run.exitCode).toBe(2);
    expect(run.out).toEqual([]);
    expect(run.err).toEqual([`--version must be a path segment such as v1 or v2, instead got "${version}".`]);
    expect(await listFiles(root, 'app/controllers')).toEqual([]);
  });
});

describe('panel-api controllers', () => {
  it('"`panel_api:controllers` (all resources, without creating the base controller)": writes the three controllers only and prints the note', async () => {
    const root = await apps.copy('blog-resources');
    const run = await runPanelApi(['controllers', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(await listFiles(root, 'app/controllers')).toEqual([
      `${RESOURCES}/v1/blog-posts-controller.ts`,
      `${RESOURCES}/v1/product-categories-controller.ts`,
      `${RESOURCES}/v1/users-controller.ts`,
    ]);
    expect(run.out).toEqual([
      `✓ Created BlogPostsController  ${RESOURCES}/v1/blog-posts-controller.ts`,
      `✓ Created ProductCategoriesController  ${RESOURCES}/v1/product-categories-controller.ts`,
      `✓ Created UsersController  ${RESOURCES}/v1/users-controller.ts`,
      `Note: ${RESOURCES}/v1/base-resources-controller.ts does not exist yet; run \`panel-api generate\` to create the BaseResourcesController the controllers extend.`,
    ]);
  });

  it('names the version in the note when the base controller of another version is missing', async () => {
    const root = await apps.copy('blog-resources');
    const run = await runPanelApi(['controllers', '--version', 'v2', '--root', root]);
    expect(run.out.at(-1)).toBe(
      `Note: ${RESOURCES}/v2/base-resources-controller.ts does not exist yet; run \`panel-api generate --version v2\` to create the BaseResourcesController the controllers extend.`,
    );
  });

  it('prints no note once the base controller exists', async () => {
    const root = await apps.copy('blog-resources');
    await runPanelApi(['generate', '--root', root]);
    const run = await runPanelApi(['controllers', '--force', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(run.out.filter((line) => line.startsWith('Note:'))).toEqual([]);
    expect(run.out).toHaveLength(3);
  });
});

describe('panel-api controller <ResourceName>', () => {
  it('"`panel_api:controller <ResourceName>` (one resource)": controller BlogPost creates exactly one file', async () => {
    const root = await apps.copy('blog-resources');
    const run = await runPanelApi(['controller', 'BlogPost', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(await listFiles(root, 'app/controllers')).toEqual([`${RESOURCES}/v1/blog-posts-controller.ts`]);
    expect(run.out).toEqual([
      `✓ Created BlogPostsController  ${RESOURCES}/v1/blog-posts-controller.ts`,
      `Note: ${RESOURCES}/v1/base-resources-controller.ts does not exist yet; run \`panel-api generate\` to create the BaseResourcesController the controllers extend.`,
    ]);
  });

  it('accepts the resource class name as well (controller ProductCategoryResource)', async () => {
    const root = await apps.copy('blog-resources');
    const run = await runPanelApi(['controller', 'ProductCategoryResource', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(await listFiles(root, 'app/controllers')).toEqual([`${RESOURCES}/v1/product-categories-controller.ts`]);
  });

  it('exits 1 for an unknown resource name, lists the known ones on standard error, and writes nothing', async () => {
    const root = await apps.copy('blog-resources');
    const run = await runPanelApi(['controller', 'Invoice', '--root', root]);
    expect(run.exitCode).toBe(1);
    expect(run.out).toEqual([]);
    expect(run.err).toEqual(['No resource named "Invoice". Known resources: BlogPost, ProductCategory, User.']);
    expect(await listFiles(root, 'app/controllers')).toEqual([]);
  });

  it('exits 2 when the resource name is missing', async () => {
    const root = await apps.copy('blog-resources');
    const run = await runPanelApi(['controller', '--root', root]);
    expect(run.exitCode).toBe(2);
    expect(run.err.join('\n')).toContain("missing required argument 'ResourceName'");
  });
});

describe('panel-api with no resources', () => {
  it.each(['generate', 'controllers'])('%s exits 1 with a message naming the folder when app/panel/resources is empty', async (command) => {
    const root = await apps.empty();
    const run = await runPanelApi([command, '--root', root]);
    expect(run.exitCode).toBe(1);
    expect(run.out).toEqual([]);
    expect(run.err).toEqual([`No resources found in ${join(root, 'app', 'panel', 'resources')}. Add a class extending Resource there, then run this again.`]);
    expect(await listFiles(root)).toEqual([]);
  });

  it('exits 1 saying the folder does not exist and how to reach the app root when the app has no app/panel/resources folder at all', async () => {
    const app = await apps.empty();
    const root = join(app, 'not-an-app');
    const run = await runPanelApi(['generate', '--root', root]);
    expect(run.exitCode).toBe(1);
    // Changed by the newcomer issue: the old "No resources found… Add a class" advice sent people to the wrong folder.
    expect(run.err).toEqual([
      `No app/panel/resources folder in ${root}: panel-api looks for app/panel/resources under the app root (the current directory, or the folder --root names). Fix: cd ${relative(process.cwd(), app)} (the app root ${app} holds it), or pass --root ${app}.`,
    ]);
  });
});

describe('panel-api usage errors', () => {
  it('exits 2 for an unknown command', async () => {
    // `install` exists since Edition B (`panel-api install`); any other unknown name is a usage error.
    const run = await runPanelApi(['deploy']);
    expect(run.exitCode).toBe(2);
    expect(run.err).toEqual(["error: unknown command 'deploy'"]);
  });

  it('exits 2 for an unknown option', async () => {
    const run = await runPanelApi(['generate', '--verbose']);
    expect(run.exitCode).toBe(2);
    expect(run.err).toEqual(["error: unknown option '--verbose'"]);
  });

  it('exits 0 for --help and lists the three generators', async () => {
    const run = await runPanelApi(['--help']);
    expect(run.exitCode).toBe(0);
    const help = run.out.join('\n');
    expect(help).toMatch(/generate \[options\]/);
    expect(help).toMatch(/controllers \[options\]/);
    expect(help).toMatch(/controller \[options\] <ResourceName>/);
  });
});
