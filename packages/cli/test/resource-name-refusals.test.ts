// Resource names the generator cannot build a controller from: one that would be the base
// controller's (BaseResource → base-resources-controller), and a static resourceName that is not
// a PascalCase name ('../../../evil', ''). Each is one line naming the file and the fix, exit 1,
// before anything is written; `--check` reports it too.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listFiles } from './support/list-files.js';
import { runPanelApi } from './support/run-panel-api.js';
import { tempApps } from './support/temp-apps.js';

const V1 = 'app/controllers/panel/api/resources/v1';
const apps = tempApps();
afterAll(() => apps.removeAll());

const resource = (className: string, statics = '') =>
  `import { Resource, field } from '@panel/core';\n\nexport default class ${className} extends Resource {\n${statics}  override fields() {\n    return [field.id()];\n  }\n}\n`;

/** An app holding a Book resource and `file` with `source`. */
async function appWith(file: string, source: string): Promise<string> {
  const root = await apps.empty();
  await writeFile(join(root, 'app/panel/resources/book.ts'), resource('BookResource'));
  await writeFile(join(root, 'app/panel/resources', file), source);
  return root;
}

describe('a resource whose controller would be the base controller', () => {
  const BASE_LINE =
    `app/panel/resources/base-resource.ts:3: the resource BaseResource would get the base controller's file ${V1}/base-resources-controller.ts (BaseResourcesController). ` +
    "Fix: set static resourceName to another name (static resourceName = 'BaseResourceRecord'), or rename the class.";

  // docs/generators.md: "`<file>:<line> and <file>:<line> both give PeopleController. Fix: …`
  // (two resources that would share a controller file)", exit 1; docs/upgrading.md:
  // "`controllers --force` leaves the base controller alone".
  it.each([['generate'], ['controllers', '--force'], ['generate', '--check'], ['controller', 'BaseResource']])('panel-api %s refuses it in one line, exit 1, writing nothing', async (...argv) => {
    const root = await appWith('base-resource.ts', resource('BaseResourceResource'));
    const run = await runPanelApi([...argv, '--root', root]);
    expect(run.err).toEqual([BASE_LINE]);
    expect(run.exitCode).toBe(1);
    expect(await listFiles(root, 'app/controllers')).toEqual([]);
  });

  it('leaves an existing base controller alone with controllers --force', async () => {
    const root = await appWith('book-base.ts', resource('BookBaseResource'));
    expect((await runPanelApi(['generate', '--root', root])).exitCode).toBe(0);
    const base = await readFile(join(root, V1, 'base-resources-controller.ts'), 'utf8');
    await writeFile(join(root, 'app/panel/resources/base-resource.ts'), resource('BaseResourceResource'));
    const run = await runPanelApi(['controllers', '--force', '--root', root]);
    expect(run.exitCode).toBe(1);
    expect(run.out).toEqual([]);
    expect(await readFile(join(root, V1, 'base-resources-controller.ts'), 'utf8')).toBe(base);
  });

  it('accepts it under another static resourceName', async () => {
    const root = await appWith('base-resource.ts', resource('BaseResourceResource', "  static override resourceName = 'BaseResourceRecord';\n"));
    const run = await runPanelApi(['generate', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(await listFiles(root, V1)).toContain(`${V1}/base-resource-records-controller.ts`);
  });
});

describe('a static resourceName that is not a resource name', () => {
  // The rule core's createPanel applies: a resource name is a capital letter, then letters and digits.
  it.each([['../../../evil'], [''], ['blog_post'], ['Blog Post']])('%j: one line naming the file and the fix, exit 1, nothing written (generate and --check)', async (name) => {
    const root = await appWith('evil.ts', resource('EvilResource', `  static override resourceName = ${JSON.stringify(name)};\n`));
    for (const argv of [['generate'], ['generate', '--check'], ['generate', '--dry-run']]) {
      const run = await runPanelApi([...argv, '--root', root]);
      expect(run.err).toEqual([
        `app/panel/resources/evil.ts:3: ${JSON.stringify(name)} is not a resource name: a capital letter, then letters and digits, such as BlogPost. Fix: set static resourceName to such a name, or rename the class.`,
      ]);
      expect(run.out).toEqual([]);
      expect(run.exitCode).toBe(1);
    }
    expect(await listFiles(root, 'app/controllers')).toEqual([]);
  });
});
