// `panel-api init --from-database` and `resource --from-table` on input they cannot serve: an
// unreadable database, an unknown URL scheme, a missing PGlite folder, a bad --version, two
// tables with one resource name. Each is one line naming the problem and the fix, a non-zero
// exit and nothing written. The database is a PGlite folder made once for the file.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@panel/core';
import { sql } from 'kysely';
import { testDatabaseKinds } from '@panel/test-support';
import { runPanelApi } from './support/run-panel-api.js';
import { IN_REPO_TMP_PARENT, tempApps } from './support/temp-apps.js';

const apps = tempApps(IN_REPO_TMP_PARENT);
const RESOURCES = 'app/panel/resources';

const SCHEMA = `
  create table book (id serial primary key, title text not null);
  create schema clash;
  create table clash.person (id serial primary key, name text);
  create table clash.people (id serial primary key, name text);
  create table clash.message (id serial primary key, sender_id int references clash.person(id), body text);
  create schema clash3;
  create table clash3.person (id serial primary key);
  create table clash3.people (id serial primary key);
  create table clash3."Person" (id serial primary key);
`;

/** Every file under the app root, relative to it. */
async function filesUnder(root: string): Promise<string[]> {
  return (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(root.length + 1)).sort();
}

describe('panel-api init on input it cannot serve', () => {
  let dataRoot: string;
  let folder: string;

  beforeAll(async () => {
    dataRoot = await apps.empty();
    folder = join(dataRoot, 'data', 'pglite');
    const database = await openDatabase({ dataDir: folder });
    try {
      for (const statement of SCHEMA.split(';').filter((s) => s.trim() !== '')) await sql.raw(statement).execute(database.db);
    } finally {
      await database.close();
    }
  }, 60_000);
  afterAll(() => apps.removeAll());

  const unreadable: [string, string][] = [
    ['a refused port', 'postgres://postgres@127.0.0.1:1/test'],
    ['a URL that is not one', 'postgres://bad url'],
  ];
  if (testDatabaseKinds().includes('postgres')) {
    unreadable.push(['a database that does not exist', 'postgres://postgres@127.0.0.1:5432/no_such_database_here'], ['a role that does not exist', 'postgres://no_such_role@127.0.0.1:5432/test']);
  }
  it.each(unreadable)('"bad input gets one clear line naming the problem and the fix and a non-zero exit, never a stack trace": %s', async (_, url) => {
    const root = await apps.empty();
    for (const argv of [['init', '--from-database', url], ['init', '--check', '--from-database', url], ['resource', 'Book', '--from-table', 'book', '--database', url]]) {
      const run = await runPanelApi([...argv, '--root', root]);
      expect(run.exitCode, argv.join(' ')).toBe(2);
      expect(run.out).toEqual([]);
      expect(run.err).toHaveLength(1);
      expect(run.err[0]).toMatch(/^Cannot open the database postgres:\/\/.*: .+\. Fix: check the URL/);
    }
    expect(await filesUnder(root)).toEqual([]);
  });

  it('"init --check writes nothing": a PGlite folder that does not exist is refused, not created', async () => {
    const root = await apps.empty();
    const missing = join(root, 'data', 'typo-pglite');
    for (const argv of [['init', '--check', '--from-database', missing], ['init', '--from-database', missing]]) {
      const run = await runPanelApi([...argv, '--root', root]);
      expect(run.exitCode).toBe(2);
      expect(run.err).toEqual([`No PGlite database at ${missing}: the folder does not exist (init never creates one). Fix: pass the folder your app's PGlite database is in, or a postgres:// URL.`]);
    }
    expect(existsSync(join(root, 'data'))).toBe(false);
    expect(await filesUnder(root)).toEqual([]);
  });

  it('a URL of another database (mysql://) is refused in one line, not taken for a PGlite folder and created', async () => {
    const root = await apps.empty();
    const run = await runPanelApi(['init', '--check', '--from-database', 'mysql://x@y/z', '--root', root]);
    expect(run.exitCode).toBe(2);
    expect(run.err).toEqual(['Cannot read a mysql:// database: init reads PostgreSQL. Fix: pass a postgres://user@host:5432/db URL, or the folder of a PGlite database.']);
    expect(existsSync(join(process.cwd(), 'mysql:'))).toBe(false);
  });

  it('"arguments validated before anything is written": init --version ../x writes no resource', async () => {
    const root = await apps.empty();
    const run = await runPanelApi(['init', '--from-database', folder, '--version', '../x', '--root', root]);
    expect(run.exitCode).toBe(2);
    expect(run.err).toEqual(['--version must be a path segment such as v1 or v2, instead got "../x".']);
    expect(await filesUnder(root)).toEqual([]);
  });
  it('two tables that infer one resource name: one line with a fix that works, and init keeps the name the fix gave', async () => {
    const root = await apps.empty();
    const init = ['init', '--from-database', folder, '--schema', 'clash', '--root', root];
    const refused = await runPanelApi(init);
    expect(refused.exitCode).toBe(1);
    expect(refused.err).toEqual([
      'Nothing written: the tables "people" and "person" would both be the resource Person. Fix: write one of them under another name first (panel-api resource <AnotherName> --from-table people, with the same --database and --schema), then run init again; it keeps that name.',
    ]);
    expect(await filesUnder(root)).toEqual([]);

    const fixed = await runPanelApi(['resource', 'Individual', '--from-table', 'person', '--database', folder, '--schema', 'clash', '--root', root]);
    expect(fixed.err).toEqual([]);
    expect(fixed.exitCode).toBe(0);
    const individual = await readFile(join(root, RESOURCES, 'individual.ts'), 'utf8');
    expect(individual).toContain('export default class IndividualResource extends Resource {');
    expect(individual).toContain("static override table = 'person';");

    const again = await runPanelApi(init);
    expect(again.err).toEqual([]);
    expect(again.exitCode).toBe(0);
    expect(again.out).toContain(`kept     ${RESOURCES}/individual.ts (exists; init never overwrites a resource)`);
    expect(again.out).toContain(`create   ${RESOURCES}/person.ts`);
    expect(await readFile(join(root, RESOURCES, 'person.ts'), 'utf8')).toContain("static override table = 'people';");
    expect(await readFile(join(root, RESOURCES, 'message.ts'), 'utf8')).toContain("field.belongsTo('sender', { resource: 'Individual' })");
    expect((await runPanelApi(['init', '--check', '--from-database', folder, '--schema', 'clash', '--root', root])).out).toEqual(['Up to date: every resource written by init matches its table.']);
  });

  it('three tables that infer one resource name: the fix names all but one', async () => {
    const root = await apps.empty();
    const refused = await runPanelApi(['init', '--from-database', folder, '--schema', 'clash3', '--root', root]);
    expect(refused.exitCode).toBe(1);
    expect(refused.err).toEqual([
      'Nothing written: the tables "Person" and "people" and "person" would all be the resource Person. Fix: write all but one of them under another name first (panel-api resource <AnotherName> --from-table Person, with the same --database and --schema), then run init again; it keeps that name.',
    ]);
    expect(await filesUnder(root)).toEqual([]);
  });
});
