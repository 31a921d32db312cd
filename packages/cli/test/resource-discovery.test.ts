import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileResources, loadResourceClasses } from '@panel/core';
import { scanResources } from '../src/index.js';
import { listFiles } from './support/list-files.js';
import { runPanelApi } from './support/run-panel-api.js';
import { FIXTURES_DIR, tempApps } from './support/temp-apps.js';

const V1 = 'app/controllers/panel/api/resources/v1';

const apps = tempApps();
afterAll(() => apps.removeAll());

/** A new app root holding exactly `files` (path relative to the root → source). */
async function appWith(files: Record<string, string>): Promise<string> {
  const root = await apps.empty();
  for (const [path, source] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), source);
  }
  return root;
}

const fields = `  override fields() {\n    return [field.id()];\n  }\n`;
const resource = (className: string, base = 'Resource', body = '') => `import { Resource, field } from '@panel/core';\n\nexport class ${className} extends ${base} {\n${body}${fields}}\n`;

describe('resource discovery: a resource class extending another resource class', () => {
  it('finds resources two classes away from Resource, through a base outside the folder, aliased, namespace and default exports, and skips re-exports', async () => {
    const root = await apps.copy('inherited-resources');
    const run = await runPanelApi(['generate', '--root', root]);
    expect(run.err).toEqual([]);
    expect(run.out).toEqual([
      `✓ Created AdminUsersController  ${V1}/admin-users-controller.ts`,
      `✓ Created AuthorsController  ${V1}/authors-controller.ts`,
      `✓ Created TagsController  ${V1}/tags-controller.ts`,
      `✓ Created UsersController  ${V1}/users-controller.ts`,
      `✓ Created BaseResourcesController  ${V1}/base-resources-controller.ts`,
    ]);
    expect(run.exitCode).toBe(0);
    expect(await listFiles(root, 'app/controllers')).toEqual([
      `${V1}/admin-users-controller.ts`,
      `${V1}/authors-controller.ts`,
      `${V1}/base-resources-controller.ts`,
      `${V1}/tags-controller.ts`,
      `${V1}/users-controller.ts`,
    ]);
  });

  it('agrees with the runtime: the names it reads statically are the names createPanel compiles by importing the files', async () => {
    const dir = join(FIXTURES_DIR, 'inherited-resources', 'app', 'panel', 'resources');
    const runtime = [...compileResources(await loadResourceClasses(dir)).keys()].sort();
    const scanned = scanResources(join(FIXTURES_DIR, 'inherited-resources'));
    expect(scanned.problems).toEqual([]);
    expect(scanned.resources.map((r) => r.name)).toEqual(runtime);
    expect(scanned.resources.map((r) => `${r.className} ${r.file}:${r.line}`)).toEqual([
      'AdminUserResource app/panel/resources/admin-user.ts:5',
      'AuthorResource app/panel/resources/author.ts:4',
      'TagResource app/panel/resources/tag.ts:4',
      'UserResource app/panel/resources/user.ts:5',
    ]);
  });

  it('inherits static resourceName: a subclass of a renamed resource without its own name gives the same controller, and the run stops', async () => {
    const root = await appWith({
      'app/panel/resources/person.ts': resource('HumanResource', 'Resource', "  static override resourceName = 'Person';\n\n"),
      'app/panel/resources/employee.ts': `import { field } from '@panel/core';\nimport { HumanResource } from './person.js';\n\nexport class EmployeeResource extends HumanResource {\n${fields}}\n`,
    });
    const run = await runPanelApi(['generate', '--root', root]);
    expect(run.err).toEqual([
      'app/panel/resources/employee.ts:4 and app/panel/resources/person.ts:3 both give PeopleController. Fix: rename one of the resources, or set static resourceName on one.',
    ]);
    expect(run.exitCode).toBe(1);
  });

  it('uses the subclass\'s own static resourceName over the inherited one', async () => {
    const root = await appWith({
      'app/panel/resources/person.ts': resource('HumanResource', 'Resource', "  static override resourceName = 'Person';\n\n"),
      'app/panel/resources/staff.ts': `import { field } from '@panel/core';\nimport { HumanResource } from './person.js';\n\nexport class StaffMemberResource extends HumanResource {\n  static override resourceName = 'Staff';\n\n${fields}}\n`,
    });
    const run = await runPanelApi(['controllers', '--root', root]);
    expect(run.out.slice(0, 2)).toEqual([`✓ Created PeopleController  ${V1}/people-controller.ts`, `✓ Created StaffController  ${V1}/staff-controller.ts`]);
  });

  it('ignores exported classes that are not resources and do not look like one (a global base, an unknown package\'s class without fields())', async () => {
    const root = await appWith({
      'app/panel/resources/helpers.ts': `import { Thing } from 'some-package';\n\nexport class Slugs extends Map<string, string> {}\nexport class Box extends Thing {}\n`,
      'app/panel/resources/user.ts': resource('UserResource'),
    });
    const run = await runPanelApi(['controllers', '--root', root]);
    expect(run.err).toEqual([]);
    expect(await listFiles(root, 'app/controllers')).toEqual([`${V1}/users-controller.ts`]);
  });
});

describe('resource discovery: a file it cannot understand is reported by name and line, never skipped silently', () => {
  it.each([
    [
      'a base class from a package it does not read',
      `import { field } from '@panel/core';\nimport { KitResource } from '@acme/kit';\n\nexport class InvoiceResource extends KitResource {\n${fields}}\n`,
      "app/panel/resources/invoice.ts:4: cannot tell whether InvoiceResource is a resource: it extends KitResource from '@acme/kit', which panel-api does not read (it follows relative imports and @panel/core). Fix: extend Resource from @panel/core, or a resource class imported with a relative path.",
    ],
    [
      'a mixin call in the extends clause',
      `import { Resource, field } from '@panel/core';\nimport { timestamped } from './mixins.js';\n\nexport class InvoiceResource extends timestamped(Resource) {\n${fields}}\n`,
      'app/panel/resources/invoice.ts:4: cannot tell whether InvoiceResource is a resource: it extends timestamped(Resource), an expression only running the file would evaluate. Fix: extend Resource from @panel/core, or a resource class imported with a relative path.',
    ],
    [
      'a relative base file that does not exist',
      `import { field } from '@panel/core';\nimport { AppResource } from '../lib/app-resource.js';\n\nexport class InvoiceResource extends AppResource {\n${fields}}\n`,
      "app/panel/resources/invoice.ts:4: cannot tell whether InvoiceResource is a resource: it extends AppResource from '../lib/app-resource.js', a file that does not exist. Fix: extend Resource from @panel/core, or a resource class imported with a relative path.",
    ],
    [
      'a syntax error',
      `import { Resource, field } from '@panel/core';\n\nexport class InvoiceResource extends Resource {\n  override fields() {\n    return [field.id(];\n  }\n}\n`,
      "app/panel/resources/invoice.ts:5: cannot parse this file: Argument expression expected.",
    ],
    [
      'an anonymous default export',
      `import { Resource, field } from '@panel/core';\n\nexport default class extends Resource {\n${fields}}\n`,
      'app/panel/resources/invoice.ts:3: an anonymous resource class has no name to derive the resource name from. Fix: name the class (export default class BookResource extends Resource), or set static resourceName.',
    ],
    [
      'a class expression assigned to an exported constant',
      `import { Resource, field } from '@panel/core';\n\nexport const InvoiceResource = class extends Resource {\n${fields}};\n`,
      'app/panel/resources/invoice.ts:3: cannot tell whether InvoiceResource is a resource: it is made by an expression, not declared as a class. Fix: declare it as export class InvoiceResource extends Resource { … }.',
    ],
    [
      'a default export made by a call',
      `import { Resource } from '@panel/core';\nimport { defineResource } from './define.js';\n\nexport default defineResource(Resource, { table: 'invoices' });\n`,
      'app/panel/resources/invoice.ts:4: cannot tell whether the default export is a resource: it is made by an expression, not declared as a class. Fix: declare it as export class BookResource extends Resource { … }.',
    ],
  ])('%s: exits 1 naming the file and line, and writes nothing', async (_case, source, message) => {
    const root = await appWith({ 'app/panel/resources/invoice.ts': source, 'app/panel/resources/user.ts': resource('UserResource') });
    const run = await runPanelApi(['generate', '--root', root]);
    expect(run.out).toEqual([]);
    expect(run.err).toEqual([message]);
    expect(run.exitCode).toBe(1);
    expect(await listFiles(root, 'app/controllers')).toEqual([]);
  });

  it('reports every file it cannot understand, in file order, in one run', async () => {
    const root = await appWith({
      'app/panel/resources/a.ts': `export class BrokenResource extends {\n`,
      'app/panel/resources/b.ts': `import { KitResource } from '@acme/kit';\n\nexport class OtherResource extends KitResource {}\n`,
    });
    const run = await runPanelApi(['generate', '--root', root]);
    expect(run.err.map((line) => line.split(': ')[0])).toEqual(['app/panel/resources/a.ts:2', 'app/panel/resources/b.ts:3']);
    expect(run.exitCode).toBe(1);
  });
});

describe('resource discovery: the resources folder configured elsewhere', () => {
  it('reads resourcesDir from panel.config.json at the app root', async () => {
    const root = await appWith({ 'panel.config.json': '{ "resourcesDir": "src/panel/resources" }\n', 'src/panel/resources/user.ts': resource('UserResource') });
    const run = await runPanelApi(['generate', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(await listFiles(root, 'app/controllers')).toEqual([`${V1}/base-resources-controller.ts`, `${V1}/users-controller.ts`]);
    expect(run.out[0]).toBe(`✓ Created UsersController  ${V1}/users-controller.ts`);
  });

  it('--resources <dir> wins over the config file', async () => {
    const root = await appWith({
      'panel.config.json': '{ "resourcesDir": "src/panel/resources" }\n',
      'src/panel/resources/user.ts': resource('UserResource'),
      'lib/resources/tag.ts': resource('TagResource'),
    });
    const run = await runPanelApi(['controllers', '--resources', 'lib/resources', '--root', root]);
    expect(run.out[0]).toBe(`✓ Created TagsController  ${V1}/tags-controller.ts`);
    expect(await listFiles(root, 'app/controllers')).toEqual([`${V1}/tags-controller.ts`]);
  });

  it('writes the controllers under controllersDir from panel.config.json', async () => {
    const root = await appWith({ 'panel.config.json': '{ "controllersDir": "src/api/controllers" }\n', 'app/panel/resources/user.ts': resource('UserResource') });
    const run = await runPanelApi(['generate', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(await listFiles(root, 'src')).toEqual(['src/api/controllers/v1/base-resources-controller.ts', 'src/api/controllers/v1/users-controller.ts']);
  });

  it('names the configured folder when it holds no resources', async () => {
    const root = await appWith({ 'panel.config.json': '{ "resourcesDir": "src/resources" }\n' });
    const run = await runPanelApi(['generate', '--root', root]);
    expect(run.err).toEqual([`No resources found in ${join(root, 'src', 'resources')}. Add a class extending Resource there, then run this again.`]);
    expect(run.exitCode).toBe(1);
  });

  it.each([
    ['{ "resourceDir": "src" }', 'panel.config.json: unknown key "resourceDir". Fix: use one of resourcesDir, controllersDir, language.'],
    ['{ "resourcesDir": 3 }', 'panel.config.json: resourcesDir must be a folder path relative to the app root, instead got 3. Fix: set it to a path such as "src/panel/resources".'],
    ['{ "language": "coffee" }', 'panel.config.json: language must be "ts" or "js", instead got "coffee".'],
    ['[]', 'panel.config.json must hold a JSON object such as { "resourcesDir": "app/panel/resources" }.'],
  ])('exits 2 on the config file %s with a message naming the key and the fix', async (config, message) => {
    const root = await appWith({ 'panel.config.json': config, 'app/panel/resources/user.ts': resource('UserResource') });
    const run = await runPanelApi(['generate', '--root', root]);
    expect(run.err).toEqual([message]);
    expect(run.exitCode).toBe(2);
    expect(await listFiles(root, 'app/controllers')).toEqual([]);
  });

  it('exits 2 on a config file that is not JSON, and on a folder outside the app', async () => {
    const broken = await appWith({ 'panel.config.json': '{ resourcesDir: src }' });
    const run = await runPanelApi(['generate', '--root', broken]);
    expect(run.err[0]).toMatch(/^panel\.config\.json is not valid JSON: .+\. Fix: correct it, or delete it to use the defaults\.$/);
    expect(run.exitCode).toBe(2);
    const root = await appWith({ 'app/panel/resources/user.ts': resource('UserResource') });
    const outside = await runPanelApi(['generate', '--resources', '../elsewhere', '--root', root]);
    expect(outside.err).toEqual([`--resources must be a folder inside the app root ${root}, instead got "../elsewhere".`]);
    expect(outside.exitCode).toBe(2);
  });
});
