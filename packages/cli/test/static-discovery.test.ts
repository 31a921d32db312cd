import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listFiles } from './support/list-files.js';
import { runPanelApi } from './support/run-panel-api.js';
import { tempApps } from './support/temp-apps.js';

const V1 = 'app/controllers/panel/api/resources/v1';

const apps = tempApps();
afterAll(() => apps.removeAll());

/** A new app whose `app/panel/resources` holds exactly `files` (name → source). */
async function appWith(files: Record<string, string>): Promise<string> {
  const root = await apps.empty();
  for (const [name, source] of Object.entries(files)) await writeFile(join(root, 'app', 'panel', 'resources', name), source);
  return root;
}

const resource = (className: string, body = '') =>
  `import { Resource, field } from '@panel/core';\n\nexport default class ${className} extends Resource {\n${body}  override fields() {\n    return [field.id()];\n  }\n}\n`;

describe('panel-api reads resources statically, never running them', () => {
  it('generates the controller of a resource file that would throw if executed', async () => {
    const root = await appWith({ 'invoice.ts': `throw new Error('executed');\n\n${resource('InvoiceResource')}` });
    const run = await runPanelApi(['generate', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(run.err).toEqual([]);
    expect(run.out[0]).toBe(`✓ Created InvoicesController  ${V1}/invoices-controller.ts`);
    expect(await listFiles(root, 'app/controllers')).toEqual([`${V1}/base-resources-controller.ts`, `${V1}/invoices-controller.ts`]);
  });

  it('generates controllers for resources whose imports do not exist (nothing is resolved or installed)', async () => {
    const root = await appWith({ 'invoice.ts': `import { slugify } from 'not-installed-anywhere';\nimport { money } from './missing-helpers.js';\n\n${resource('InvoiceResource')}` });
    const run = await runPanelApi(['controllers', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(await listFiles(root, 'app/controllers')).toEqual([`${V1}/invoices-controller.ts`]);
  });

  it('uses a string literal `static resourceName` over the class name', async () => {
    const root = await appWith({ 'person.ts': resource('HumanResource', "  static override resourceName = 'Person';\n\n") });
    const run = await runPanelApi(['controllers', '--root', root]);
    expect(run.out[0]).toBe(`✓ Created PeopleController  ${V1}/people-controller.ts`);
  });

  it('exits 1 naming the file and line when `static resourceName` is not a string literal', async () => {
    const root = await appWith({
      'person.ts': `const NAME = 'Person';\n\n${resource('HumanResource', '  static override resourceName = NAME;\n\n')}`,
    });
    const run = await runPanelApi(['generate', '--root', root]);
    expect(run.exitCode).toBe(1);
    expect(run.err).toEqual([
      'app/panel/resources/person.ts:5: static resourceName must be a string literal, so that panel-api can read it without running the file.',
    ]);
    expect(await listFiles(root, 'app/controllers')).toEqual([]);
  });

  it('exits 1 when two resources would share a controller, instead of skipping or overwriting one of them', async () => {
    const root = await appWith({
      'a-user.ts': resource('UserResource'),
      'b-user.ts': resource('MemberResource', "  static override resourceName = 'User';\n\n"),
    });
    const run = await runPanelApi(['generate', '--force', '--root', root]);
    expect(run.exitCode).toBe(1);
    expect(run.err).toEqual([
      'app/panel/resources/a-user.ts:3 and app/panel/resources/b-user.ts:3 both give UsersController. Fix: rename one of the resources, or set static resourceName on one.',
    ]);
    expect(await listFiles(root, 'app/controllers')).toEqual([]);
  });

  it('finds named exports and several resources per file, in resource-name order', async () => {
    const source = `import { Resource } from '@panel/core';\n\nexport class TagResource extends Resource {}\nexport class AuthorResource extends Resource {}\n`;
    const root = await appWith({ 'catalogue.ts': source });
    const run = await runPanelApi(['controllers', '--root', root]);
    expect(run.out.slice(0, 2)).toEqual([`✓ Created AuthorsController  ${V1}/authors-controller.ts`, `✓ Created TagsController  ${V1}/tags-controller.ts`]);
  });

  it('ignores abstract and unexported resources, classes extending something else, tests and declaration files', async () => {
    const root = await appWith({
      'base.ts': `import { Resource } from '@panel/core';\n\nexport abstract class AuditedResource extends Resource {}\nclass HiddenResource extends Resource {}\nexport class Helper extends Map {}\n`,
      'user.test.ts': resource('TestOnlyResource'),
      'user.d.ts': `export default class DeclaredResource {}\n`,
      'user.ts': resource('UserResource'),
    });
    const run = await runPanelApi(['controllers', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(await listFiles(root, 'app/controllers')).toEqual([`${V1}/users-controller.ts`]);
  });

  it('ignores sub-folders of app/panel/resources', async () => {
    const root = await appWith({ 'user.ts': resource('UserResource') });
    await mkdir(join(root, 'app', 'panel', 'resources', 'concerns'));
    await writeFile(join(root, 'app', 'panel', 'resources', 'concerns', 'tag.ts'), resource('TagResource'));
    const run = await runPanelApi(['controllers', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(await listFiles(root, 'app/controllers')).toEqual([`${V1}/users-controller.ts`]);
  });
});
