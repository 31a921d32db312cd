// `panel-api init` run in an app's folder finds the app's database as the token commands do
// (docs/edition-b-tokens.md "Which database": DATABASE_URL and PGLITE_DATA_DIR from the
// environment or the app's .env, then data/pglite), and says which source it read. On a PGlite
// folder a running server holds, its fix names init's own option. Run as a user runs it: the
// real CLI in a child process, in the app's folder, without the test's DATABASE_URL.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@panel/core';
import { sql } from 'kysely';
import { createTestSchema, testDatabaseKinds } from '@panel/test-support';
import { IN_REPO_TMP_PARENT, tempApps } from './support/temp-apps.js';
import { holdPgliteFolder, panelApiInFolder } from './support/app-folder-runs.js';


const apps = tempApps(IN_REPO_TMP_PARENT);
afterAll(() => apps.removeAll());

/** `panel-api …args` in the app's folder, as a user runs it, without the test's database variables. */
const panelApi = (root: string, args: readonly string[]) => panelApiInFolder(root, args, ['DATABASE_URL', 'PGLITE_DATA_DIR']);

/** An app whose PGlite database, in `folder`, holds one table. */
async function pgliteApp(folder = 'data/pglite'): Promise<string> {
  const root = await apps.empty();
  const dataDir = join(root, folder);
  await mkdir(dataDir, { recursive: true });
  const database = await openDatabase({ dataDir });
  try {
    await sql`create table book (id serial primary key, title text not null)`.execute(database.db);
  } finally {
    await database.close();
  }
  return root;
}

describe("panel-api init finds the app's database as the token commands do", { timeout: 120_000 }, () => {
  it('"then the folder data/pglite when it exists": init --check, then init, with no flag read data/pglite and say so', async () => {
    const root = await pgliteApp();
    const check = await panelApi(root, ['init', '--check']);
    expect(check.stderr).toBe('');
    expect(check.stdout.split('\n')[0]).toBe('Reading the PGlite folder data/pglite (the app\'s default folder).');
    const init = await panelApi(root, ['init']);
    expect(init.exitCode, init.stderr).toBe(0);
    expect(init.stdout).toContain('create   app/panel/resources/book.ts');
  });

  it('"PGLITE_DATA_DIR from the environment or the app\'s .env file": init reads the folder .env names', async () => {
    const root = await pgliteApp('db/elsewhere');
    await writeFile(join(root, '.env'), 'PGLITE_DATA_DIR=db/elsewhere\n');
    const init = await panelApi(root, ['init']);
    expect(init.exitCode, init.stderr).toBe(0);
    expect(init.stdout.split('\n')[0]).toBe('Reading the PGlite folder db/elsewhere (PGLITE_DATA_DIR, from .env).');
  });

  it.runIf(testDatabaseKinds().includes('postgres'))('"DATABASE_URL … from the environment or the app\'s .env file": a scaffolded PostgreSQL app\'s init reads DATABASE_URL from .env', async () => {
    const schema = await createTestSchema();
    try {
      const database = await openDatabase({ url: schema.url, maxConnections: 1 });
      await sql.raw(`create table "${schema.schema}".book (id serial primary key, title text)`).execute(database.db);
      await database.close();
      const root = await apps.empty();
      await writeFile(join(root, '.env'), `DATABASE_URL=${schema.url}\n`);
      const check = await panelApi(root, ['init', '--check', '--schema', schema.schema]);
      expect(check.stderr).toBe('');
      expect(check.stdout.split('\n')[0]).toBe('Reading the database DATABASE_URL names (from .env).');
    } finally {
      await schema.drop();
    }
  });

  it("no database anywhere: one line naming init's ways to name one, exit 2", async () => {
    const root = await apps.empty();
    const run = await panelApi(root, ['init']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(
      'panel-api init needs a database: --from-database postgres://user@host:5432/db (or a PGlite data folder), DATABASE_URL or PGLITE_DATA_DIR (in the environment or .env), or the folder data/pglite.\n',
    );
  });

  it('"the fix must name init\'s own option": a PGlite folder a running server holds', async () => {
    const root = await pgliteApp();
    const dataDir = join(root, 'data', 'pglite');
    const held = await holdPgliteFolder(dataDir);
    try {
      const run = await panelApi(root, ['init', '--check', '--from-database', './data/pglite']);
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toMatch(/^The PGlite folder \S+ is in use by process \d+ \(a running server\?\): PGlite is one process at a time\. Fix: stop that process, or point init at PostgreSQL with --from-database postgres:\/\/user@host:5432\/db\.\n$/);
    } finally {
      await held.send('close');
    }
  });
});
