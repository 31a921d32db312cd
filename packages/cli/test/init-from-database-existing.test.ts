// `panel-api init --from-database` in an app that already has resources: files it wrote and a
// person edited, files a person wrote. "never clobber an edited resource; --check reports drift
// (column added/gone/type changed)", and nothing else. PGlite.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase } from '@panel/core';
import { runPanelApi } from './support/run-panel-api.js';
import { IN_REPO_TMP_PARENT, tempApps } from './support/temp-apps.js';

const apps = tempApps(IN_REPO_TMP_PARENT);
const RESOURCES = 'app/panel/resources';

const SCHEMA = [
  `create table book (id serial primary key, title text not null)`,
  `create table shelf (id serial primary key, label text)`,
  `create table pen (id serial primary key, colour text)`,
];

describe('panel-api init beside resources that already exist', () => {
  let folder: string;
  let root: string;
  const init = (...more: string[]) => runPanelApi(['init', ...more, '--from-database', folder, '--root', root]);

  beforeAll(async () => {
    root = await apps.empty();
    folder = join(root, 'data', 'pglite');
    const setup = await openDatabase({ dataDir: folder });
    try {
      for (const statement of SCHEMA) await sql.raw(statement).execute(setup.db);
    } finally {
      await setup.close();
    }
  }, 60_000);
  afterAll(() => apps.removeAll());

  it('"a changed option is not drift": init --check passes after { sortable: true } is added to a field init wrote', async () => {
    expect((await init()).exitCode).toBe(0);
    const file = join(root, RESOURCES, 'book.ts');
    const text = await readFile(file, 'utf8');
    expect(text).toContain("field.text('title', { required: true })");
    await writeFile(file, text.replace("field.text('title', { required: true })", "field.text('title', { required: true, sortable: true })"));
    const check = await init('--check');
    expect(check.out).toEqual(['Up to date: every resource written by init matches its table.']);
    expect(check.exitCode).toBe(0);
    // Another builder is still a changed type.
    await writeFile(file, text.replace("field.text('title', { required: true })", "field.textarea('title')"));
    const changed = await init('--check');
    expect(changed.exitCode).toBe(1);
    expect(changed.out[0]).toMatch(/^type changed {3}book\.title \(book\.ts\): now text → text: field\.text\('title', \{ required: true \}\)$/);
    await writeFile(file, text);
  });

  it('"Files a person wrote are not compared": a table served by a resource of the author\'s is neither written again nor reported as added', async () => {
    const dir = join(root, RESOURCES);
    // One at the path init would write, one under a name of the author's (with static table) in place of init's.
    await rm(join(dir, 'pen.ts'));
    await rm(join(root, 'app/controllers/panel/api/resources/v1/pens-controller.ts'));
    await writeFile(join(dir, 'shelf.ts'), "import { Resource, field } from '@panel/core';\n\nexport default class ShelfResource extends Resource {\n  static override table = 'shelf';\n\n  override fields() {\n    return [field.id(), field.text('label')];\n  }\n}\n");
    await writeFile(join(dir, 'writing-tools.ts'), "import { Resource, field } from '@panel/core';\n\nexport class WritingToolResource extends Resource {\n  static override table = 'pen';\n\n  override fields() {\n    return [field.id(), field.text('colour')];\n  }\n}\n");
    const check = await init('--check');
    expect(check.out).toEqual(['Up to date: every resource written by init matches its table.']);
    expect(check.exitCode).toBe(0);
    const again = await init();
    expect(again.err).toEqual([]);
    expect(again.out).toContain(`kept     ${RESOURCES}/writing-tools.ts (a resource of yours serves the table pen; init never overwrites a resource)`);
    expect((await readdir(dir)).sort()).toEqual(['book.ts', 'shelf.ts', 'writing-tools.ts']);
  });
});
