// `panel-api init` on a column named `__proto__`: a field so named can never be read nor written
// through the API (JSON answers leave the key out, a body holding it is refused), so init leaves
// the column out with the reason, as it does for other unusable columns (docs/generators.md: "a
// column whose name is not a field name … left out, with the reason in the comment"). Columns
// named like other Object members (`constructor`, `toString`) are served. PGlite, the app served
// in process.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { createPanel, openDatabase, type PanelDatabase } from '@panel/core';
import { mountPanelApi } from '@panel/api';
import { runPanelApi, type PanelApiRun } from './support/run-panel-api.js';
import { IN_REPO_TMP_PARENT, tempApps } from './support/temp-apps.js';

const apps = tempApps(IN_REPO_TMP_PARENT);
const V1 = '/api/resources/v1';
const REASON = 'a field named __proto__ can never be read nor written through JSON (answers leave the key out, a body holding it is refused): rename the column';

describe('panel-api init on a column named __proto__', () => {
  let root: string;
  let database: PanelDatabase;
  let app: FastifyInstance | undefined;
  let init: PanelApiRun;

  beforeAll(async () => {
    root = await apps.empty();
    const folder = join(root, 'data', 'pglite');
    const setup = await openDatabase({ dataDir: folder });
    try {
      await sql`create table note (id serial primary key, title text, "__proto__" text, "constructor" text, "toString" text)`.execute(setup.db);
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
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await apps.removeAll();
  });

  it('"left out, with the reason": init lists the column and its reason, and the file names it in a comment', async () => {
    expect(init.err).toEqual([]);
    expect(init.exitCode).toBe(0);
    expect(init.out).toContain(`    __proto__: left out, ${REASON}`);
    const note = await readFile(join(root, 'app/panel/resources/note.ts'), 'utf8');
    expect(note).not.toContain("'__proto__'");
    expect(note).toContain(`// __proto__: left out, ${REASON}.`);
    expect(note).toContain("field.text('constructor')");
  });

  it('the app init wrote boots, and reads and writes the other columns, constructor and toString included', async () => {
    const panel = await createPanel({ database, appRoot: root });
    app = Fastify({ logger: false });
    await app.register(mountPanelApi, { panel });
    await app.ready();
    const created = await app.inject({ method: 'POST', url: `${V1}/notes`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ note: { title: 't', constructor: 'c', toString: 's' } }) });
    expect(created.statusCode, created.body).toBe(201);
    const read = await app.inject({ method: 'GET', url: `${V1}/notes` });
    expect(read.json().records[0]).toMatchObject({ title: 't', constructor: 'c', toString: 's' });
  });
});
