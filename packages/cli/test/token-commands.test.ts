import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, runMigrations, runPanelMigrations, type PanelDatabase } from '@panel/core';
import { ApiTokenService, apiTokensSchemaV1 } from '@panel/api-tokens';
import { testDatabaseKinds, testDatabaseUrl } from '@panel/test-support';
import { runPanelApi } from './support/run-panel-api.js';
import { IN_REPO_TMP_PARENT, tempApps } from './support/temp-apps.js';

// Issue 31, item 7: "Edition B from the command line: panel-api token create --name ci --grant
// books:index,books:show [--expires 30d] (prints the secret once), token list, token revoke,
// grants set, default-permissions set — for scripts, CI and first setup, using the same service
// and rules as the panel screens". The real bin, spawned in a real app folder (its database named
// by the app's .env, as a shell user runs it); the other checks run the same CLI in process, the
// database named by --pglite-dir or --database-url.

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(REPO_ROOT, 'packages/cli/bin/panel-api.js');
const PEPPER = 'a-cli-test-pepper-of-at-least-32-characters';
const KNOWN = 'Known resources: blog_posts, product_categories, users.';

const apps = tempApps(IN_REPO_TMP_PARENT);
afterAll(() => apps.removeAll());

/** The environment of a shell with none of the app's variables set (they come from its .env). */
function shellEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'PGLITE_DATA_DIR', 'PANEL_API_TOKEN_PEPPER']) delete env[name];
  return env;
}

function panelApi(root: string, args: readonly string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: root, env: shellEnv() }, (error, stdout, stderr) => {
      resolve({ exitCode: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Creates an empty PostgreSQL database of its own, and how to drop it. */
async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = testDatabaseUrl();
  const name = `panel_cli_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: server });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

async function migrate(database: PanelDatabase): Promise<void> {
  await runPanelMigrations(database);
  await runMigrations(database, { '0001-create-panel-api-tokens': apiTokensSchemaV1 });
}

// Each step spawns the CLI or opens PGlite (initdb on a new folder): minutes on a loaded machine.
describe.each(testDatabaseKinds())('panel-api token commands on %s', { timeout: 180_000 }, (kind) => {
  let root: string;
  let openAppDatabase: () => Promise<PanelDatabase>;
  let dropDatabase = async () => {};
  let databaseFlag: string[];

  /** \`panel-api …args --root <app> <database flag>\` in process: its exit code and what it printed, as the bin prints it. */
  async function inProcess(args: readonly string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
    const run = await runPanelApi([...args, '--root', root, ...databaseFlag]);
    const text = (lines: readonly string[]) => lines.map((line) => `${line}\n`).join('');
    return { exitCode: run.exitCode, stdout: text(run.out), stderr: text(run.err) };
  }

  /** Runs `work` with the token service on the app's database, as the app's mount builds it; closed after (PGlite is one process at a time). */
  async function withService<T>(work: (tokens: ApiTokenService) => Promise<T>): Promise<T> {
    const database = await openAppDatabase();
    try {
      return await work(new ApiTokenService({ database, pepper: PEPPER, env: {} }));
    } finally {
      await database.close();
    }
  }

  beforeAll(async () => {
    root = await apps.copy('blog-resources');
    if (kind === 'pglite') {
      // The scaffolder's layout: the PGlite folder data/pglite, the pepper in .env.
      const dataDir = join(root, 'data', 'pglite');
      await mkdir(dataDir, { recursive: true });
      await writeFile(join(root, '.env'), `PANEL_API_TOKEN_PEPPER=${PEPPER}\n`);
      openAppDatabase = () => openDatabase({ dataDir });
      databaseFlag = ['--pglite-dir', 'data/pglite'];
    } else {
      // DATABASE_URL in .env; the pepper from the app's initializer (the app's own secret source).
      const created = await createPostgresDatabase();
      dropDatabase = created.drop;
      await writeFile(join(root, '.env'), `DATABASE_URL=${created.url}\n`);
      await writeFile(join(root, 'app/panel/initializer.ts'), `import { configurePanelApi } from '@panel/api-tokens';\n\nexport const panelApi = configurePanelApi({ pepper: () => '${PEPPER}' });\n`);
      openAppDatabase = () => openDatabase({ url: created.url, maxConnections: 2 });
      databaseFlag = ['--database-url', created.url];
    }
  }, 60_000);
  afterAll(() => dropDatabase(), 60_000);

  let ciId: number;

  it('on a database whose token tables were never migrated: one line naming panel-api install and the migrations', async () => {
    const run = await inProcess(['token', 'list']);
    expect(run).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: "The database has no API token tables: their migration has not run on it. Fix: npx panel-api install writes the migration (Edition B); run the app's migrations (start the app once), then run this again.\n",
    });
    const database = await openAppDatabase();
    await migrate(database);
    await database.close();
  });

  it('token create prints the secret alone on standard output, once, and the token authenticates with exactly its grants and expiry', async () => {
    const before = Date.now();
    const run = await panelApi(root, ['token', 'create', '--name', 'ci', '--grant', 'blog_posts:index,blog_posts:show', '--expires', '30d']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^pat_\S+\n$/);
    expect(run.stderr).toMatch(/^✓ Created API token (\d+) "ci" \(expires \S+Z; grants blog_posts:index, blog_posts:show\)\. Its secret, shown this once:\n$/);
    const secret = run.stdout.trim();
    const token = await withService((tokens) => tokens.authenticate(secret));
    expect(token?.name).toBe('ci');
    expect(token?.allows('blog_posts', 'index')).toBe(true);
    expect(token?.allows('blog_posts', 'show')).toBe(true);
    expect(token?.allows('blog_posts', 'create')).toBe(false);
    ciId = token!.id;
    const stored = await withService((tokens) => tokens.find(ciId));
    const thirtyDays = 30 * 86_400_000;
    expect(stored.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + thirtyDays);
    expect(stored.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + thirtyDays);
    // The secret is never printed again: the list shows none.
    const list = await inProcess(['token', 'list']);
    expect(list.stdout).not.toContain(secret);
  });

  it('refuses a grant on a resource the app does not define, as the panel does, and writes no token', async () => {
    const run = await inProcess(['token', 'create', '--name', 'typo', '--grant', 'books:index']);
    expect(run).toEqual({ exitCode: 1, stdout: '', stderr: `A grant names the resource "books", which the panel does not define. ${KNOWN}\n` });
    const badVerb = await inProcess(['token', 'create', '--name', 'typo', '--grant', 'blog_posts:read']);
    expect(badVerb.exitCode).toBe(1);
    expect(badVerb.stderr).toBe('A grant must read "<route_key>:<verb>" with a verb among index, show, create, update, destroy, instead got "blog_posts:read".\n');
    const blank = await inProcess(['token', 'create', '--name', '  ']);
    expect(blank).toEqual({ exitCode: 1, stdout: '', stderr: "Validation failed: name can't be blank\n" });
    const past = await inProcess(['token', 'create', '--name', 'old', '--expires', '2020-01-01']);
    expect(past.exitCode).toBe(1);
    expect(past.stderr).toBe('--expires must be in the future, instead got "2020-01-01" (2020-01-01T00:00:00.000Z).\n');
    expect((await withService((tokens) => tokens.list())).map((t) => t.name)).toEqual(['ci']);
  });

  it('token list prints every token with its status, expiry, last use and grants', async () => {
    const run = await panelApi(root, ['token', 'list']);
    expect(run.exitCode).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+STATUS\s+EXPIRES\s+LAST USED\s+GRANTS$/);
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toMatch(new RegExp(`^${ciId}\\s+ci\\s+Active\\s+\\d{4}-\\d{2}-\\d{2}T\\S+Z\\s+\\S+\\s+blog_posts:index, blog_posts:show$`));
    const json = JSON.parse((await inProcess(['token', 'list', '--json'])).stdout);
    expect(json).toEqual([expect.objectContaining({ id: ciId, name: 'ci', status: 'Active', grants: ['blog_posts:index', 'blog_posts:show'] })]);
  });

  it('grants set replaces the grants of a token', async () => {
    const run = await inProcess(['grants', 'set', String(ciId), '--grant', 'users:index', '--grant', 'blog_posts:update']);
    expect(run).toEqual({ exitCode: 0, stdout: `✓ Grants of API token ${ciId} "ci": blog_posts:update, users:index\n`, stderr: '' });
    expect((await withService((tokens) => tokens.find(ciId))).grants).toEqual([
      { resource: 'blog_posts', verb: 'update' },
      { resource: 'users', verb: 'index' },
    ]);
  });

  it('default-permissions set takes index and show only ("writes always need a Bearer token")', async () => {
    const write = await inProcess(['default-permissions', 'set', '--grant', 'blog_posts:index,blog_posts:create']);
    expect(write).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'The default permissions list may grant only index and show, instead got "blog_posts:create": writes always need a Bearer token.\n',
    });
    const run = await inProcess(['default-permissions', 'set', '--grant', 'blog_posts:index,blog_posts:show']);
    expect(run).toEqual({ exitCode: 0, stdout: '✓ Default permissions: blog_posts:index, blog_posts:show\n', stderr: '' });
    expect(await withService((tokens) => tokens.defaultPermissions())).toEqual([
      { resource: 'blog_posts', verb: 'index' },
      { resource: 'blog_posts', verb: 'show' },
    ]);
    expect((await inProcess(['default-permissions', 'show'])).stdout).toBe('Default permissions: blog_posts:index, blog_posts:show\n');
  });

  it('token revoke revokes for good: the secret no longer authenticates and the grants cannot change', async () => {
    const created = await inProcess(['token', 'create', '--name', 'leaked', '--grant', 'users:show']);
    const secret = created.stdout.trim();
    const id = (await withService((tokens) => tokens.authenticate(secret)))!.id;
    const run = await panelApi(root, ['token', 'revoke', String(id)]);
    expect(run).toEqual({ exitCode: 0, stdout: `✓ Revoked API token ${id} "leaked"\n`, stderr: '' });
    expect(await withService((tokens) => tokens.authenticate(secret))).toBeUndefined();
    const grants = await inProcess(['grants', 'set', String(id), '--grant', 'users:index']);
    expect(grants).toEqual({ exitCode: 1, stdout: '', stderr: `API token ${id} is revoked; its grants can no longer change.\n` });
    const unknown = await inProcess(['token', 'revoke', '999999']);
    expect(unknown).toEqual({ exitCode: 1, stdout: '', stderr: 'No API token with id 999999.\n' });
  });
});

describe('panel-api token commands when the database is not there', { timeout: 120_000 }, () => {
  it('an app with no DATABASE_URL and no PGlite folder: one line naming the ways to name one', async () => {
    const root = await apps.copy('blog-resources');
    const run = await panelApi(root, ['token', 'list']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(
      `No database found for the app in ${root}: DATABASE_URL is not set (in the environment or .env), and there is no PGlite folder data/pglite. ` +
        'Fix: set DATABASE_URL=postgres://…, or pass --pglite-dir <folder> (the dataDir your server gives openDatabase), or start the app once to create its database.\n',
    );
  });

  it('a --pglite-dir that does not exist: one line, and no database is created', async () => {
    const root = await apps.copy('blog-resources');
    const run = await runPanelApi(['token', 'list', '--root', root, '--pglite-dir', 'other-data']);
    expect(run).toEqual({ exitCode: 1, out: [], err: [ `No PGlite folder at ${join(root, 'other-data')} (--pglite-dir). Fix: name the folder your server gives openDatabase as dataDir, or start the app once to create it.`] });
    expect(existsSync(join(root, 'other-data'))).toBe(false);
  });

  it.runIf(testDatabaseKinds().includes('postgres'))('a DATABASE_URL naming a missing database: one line with createdb', async () => {
    const root = await apps.copy('blog-resources');
    const url = new URL(testDatabaseUrl());
    url.pathname = '/panel_cli_missing_database';
    const run = await runPanelApi(['token', 'list', '--root', root, '--database-url', url.toString()]);
    expect(run.exitCode).toBe(1);
    expect(run.err).toHaveLength(1);
    expect(run.err[0]).toMatch(/^Database "panel_cli_missing_database" does not exist on the PostgreSQL server DATABASE_URL names\. Fix: createdb panel_cli_missing_database /);
  });
});
