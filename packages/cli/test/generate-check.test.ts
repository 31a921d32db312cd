import { cp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listFiles } from './support/list-files.js';
import { runPanelApi } from './support/run-panel-api.js';
import { tempApps } from './support/temp-apps.js';

const RESOURCES = 'app/controllers/panel/api/resources';
const V1 = `${RESOURCES}/v1`;
const COMMENT = `import { Resource, field } from '@panel/core';\n\nexport default class CommentResource extends Resource {\n  override fields() {\n    return [field.id()];\n  }\n}\n`;

const apps = tempApps();
afterAll(() => apps.removeAll());

/** The fixture app after `panel-api generate` (with `args`). */
async function generated(...args: string[]): Promise<string> {
  const root = await apps.copy('blog-resources');
  expect((await runPanelApi(['generate', ...args, '--root', root])).exitCode).toBe(0);
  return root;
}

describe('panel-api generate --check', () => {
  it('exits 1 on an app without controllers, naming every missing file on standard error, and writes nothing', async () => {
    const root = await apps.copy('blog-resources');
    const run = await runPanelApi(['generate', '--check', '--root', root]);
    expect(run.out).toEqual([]);
    expect(run.err).toEqual([
      `✗ Missing BlogPostsController  ${V1}/blog-posts-controller.ts (resource BlogPost, app/panel/resources/blog-post.ts:4)`,
      `✗ Missing ProductCategoriesController  ${V1}/product-categories-controller.ts (resource ProductCategory, app/panel/resources/product-category.ts:4)`,
      `✗ Missing UsersController  ${V1}/users-controller.ts (resource User, app/panel/resources/user.ts:4)`,
      `✗ Missing BaseResourcesController  ${V1}/base-resources-controller.ts`,
      '4 problems. Fix: run `panel-api generate` to create the missing files.',
    ]);
    expect(run.exitCode).toBe(1);
    expect(await listFiles(root, 'app/controllers')).toEqual([]);
  });

  it('exits 0 with one line on standard output once generate has run, also after the controllers were edited', async () => {
    const root = await generated();
    await writeFile(join(root, V1, 'users-controller.ts'), (await readFile(join(root, V1, 'users-controller.ts'), 'utf8')).replace('{\n', '{\n  // edited\n'));
    const run = await runPanelApi(['generate', '--check', '--root', root]);
    expect(run.err).toEqual([]);
    expect(run.out).toEqual(['✓ Up to date: 3 resources, 3 controllers in v1.']);
    expect(run.exitCode).toBe(0);
  });

  it('"A resource added later needs its own generated controller": fails naming the new resource, passes after generate creates it', async () => {
    const root = await generated();
    await writeFile(join(root, 'app/panel/resources/comment.ts'), COMMENT);
    const before = await listFiles(root);
    const failing = await runPanelApi(['generate', '--check', '--root', root]);
    expect(failing.err).toEqual([
      `✗ Missing CommentsController  ${V1}/comments-controller.ts (resource Comment, app/panel/resources/comment.ts:3)`,
      '1 problem. Fix: run `panel-api generate` to create the missing files.',
    ]);
    expect(failing.exitCode).toBe(1);
    expect(await listFiles(root)).toEqual(before);

    const generate = await runPanelApi(['generate', '--root', root]);
    expect(generate.out.filter((line) => line.startsWith('✓'))).toEqual([`✓ Created CommentsController  ${V1}/comments-controller.ts`]);
    const passing = await runPanelApi(['generate', '--check', '--root', root]);
    expect(passing.out).toEqual(['✓ Up to date: 4 resources, 4 controllers in v1.']);
    expect(passing.exitCode).toBe(0);
  });

  it('fails naming a controller whose resource no longer exists (the boot would fail on it)', async () => {
    const root = await generated();
    await rm(join(root, 'app/panel/resources/user.ts'));
    const run = await runPanelApi(['generate', '--check', '--root', root]);
    expect(run.err).toEqual([
      `✗ Orphaned UsersController  ${V1}/users-controller.ts:9 serves the resource "User", which app/panel/resources no longer defines`,
      '1 problem. Fix: delete each orphaned controller, or restore its resource.',
    ]);
    expect(run.exitCode).toBe(1);
  });

  it('fails when two controllers of a version serve one resource', async () => {
    const root = await generated();
    await cp(join(root, V1, 'users-controller.ts'), join(root, V1, 'people-controller.ts'));
    const run = await runPanelApi(['generate', '--check', '--root', root]);
    expect(run.err).toEqual([
      `✗ Two controllers in v1 serve the resource "User": ${V1}/people-controller.ts:9 and ${V1}/users-controller.ts:9`,
      '1 problem. Fix: delete one of the two controllers.',
    ]);
    expect(run.exitCode).toBe(1);
  });

  it('counts a renamed controller file as the resource\'s controller, as the runtime does (and generate skips it rather than add a second)', async () => {
    const root = await generated();
    await rename(join(root, V1, 'users-controller.ts'), join(root, V1, 'members-controller.ts'));
    expect((await runPanelApi(['generate', '--check', '--root', root])).exitCode).toBe(0);
    const run = await runPanelApi(['controllers', '--root', root]);
    expect(run.out).toContain(`• Skipped UsersController  ${V1}/members-controller.ts (exists; --force overwrites)`);
    expect(await listFiles(root, V1)).not.toContain(`${V1}/users-controller.ts`);
  });

  it('lists every problem of every kind, with one fix per kind', async () => {
    const root = await generated();
    await rm(join(root, 'app/panel/resources/user.ts'));
    await rm(join(root, V1, 'base-resources-controller.ts'));
    await writeFile(join(root, 'app/panel/resources/comment.ts'), COMMENT);
    const run = await runPanelApi(['generate', '--check', '--root', root]);
    expect(run.err).toEqual([
      `✗ Missing CommentsController  ${V1}/comments-controller.ts (resource Comment, app/panel/resources/comment.ts:3)`,
      `✗ Missing BaseResourcesController  ${V1}/base-resources-controller.ts`,
      `✗ Orphaned UsersController  ${V1}/users-controller.ts:9 serves the resource "User", which app/panel/resources no longer defines`,
      '3 problems. Fix: run `panel-api generate` to create the missing files; delete each orphaned controller, or restore its resource.',
    ]);
  });

  it('writes nothing with --force or --dry-run beside it', async () => {
    const root = await apps.copy('blog-resources');
    const run = await runPanelApi(['generate', '--check', '--force', '--dry-run', '--root', root]);
    expect(run.exitCode).toBe(1);
    expect(await listFiles(root, 'app/controllers')).toEqual([]);
  });

  it('exits 1 as generate does when the resources cannot be read', async () => {
    const root = await apps.empty();
    const run = await runPanelApi(['generate', '--check', '--root', root]);
    expect(run.err).toEqual([`No resources found in ${join(root, 'app', 'panel', 'resources')}. Add a class extending Resource there, then run this again.`]);
    expect(run.exitCode).toBe(1);
  });
});

describe('panel-api generate --check with versions', () => {
  it('checks every version folder when --version is not given, and only the named one when it is', async () => {
    const root = await generated();
    expect((await runPanelApi(['generate', '--version', 'v2', '--root', root])).exitCode).toBe(0);
    expect((await runPanelApi(['generate', '--check', '--root', root])).out).toEqual(['✓ Up to date: 3 resources, 6 controllers in v1, v2.']);

    await rm(join(root, RESOURCES, 'v2', 'users-controller.ts'));
    const all = await runPanelApi(['generate', '--check', '--root', root]);
    expect(all.err).toEqual([
      `✗ Missing UsersController  ${RESOURCES}/v2/users-controller.ts (resource User, app/panel/resources/user.ts:4)`,
      '1 problem. Fix: run `panel-api generate --version v2` to create the missing files.',
    ]);
    expect(all.exitCode).toBe(1);
    expect((await runPanelApi(['generate', '--check', '--version', 'v1', '--root', root])).exitCode).toBe(0);
    expect((await runPanelApi(['generate', '--check', '--version', 'v2', '--root', root])).exitCode).toBe(1);
  });
});

describe('panel-api controllers --check and controller <Name> --check', () => {
  it('controllers --check does not ask for the base controller', async () => {
    const root = await apps.copy('blog-resources');
    await runPanelApi(['controllers', '--root', root]);
    const run = await runPanelApi(['controllers', '--check', '--root', root]);
    expect(run.out).toEqual(['✓ Up to date: 3 resources, 3 controllers in v1.']);
    expect(run.exitCode).toBe(0);
  });

  it('controller <Name> --check checks that resource\'s controller and names the command that creates it', async () => {
    const root = await apps.copy('blog-resources');
    const run = await runPanelApi(['controller', 'User', '--check', '--root', root]);
    expect(run.err).toEqual([
      `✗ Missing UsersController  ${V1}/users-controller.ts (resource User, app/panel/resources/user.ts:4)`,
      '1 problem. Fix: run `panel-api controller User` to create the missing files.',
    ]);
    expect(run.exitCode).toBe(1);
  });
});
