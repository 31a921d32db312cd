// `panel-api init --from-database` on columns the framework cannot write as plain fields: names
// that are not field names, generated columns, JSON that is not a flat object. The generated app
// is then served in process, so a column mapped wrongly shows as a boot failure or a 500. PGlite.
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { createPanel, openDatabase, type PanelDatabase } from '@panel/core';
import { mountPanelApi } from '@panel/api';
import { runPanelApi, type PanelApiRun } from './support/run-panel-api.js';
import { IN_REPO_TMP_PARENT, tempApps } from './support/temp-apps.js';

const apps = tempApps(IN_REPO_TMP_PARENT);
const RESOURCES = 'app/panel/resources';
const V1 = '/api/resources/v1';

const SCHEMA = [
  `create table odd (id serial primary key, plain text, "naïve" text, "名前" text, "col with space" text, "123abc" int)`,
  `create table person (id serial primary key, first_name text not null, full_name text generated always as ('Dr ' || first_name) stored, ticket int generated always as identity)`,
  `insert into odd (plain, "naïve") values ('a', 'b')`,
  `insert into person (first_name) values ('Ada')`,
  `create table doc (id serial primary key, list_j json, nested_jb jsonb, flat_jb jsonb, object_j json, empty_jb jsonb)`,
  `insert into doc (list_j, nested_jb, flat_jb, object_j) values ('[1, 2]', '{"a": {"b": 1}, "c": [1, "x"]}', '{"k": "v"}', '{"x": {"y": 2}}')`,
  `insert into doc (list_j, nested_jb, flat_jb, object_j) values ('{"a": 1}', '{"d": null}', '{"l": "w"}', '{}')`,
];

describe('panel-api init --from-database on columns that are not plain fields', () => {
  let root: string;
  let database: PanelDatabase;
  let app: FastifyInstance;
  let init: PanelApiRun;
  const post = (url: string, body: unknown) => app.inject({ method: 'POST', url: `${V1}${url}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });

  beforeAll(async () => {
    root = await apps.empty();
    const folder = join(root, 'data', 'pglite');
    const setup = await openDatabase({ dataDir: folder });
    try {
      for (const statement of SCHEMA) await sql.raw(statement).execute(setup.db);
    } finally {
      await setup.close();
    }
    await mkdir(join(root, 'app/controllers/panel/api/resources/v1'), { recursive: true });
    await writeFile(
      join(root, 'app/controllers/panel/api/resources/v1/base-resources-controller.ts'),
      "import { ResourcesController } from '@panel/api';\n\nexport class BaseResourcesController extends ResourcesController {\n  override async setupAuthentication(): Promise<void> {}\n}\n",
    );
    init = await runPanelApi(['init', '--from-database', folder, '--root', root]);
    database = await openDatabase({ dataDir: folder });
    const panel = await createPanel({ database, appRoot: root });
    app = Fastify({ logger: false });
    await app.register(mountPanelApi, { panel });
    await app.ready();
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await apps.removeAll();
  });

  it('init succeeds, the OpenAPI document included: the app it writes loads', () => {
    expect(init.err).toEqual([]);
    expect(init.exitCode).toBe(0);
  });

  it('"columns whose names are not valid field identifiers: left out, with the reason in the generated comment"', async () => {
    const odd = await readFile(join(root, RESOURCES, 'odd.ts'), 'utf8');
    expect(odd).toContain("field.text('plain')");
    for (const column of ['naïve', '名前', 'col with space', '123abc']) {
      expect(odd).not.toContain(`'${column}'`);
      expect(odd).toContain(`// ${column}: left out, its name is not a field name (a letter or _, then letters, digits or _): rename the column, or declare a field of your own with the column option.`);
    }
    const list = await app.inject({ method: 'GET', url: `${V1}/odds` });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().records[0]).toMatchObject({ id: 1, plain: 'a' });
  });

  it('"a generated column … left out of writes": a read-only field, answered, never written', async () => {
    const person = await readFile(join(root, RESOURCES, 'person.ts'), 'utf8');
    expect(person).toContain("field.text('full_name', { readonly: true })");
    expect(person).toContain("field.integer('ticket', { readonly: true })");
    const created = await post('/people', { person: { first_name: 'Grace' } });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().record).toMatchObject({ first_name: 'Grace', full_name: 'Dr Grace', ticket: 2 });
    const id = created.json().record.id as number;
    const updated = await app.inject({ method: 'PATCH', url: `${V1}/people/${id}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ person: { first_name: 'Hopper', full_name: 'x', ticket: 9 } }) });
    expect(updated.statusCode, updated.body).not.toBe(500);
    expect((await app.inject({ method: 'GET', url: `${V1}/people/${id}` })).json().record).toMatchObject({ full_name: expect.stringMatching(/^Dr /), ticket: 2 });
  });

  it('"a mapping that round-trips real data": JSON columns by what they hold, arrays left out with the reason', async () => {
    const doc = await readFile(join(root, RESOURCES, 'doc.ts'), 'utf8');
    expect(doc).toContain("field.json('nested_jb')");
    expect(doc).toContain("field.keyValue('flat_jb')");
    expect(doc).toContain("field.json('object_j')");
    expect(doc).toContain("field.json('empty_jb')");
    expect(doc).not.toContain("'list_j'");
    expect(doc).toContain('// list_j: left out, json holding arrays or scalars, which no field type holds (field.json and field.keyValue take objects).');
    const first = await app.inject({ method: 'GET', url: `${V1}/docs/1` });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().record).toMatchObject({ nested_jb: { a: { b: 1 }, c: [1, 'x'] }, flat_jb: { k: 'v' }, object_j: { x: { y: 2 } }, empty_jb: null });
    const list = await app.inject({ method: 'GET', url: `${V1}/docs` });
    expect(list.statusCode, list.body).toBe(200);
    const created = await post('/docs', { doc: { nested_jb: { deep: { er: [true] } }, object_j: { n: { m: 'o' } } } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().record.id as number;
    expect((await app.inject({ method: 'GET', url: `${V1}/docs/${id}` })).json().record).toMatchObject({ nested_jb: { deep: { er: [true] } }, object_j: { n: { m: 'o' } } });
  });
});
