// `panel-api init` over tables whose names are not identifiers nor file names: a leading digit,
// no letters at all, quotes, backslashes, path separators, `..`, a newline. The resource files it
// writes parse and typecheck, sit inside the resources folder, and quote the table as it is; a
// table no name can be derived from is listed as not served with the reason and the fix. The
// database is a PGlite folder made once for the file.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@panel/core';
import { sql } from 'kysely';
import { runPanelApi } from './support/run-panel-api.js';
import { typecheckApp } from './support/run-tsc.js';
import { IN_REPO_TMP_PARENT, tempApps } from './support/temp-apps.js';

const apps = tempApps(IN_REPO_TMP_PARENT);
const RESOURCES = 'app/panel/resources';

const TABLES = ['2fa_codes', '_', '😀', 'ok', "o'brien", 'a\\b', '../../../evil', '../../../src/server', 'x*/y', 'new\nline', 'base_resources'];

/** Every file under the app root, relative to it. */
async function filesUnder(root: string): Promise<string[]> {
  return (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(root.length + 1)).sort();
}

describe('panel-api init over tables with odd names', () => {
  let folder: string;

  beforeAll(async () => {
    const dataRoot = await apps.empty();
    folder = join(dataRoot, 'data', 'pglite');
    const database = await openDatabase({ dataDir: folder });
    try {
      for (const table of TABLES) await sql`create table ${sql.id(table)} (id serial primary key, name text)`.execute(database.db);
    } finally {
      await database.close();
    }
  }, 60_000);
  afterAll(() => apps.removeAll());

  // docs/generators.md: "Tables `init` does not serve are listed with the reason"; a resource's
  // file is written "app/panel/resources/<name>.ts", so always inside that folder.
  it('writes files that parse inside the resources folder, quoting each table as it is, and lists the tables it cannot name', async () => {
    const root = await apps.empty();
    const run = await runPanelApi(['init', '--from-database', folder, '--root', root]);
    expect(run.err).toEqual([]);
    expect(run.exitCode).toBe(0);
    const files = await filesUnder(root);
    expect(files.filter((f) => f.startsWith(`${RESOURCES}/`))).toEqual(
      ['ab.ts', 'evil.ts', 'new_line.ts', 'o_brien.ts', 'ok.ts', 'src_server.ts', 'table2fa_code.ts', 'xy.ts'].map((f) => `${RESOURCES}/${f}`),
    );
    expect(files.every((f) => f.startsWith('app/') || f.startsWith('openapi/') || f === 'tsconfig.json')).toBe(true);
    expect(await readFile(join(root, RESOURCES, 'o_brien.ts'), 'utf8')).toContain("static override table = 'o\\'brien';");
    expect(await readFile(join(root, RESOURCES, 'ab.ts'), 'utf8')).toContain("export default class ABResource extends Resource {\n  static override table = 'a\\\\b';");
    expect(await readFile(join(root, RESOURCES, 'new_line.ts'), 'utf8')).toMatch(/^\/\/ Written by `panel-api init` from the table "new\\nline"\. /);
    expect(await readFile(join(root, RESOURCES, 'table2fa_code.ts'), 'utf8')).toContain('export default class Table2faCodeResource extends Resource {');
    const notServed = run.out.filter((line) => line.startsWith('not served'));
    expect(notServed.sort()).toEqual([
      'not served  _: its name gives no resource name (no letter or digit). Fix: panel-api resource <Name> --from-table _',
      'not served  😀: its name gives no resource name (no letter or digit). Fix: panel-api resource <Name> --from-table \'😀\'',
      "not served  base_resources: its resource BaseResource would get the base controller's file (base-resources-controller). Fix: panel-api resource <Name> --from-table base_resources",
    ].sort());
    const tsc = await typecheckApp(root);
    expect(tsc.output).toBe('');
    expect(tsc.exitCode).toBe(0);
    // A second run finds every file it wrote, by the table its first line names.
    const again = await runPanelApi(['init', '--check', '--from-database', folder, '--root', root]);
    expect(again.out.at(-1)).toBe('Up to date: every resource written by init matches its table.');
    expect(again.exitCode).toBe(0);
  }, 120_000);

  it('writes such a table under the name given to resource --from-table', async () => {
    const root = await apps.empty();
    const run = await runPanelApi(['resource', 'TwoFaCode', '--from-table', '2fa_codes', '--database', folder, '--root', root]);
    expect(run.err).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(await readFile(join(root, RESOURCES, 'two_fa_code.ts'), 'utf8')).toContain("export default class TwoFaCodeResource extends Resource {\n  static override table = '2fa_codes';");
  }, 120_000);
});
