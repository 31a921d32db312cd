// Issue 46, item 1: `panel-api init --from-database` on a schema we did not design (the Chinook
// sample database, MIT, with our extras.sql for what it lacks), then the generated app served
// over real HTTP: list, show and create for each served table, belongs_to labels and has_many
// counts from the foreign keys. PostgreSQL (a schema of its own on the test server).
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { createPanel, openDatabase, type PanelDatabase } from '@panel/core';
import { mountPanelApi } from '@panel/api';
import { createTestSchema, testDatabaseKinds, type TestSchema } from '@panel/test-support';
import { runPanelApi } from './support/run-panel-api.js';
import { FIXTURES_DIR, IN_REPO_TMP_PARENT, tempApps } from './support/temp-apps.js';

const apps = tempApps(IN_REPO_TMP_PARENT);
const V1 = '/api/resources/v1';
const RESOURCES = 'app/panel/resources';

/** Chinook as shipped, less the lines that create and connect to a database of its own. */
function chinookSql(): string {
  const text = readFileSync(join(FIXTURES_DIR, 'chinook', 'Chinook_PostgreSql.sql'), 'utf8');
  return text.replace(/^DROP DATABASE IF EXISTS chinook;$/m, '').replace(/^CREATE DATABASE chinook;$/m, '').replace(/^\\c chinook;$/m, '');
}

/** A new record of each served table (keys the client writes where the table has no default). */
const NEW_RECORDS: Record<string, Record<string, unknown>> = {
  artists: { artist_id: 9001, name: 'New Artist' },
  albums: { album_id: 9001, title: 'New Album', artist_id: 9001 },
  genres: { genre_id: 9001, name: 'New Genre' },
  media_types: { media_type_id: 9001, name: 'New Media' },
  playlists: { playlist_id: 9001, name: 'New Playlist' },
  tracks: { track_id: 9001, name: 'New Track', album_id: 9001, media_type_id: 9001, genre_id: 9001, milliseconds: 1000, unit_price: 0.99 },
  employees: { employee_id: 9001, last_name: 'Nordmann', first_name: 'Kari' },
  customers: { customer_id: 9001, first_name: 'Ola', last_name: 'Nordmann', email: 'ola@example.com', support_rep_id: 9001 },
  invoices: { invoice_id: 9001, customer_id: 9001, invoice_date: '2026-01-01T00:00:00.000Z', total: 1.98 },
  invoice_lines: { invoice_line_id: 9001, invoice_id: 9001, track_id: 9001, unit_price: 0.99, quantity: 2 },
  reviews: { album_id: 9001, mood: 'liked', keywords: ['new'], extra: { source: 'test' } },
  countries: { country_code: 'SE', name: 'Sweden' },
};

const kinds = testDatabaseKinds();
describe.skipIf(!kinds.includes('postgres'))('panel-api init --from-database on the Chinook sample database [postgres]', () => {
  let schema: TestSchema;
  let root: string;
  let database: PanelDatabase;
  let app: FastifyInstance;
  let init: Awaited<ReturnType<typeof runPanelApi>>;
  const get = (url: string) => app.inject({ method: 'GET', url: `${V1}${url}` });

  beforeAll(async () => {
    schema = await createTestSchema();
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    try {
      await client.query(`set search_path to ${schema.schema}`);
      await client.query(chinookSql());
      await client.query(readFileSync(join(FIXTURES_DIR, 'chinook', 'extras.sql'), 'utf8'));
    } finally {
      await client.end();
    }
    root = await apps.empty();
    // The app's author opens the API (the generated base controller is closed until then): init keeps this one.
    await mkdir(join(root, 'app/controllers/panel/api/resources/v1'), { recursive: true });
    await writeFile(
      join(root, 'app/controllers/panel/api/resources/v1/base-resources-controller.ts'),
      "import { ResourcesController } from '@panel/api';\n\nexport class BaseResourcesController extends ResourcesController {\n  override async setupAuthentication(): Promise<void> {}\n}\n",
    );
    init = await runPanelApi(['init', '--from-database', schema.url, '--schema', schema.schema, '--root', root]);
    database = await openDatabase({ url: schema.url, schema: schema.schema, maxConnections: 2 });
    const panel = await createPanel({ database, appRoot: root });
    app = Fastify({ logger: false });
    await app.register(mountPanelApi, { panel });
    await app.ready();
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await schema?.drop();
    await apps.removeAll();
  });

  it('"one resource file per table … composite-key tables and views listed as not served, with the reason", then the controllers and the OpenAPI document', async () => {
    expect(init.err).toEqual([]);
    expect(init.exitCode).toBe(0);
    const report = init.out.join('\n');
    for (const table of ['album', 'artist', 'customer', 'employee', 'genre', 'invoice', 'invoice_line', 'media_type', 'playlist', 'track', 'review', 'country', 'app_user']) {
      expect(report, table).toMatch(new RegExp(`create   ${RESOURCES}/${table}\\.ts`));
    }
    expect(report).toMatch(/not served {2}playlist_track: a composite primary key \(playlist_id, track_id\)/);
    expect(report).toMatch(/not served {2}album_summary: a view/);
    expect(report).toMatch(/not served {2}play_log: no primary key/);
    expect(report).toMatch(/Wrote .*openapi\/v1\.json\./);
    const review = await readFile(join(root, RESOURCES, 'review.ts'), 'utf8');
    expect(review).toContain("static override primaryKeyType = 'uuid';");
    expect(review).toContain("field.select('mood', { required: true, options: [\"loved\",\"liked\",\"disliked\"] })");
    expect(review).toContain("field.tags('keywords')");
    expect(review).toContain("field.keyValue('extra')");
    expect(review).toContain("field.textarea('body')");
    expect(review).toContain("field.id('review_id')");
    const track = await readFile(join(root, RESOURCES, 'track.ts'), 'utf8');
    expect(track).toContain("field.decimal('unit_price', { required: true })");
    expect(track).toContain("field.belongsTo('album', { resource: 'Album' })");
    expect(track).toContain("field.hasMany('invoice_lines', { resource: 'InvoiceLine', foreignKey: 'track_id' })");
    const user = await readFile(join(root, RESOURCES, 'app_user.ts'), 'utf8');
    // "password/secret-like columns hidden by default"
    expect(user).not.toMatch(/field\.\w+\('password_digest'/);
    expect(user).not.toMatch(/field\.\w+\('api_token'/);
    expect(user).toContain('// password_digest: left out, looks like a secret');
    expect(user).toContain("static override primaryKeyType = 'bigint';");
    // "a PostgreSQL int8 column maps to field.bigint": a value past 2^53 is answered, not refused.
    expect(user).toContain("field.bigint('storage_bytes')");
    expect(user).toContain("field.belongsTo('invited_by', { resource: 'AppUser' })");
    const document = JSON.parse(await readFile(join(root, 'openapi/v1.json'), 'utf8')) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toContain(`${V1}/reviews/{id}`);
  });

  it('the generated app answers list, show and create for each served table, with belongs_to labels and has_many counts', async () => {
    for (const [routeKey, body] of Object.entries(NEW_RECORDS)) {
      const list = await get(`/${routeKey}?per_page=2`);
      expect(list.statusCode, `${routeKey}: ${list.body}`).toBe(200);
      const first = (list.json().records as Record<string, unknown>[])[0];
      if (first) {
        const key = Object.keys(first)[0]!;
        expect((await get(`/${routeKey}/${encodeURIComponent(String(first[key]))}`)).statusCode, routeKey).toBe(200);
      }
      const singular = routeKey === 'countries' ? 'country' : routeKey.replace(/s$/, '');
      const created = await app.inject({ method: 'POST', url: `${V1}/${routeKey}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ [singular]: body }) });
      expect(created.statusCode, `${routeKey}: ${created.body}`).toBe(201);
    }
    // belongs_to labels (the target's name / title) and has_many counts, from the foreign keys.
    const album = (await get('/albums/1')).json().record;
    expect(album).toMatchObject({ album_id: 1, title: 'For Those About To Rock We Salute You', artist: { id: 1, label: 'AC/DC' }, tracks: { count: 10 } });
    expect((await get('/artists/1')).json().record.albums).toEqual({ count: 2 });
    expect((await get('/tracks/1')).json().record).toMatchObject({ album: { id: 1, label: 'For Those About To Rock We Salute You' }, genre: { id: 1, label: 'Rock' }, media_type: { id: 1, label: 'MPEG audio file' } });
    expect((await get('/customers/1')).json().record.support_rep).toMatchObject({ id: 3 });
    expect((await get('/countries/BR')).json().record).toMatchObject({ country_code: 'BR', name: 'Brazil' });
    // An int8 value past 2^53 (9007199254740993 is not a JSON number) is answered as its exact digits.
    const first = await get('/app_users/1');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().record).toMatchObject({ id: '1', storage_bytes: '9007199254740993' });
    expect((await get('/app_users/2')).json().record).toMatchObject({ invited_by: { id: '1', label: 'first@example.com' } });
    expect((await get('/albums/9001')).json().record).toMatchObject({ artist: { id: 9001, label: 'New Artist' }, tracks: { count: 1 }, reviews: { count: 1 } });
  });

  it('"never clobber an edited resource; --check reports drift (column added/gone/type changed)"', async () => {
    const file = join(root, RESOURCES, 'genre.ts');
    const edited = `${await readFile(file, 'utf8')}// edited by hand\n`;
    await writeFile(file, edited);
    const again = await runPanelApi(['init', '--from-database', schema.url, '--schema', schema.schema, '--root', root]);
    expect(again.exitCode).toBe(0);
    expect(again.out.join('\n')).toContain(`kept     ${RESOURCES}/genre.ts (exists; init never overwrites a resource)`);
    expect(await readFile(file, 'utf8')).toBe(edited);
    expect((await runPanelApi(['init', '--check', '--from-database', schema.url, '--schema', schema.schema, '--root', root])).exitCode).toBe(0);

    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    try {
      await client.query(`set search_path to ${schema.schema}`);
      await client.query('alter table genre add column description text');
      await client.query('alter table media_type drop column name');
      await client.query('alter table playlist alter column name type integer using 0');
    } finally {
      await client.end();
    }
    const check = await runPanelApi(['init', '--check', '--from-database', schema.url, '--schema', schema.schema, '--root', root]);
    expect(check.exitCode).toBe(1);
    const lines = check.out.join('\n');
    expect(lines).toMatch(/column added {3}genre\.description \(genre\.ts\): text → textarea/);
    expect(lines).toMatch(/column gone {4}media_type\.name \(media_type\.ts\)/);
    expect(lines).toMatch(/type changed {3}playlist\.name \(playlist\.ts\): now integer → integer/);
  });
});
