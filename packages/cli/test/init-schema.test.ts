// `panel-api init --schema <name>`: the resources it writes name their tables without the
// schema, so the app serves them only when openDatabase puts that schema on the search path.
// init says so; a schema openDatabase cannot open is refused before anything is written; a schema
// without tables is what init cannot read (docs/generators.md: "What `init` and `resource
// --from-table` cannot read is one line naming the problem and the fix, exit 2, before anything
// is written").
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@panel/core';
import { sql } from 'kysely';
import { createTestSchema, testDatabaseKinds } from '@panel/test-support';
import { runPanelApi } from './support/run-panel-api.js';
import { IN_REPO_TMP_PARENT, tempApps } from './support/temp-apps.js';

const apps = tempApps(IN_REPO_TMP_PARENT);

const SCHEMA = `
  create schema "Sales";
  create table "Sales"."Invoices" (id bigserial primary key, "Total" numeric(12,2));
  create schema "order";
  create table "order".line (id serial primary key, quantity int);
  create schema nope;
`;

/** Every file under the app root, relative to it. */
async function filesUnder(root: string): Promise<string[]> {
  return (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(root.length + 1)).sort();
}

describe('panel-api init --schema', { timeout: 120_000 }, () => {
  let folder: string;

  beforeAll(async () => {
    folder = join(await apps.empty(), 'data', 'pglite');
    const database = await openDatabase({ dataDir: folder });
    try {
      for (const statement of SCHEMA.split(';').filter((s) => s.trim() !== '')) await sql.raw(statement).execute(database.db);
    } finally {
      await database.close();
    }
  }, 60_000);
  afterAll(() => apps.removeAll());

  it('"a schema openDatabase cannot open is refused before anything is written": --schema Sales, exit 2, one line with the fix', async () => {
    const root = await apps.empty();
    for (const argv of [['init', '--from-database', folder, '--schema', 'Sales'], ['init', '--check', '--from-database', folder, '--schema', 'Sales'], ['resource', 'Invoice', '--from-table', 'Invoices', '--database', folder, '--schema', 'Sales']]) {
      const run = await runPanelApi([...argv, '--root', root]);
      expect(run.exitCode, argv.join(' ')).toBe(2);
      expect(run.out).toEqual([]);
      expect(run.err).toEqual([
        'The schema "Sales" is not a lower-case identifier, and openDatabase({ schema }) opens only those (the resources name their tables without the schema). Fix: rename it (ALTER SCHEMA "Sales" RENAME TO sales), then run init --schema sales.',
      ]);
    }
    expect(await filesUnder(root)).toEqual([]);
  });

  it('"a schema with no tables exits 2 with one line": --schema nope', async () => {
    const root = await apps.empty();
    const run = await runPanelApi(['init', '--from-database', folder, '--schema', 'nope', '--root', root]);
    expect(run.exitCode).toBe(2);
    expect(run.err).toEqual(['The schema "nope" has no tables. Fix: pass --schema <name>, or create the tables first.']);
    expect(await filesUnder(root)).toEqual([]);
  });

  it('"init --schema X ends by saying that the app must open the database with openDatabase({ schema: \'X\' })": on PGlite, which has no such option, it says what to do instead', async () => {
    const root = await apps.empty();
    const run = await runPanelApi(['init', '--from-database', folder, '--schema', 'order', '--root', root]);
    expect(run.err).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.out.at(-1)).toBe(
      'The resources name their tables without the schema "order": the app serves them only from PostgreSQL opened with openDatabase({ url, schema: \'order\' }) (PGlite takes no schema; there, move the tables to public).',
    );
  });

  it.runIf(testDatabaseKinds().includes('postgres'))('"init --schema X ends by saying that the app must open the database with openDatabase({ schema: \'X\' })": PostgreSQL', async () => {
    const schema = await createTestSchema();
    try {
      const database = await openDatabase({ url: schema.url, maxConnections: 1 });
      await sql.raw(`create table "${schema.schema}".book (id serial primary key, title text)`).execute(database.db);
      await database.close();
      const root = await apps.empty();
      const run = await runPanelApi(['init', '--from-database', schema.url, '--schema', schema.schema, '--root', root]);
      expect(run.exitCode, run.err.join('\n')).toBe(0);
      expect(run.out.at(-1)).toBe(`The resources name their tables without the schema "${schema.schema}": open the database with openDatabase({ url, schema: '${schema.schema}' }) in the app.`);
      // --schema public (the default) is the search path's own schema: nothing to say.
      const plain = await runPanelApi(['init', '--check', '--from-database', schema.url, '--schema', schema.schema, '--root', root]);
      expect(plain.out).toEqual(['Up to date: every resource written by init matches its table.']);
    } finally {
      await schema.drop();
    }
  });
});
