import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listFiles } from './support/list-files.js';
import { runPanelApi } from './support/run-panel-api.js';
import { tempApps } from './support/temp-apps.js';

const V1 = 'app/controllers/panel/api/resources/v1';
const EDITED = `// Edited by hand: authentication lives here now.\n`;

const apps = tempApps();
afterAll(() => apps.removeAll());

/** A fixture app after `generate`, with the users controller and the base controller edited by hand. */
async function generatedAndEdited(): Promise<string> {
  const root = await apps.copy('blog-resources');
  expect((await runPanelApi(['generate', '--root', root])).exitCode).toBe(0);
  await writeFile(join(root, V1, 'users-controller.ts'), EDITED);
  await writeFile(join(root, V1, 'base-resources-controller.ts'), EDITED);
  return root;
}

describe('panel-api never overwrites without --force', () => {
  it('re-running generate leaves edited controllers intact, prints "• Skipped" for every file and exits 0', async () => {
    const root = await generatedAndEdited();
    const run = await runPanelApi(['generate', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(run.out).toEqual([
      `• Skipped BlogPostsController  ${V1}/blog-posts-controller.ts (exists; --force overwrites)`,
      `• Skipped ProductCategoriesController  ${V1}/product-categories-controller.ts (exists; --force overwrites)`,
      `• Skipped UsersController  ${V1}/users-controller.ts (exists; --force overwrites)`,
      `• Skipped BaseResourcesController  ${V1}/base-resources-controller.ts (exists; keeps your authentication: \`panel-api controllers --force\` regenerates the others)`,
    ]);
    expect(await readFile(join(root, V1, 'users-controller.ts'), 'utf8')).toBe(EDITED);
    expect(await readFile(join(root, V1, 'base-resources-controller.ts'), 'utf8')).toBe(EDITED);
  });

  it('"A resource added later needs its own generated controller": generate creates only the missing one and skips the rest', async () => {
    const root = await generatedAndEdited();
    await writeFile(
      join(root, 'app/panel/resources/comment.ts'),
      `import { Resource, field } from '@panel/core';\n\nexport default class CommentResource extends Resource {\n  override fields() {\n    return [field.id()];\n  }\n}\n`,
    );
    const run = await runPanelApi(['generate', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(run.out).toEqual([
      `• Skipped BlogPostsController  ${V1}/blog-posts-controller.ts (exists; --force overwrites)`,
      `✓ Created CommentsController  ${V1}/comments-controller.ts`,
      `• Skipped ProductCategoriesController  ${V1}/product-categories-controller.ts (exists; --force overwrites)`,
      `• Skipped UsersController  ${V1}/users-controller.ts (exists; --force overwrites)`,
      `• Skipped BaseResourcesController  ${V1}/base-resources-controller.ts (exists; keeps your authentication: \`panel-api controllers --force\` regenerates the others)`,
    ]);
    expect(await readFile(join(root, V1, 'users-controller.ts'), 'utf8')).toBe(EDITED);
  });

  it('controller <ResourceName> skips an existing controller too', async () => {
    const root = await generatedAndEdited();
    const run = await runPanelApi(['controller', 'User', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(run.out).toEqual([`• Skipped UsersController  ${V1}/users-controller.ts (exists; --force overwrites)`]);
    expect(await readFile(join(root, V1, 'users-controller.ts'), 'utf8')).toBe(EDITED);
  });
});

describe('panel-api --force', () => {
  it('overwrites every existing file with the freshly rendered one and prints "✓ Overwrote"', async () => {
    const fresh = await apps.copy('blog-resources');
    await runPanelApi(['generate', '--root', fresh]);
    const root = await generatedAndEdited();
    const run = await runPanelApi(['generate', '--force', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(run.out).toEqual([
      `✓ Overwrote BlogPostsController  ${V1}/blog-posts-controller.ts`,
      `✓ Overwrote ProductCategoriesController  ${V1}/product-categories-controller.ts`,
      `✓ Overwrote UsersController  ${V1}/users-controller.ts`,
      `✓ Overwrote BaseResourcesController  ${V1}/base-resources-controller.ts`,
    ]);
    for (const file of ['users-controller.ts', 'base-resources-controller.ts']) {
      expect(await readFile(join(root, V1, file), 'utf8')).toBe(await readFile(join(fresh, V1, file), 'utf8'));
    }
  });

  it('controller User --force overwrites that one controller and leaves the edited base controller alone', async () => {
    const root = await generatedAndEdited();
    const run = await runPanelApi(['controller', 'User', '--force', '--root', root]);
    expect(run.out).toEqual([`✓ Overwrote UsersController  ${V1}/users-controller.ts`]);
    expect(await readFile(join(root, V1, 'users-controller.ts'), 'utf8')).toContain('export class UsersController');
    expect(await readFile(join(root, V1, 'base-resources-controller.ts'), 'utf8')).toBe(EDITED);
  });
});

describe('panel-api --dry-run', () => {
  it('prints "+ Would create" lines, writes nothing, and says so', async () => {
    const root = await apps.copy('blog-resources');
    const run = await runPanelApi(['generate', '--dry-run', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(run.out).toEqual([
      `+ Would create BlogPostsController  ${V1}/blog-posts-controller.ts`,
      `+ Would create ProductCategoriesController  ${V1}/product-categories-controller.ts`,
      `+ Would create UsersController  ${V1}/users-controller.ts`,
      `+ Would create BaseResourcesController  ${V1}/base-resources-controller.ts`,
      'Dry run: nothing was written.',
    ]);
    expect(await listFiles(root, 'app/controllers')).toEqual([]);
  });

  it('with --force prints "~ Would overwrite" for existing files and leaves them as they are', async () => {
    const root = await generatedAndEdited();
    const before = await listFiles(root);
    const run = await runPanelApi(['generate', '--dry-run', '--force', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(run.out).toEqual([
      `~ Would overwrite BlogPostsController  ${V1}/blog-posts-controller.ts`,
      `~ Would overwrite ProductCategoriesController  ${V1}/product-categories-controller.ts`,
      `~ Would overwrite UsersController  ${V1}/users-controller.ts`,
      `~ Would overwrite BaseResourcesController  ${V1}/base-resources-controller.ts`,
      'Dry run: nothing was written.',
    ]);
    expect(await listFiles(root)).toEqual(before);
    expect(await readFile(join(root, V1, 'users-controller.ts'), 'utf8')).toBe(EDITED);
  });

  it('without --force reports existing files as skipped', async () => {
    const root = await generatedAndEdited();
    const run = await runPanelApi(['controllers', '--dry-run', '--root', root]);
    expect(run.out).toEqual([
      `• Skipped BlogPostsController  ${V1}/blog-posts-controller.ts (exists; --force overwrites)`,
      `• Skipped ProductCategoriesController  ${V1}/product-categories-controller.ts (exists; --force overwrites)`,
      `• Skipped UsersController  ${V1}/users-controller.ts (exists; --force overwrites)`,
      'Dry run: nothing was written.',
    ]);
  });
});
