// `panel-api install` (spec "Setup, Edition B", step 2): "It copies a migration creating the tables
// `panel_api_tokens` and `panel_api_permission_grants`, and appends a `Panel::Api.configure` block to
// the framework's initializer. The block carries the `manage_tokens_if` gate and the pepper instructions."
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runMigrations, type Migration } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { ApiTokenService, mayManageTokens, TOKEN_DIGEST_INDEX, type PanelApiTokensConfig } from '@panel/api-tokens';
import { listFiles } from './support/list-files.js';
import { runPanelApi } from './support/run-panel-api.js';
import { typecheckApp } from './support/run-tsc.js';
import { IN_REPO_TMP_PARENT, tempApps } from './support/temp-apps.js';

const apps = tempApps(IN_REPO_TMP_PARENT);
afterAll(() => apps.removeAll());

const REGISTRY = `import type { Migration } from '@panel/core';
import * as createTables from './migrations/0001-create-tables.js';

export const migrations: Record<string, Migration> = {
  '0001-create-tables': createTables,
};
`;
const FIRST_MIGRATION = `import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('users').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('admin', 'boolean').execute();
}
`;
const INITIALIZER = `import type { PanelConfigInput } from '@panel/core';

/** The app's panel options. */
export const panelOptions: PanelConfigInput = { perPage: 20 };
`;

/** An app as the outside guide builds it: numbered migrations registered in db/migrations.ts, and a panel initializer. */
async function guideApp(): Promise<string> {
  const root = await apps.empty();
  await mkdir(join(root, 'db', 'migrations'), { recursive: true });
  await writeFile(join(root, 'db', 'migrations.ts'), REGISTRY);
  await writeFile(join(root, 'db', 'migrations', '0001-create-tables.ts'), FIRST_MIGRATION);
  await writeFile(join(root, 'app', 'panel', 'initializer.ts'), INITIALIZER);
  return root;
}

async function snapshot(root: string): Promise<Record<string, string>> {
  const files = await listFiles(root);
  return Object.fromEntries(await Promise.all(files.map(async (file) => [file, await readFile(join(root, file), 'utf8')] as const)));
}

describe('panel-api install', () => {
  it('writes the next numbered migration, registers it, and adds the configuration block with ts-morph, reporting each file', async () => {
    const root = await guideApp();
    const run = await runPanelApi(['install', '--root', root]);
    expect(run.err).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.out.slice(0, 3)).toEqual([
      '✓ Created db/migrations/0002-create-panel-api-tokens.ts',
      '✓ Updated db/migrations.ts',
      '✓ Updated app/panel/initializer.ts',
    ]);
    expect(run.out[3]).toBe('Next:');
    expect(await listFiles(root, 'db')).toEqual(['db/migrations.ts', 'db/migrations/0001-create-tables.ts', 'db/migrations/0002-create-panel-api-tokens.ts']);
    expect(await readFile(join(root, 'db', 'migrations.ts'), 'utf8')).toBe(`import type { Migration } from '@panel/core';
import * as createTables from './migrations/0001-create-tables.js';
import * as createPanelApiTokens from './migrations/0002-create-panel-api-tokens.js';

export const migrations: Record<string, Migration> = {
  '0001-create-tables': createTables,
  '0002-create-panel-api-tokens': createPanelApiTokens,
};
`);
    const initializer = await readFile(join(root, 'app', 'panel', 'initializer.ts'), 'utf8');
    expect(initializer.startsWith(`import type { PanelConfigInput } from '@panel/core';\nimport { configurePanelApi } from '@panel/api-tokens';\n\n/** The app's panel options. */\nexport const panelOptions`)).toBe(true);
    expect(initializer).toContain('PANEL_API_TOKEN_PEPPER');
    expect(initializer).toContain('Changing the pepper invalidates every existing token.');
    expect(initializer).toContain('export const panelApi = configurePanelApi({\n  // Who may manage API tokens');
    expect(initializer).toContain('  manageTokensIf: () => false,\n});\n');
  });

  it('"idempotent; a second run changes nothing": every file stays byte for byte, and it says what is installed', async () => {
    const root = await guideApp();
    expect((await runPanelApi(['install', '--root', root])).exitCode).toBe(0);
    const before = await snapshot(root);
    const again = await runPanelApi(['install', '--root', root]);
    expect(again.exitCode).toBe(0);
    expect(again.out).toEqual([
      '• Migration already installed  db/migrations/0002-create-panel-api-tokens.ts',
      '• Panel API configuration already installed  app/panel/initializer.ts',
    ]);
    expect(await snapshot(root)).toEqual(before);
  });

  it('--dry-run prints the plan and writes nothing', async () => {
    const root = await guideApp();
    const before = await snapshot(root);
    const run = await runPanelApi(['install', '--dry-run', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(run.out).toEqual([
      '+ Would create db/migrations/0002-create-panel-api-tokens.ts',
      '~ Would update db/migrations.ts',
      '~ Would update app/panel/initializer.ts',
      'Dry run: nothing was written.',
    ]);
    expect(await snapshot(root)).toEqual(before);
  });

  it('creates the initializer when the app has none, names a timestamped migration when the folder is not numbered, and says to register it', async () => {
    const root = await apps.empty();
    const run = await runPanelApi(['install', '--root', root]);
    expect(run.exitCode).toBe(0);
    const [migration] = await listFiles(root, 'db/migrations');
    expect(migration).toMatch(/^db\/migrations\/\d{14}-create-panel-api-tokens\.ts$/);
    expect(run.out[0]).toMatch(/^Note: there is no db\/migrations\.ts; add "\d{14}-create-panel-api-tokens" to the migrations your app passes to runMigrations\.$/);
    const initializer = await readFile(join(root, 'app', 'panel', 'initializer.ts'), 'utf8');
    expect(initializer.startsWith("import { configurePanelApi } from '@panel/api-tokens';\n\n/**\n * Panel API, Edition B")).toBe(true);
  });

  it('merges configurePanelApi into an existing import of @panel/api-tokens instead of adding a second one', async () => {
    const root = await guideApp();
    await writeFile(join(root, 'app', 'panel', 'initializer.ts'), `import { GRANT_VERBS } from '@panel/api-tokens';\n\nexport const verbs = GRANT_VERBS;\n`);
    expect((await runPanelApi(['install', '--root', root])).exitCode).toBe(0);
    const initializer = await readFile(join(root, 'app', 'panel', 'initializer.ts'), 'utf8');
    expect(initializer.startsWith(`import { GRANT_VERBS, configurePanelApi } from '@panel/api-tokens';\n`)).toBe(true);
    expect(initializer.match(/from '@panel\/api-tokens'/g)).toHaveLength(1);
  });

  it('refuses to shadow a declaration named panelApi, naming the file and line, and writes nothing', async () => {
    const root = await guideApp();
    await writeFile(join(root, 'app', 'panel', 'initializer.ts'), `export const x = 1;\nexport const panelApi = 'mine';\n`);
    const before = await snapshot(root);
    const run = await runPanelApi(['install', '--root', root]);
    expect(run.exitCode).toBe(1);
    expect(run.err).toEqual(['app/panel/initializer.ts:2: the name panelApi is taken, so the configuration block cannot be added. Fix: rename that declaration, or add export const panelApi = configurePanelApi({ manageTokensIf: () => false }) yourself.']);
    expect(await snapshot(root)).toEqual(before);
  });

  it('writes JavaScript with --js', async () => {
    const root = await apps.empty();
    expect((await runPanelApi(['install', '--js', '--root', root])).exitCode).toBe(0);
    const files = await listFiles(root);
    expect(files.filter((f) => f.endsWith('.js'))).toHaveLength(2);
    expect(files).toContain('app/panel/initializer.js');
  });

  it('the installed app typechecks under the strict tsconfig', async () => {
    const root = await guideApp();
    expect((await runPanelApi(['install', '--root', root])).exitCode).toBe(0);
    const tsc = await typecheckApp(root);
    expect(tsc.output).toBe('');
    expect(tsc.exitCode).toBe(0);
  });

  it('an app installed before the token digest index gets it as a migration of its own, registered, and a second run changes nothing', async () => {
    const root = await guideApp();
    expect((await runPanelApi(['install', '--root', root])).exitCode).toBe(0);
    // The migration as install wrote it before the index: version 1 of the schema alone.
    const older = `import type { Kysely } from 'kysely';\nimport { apiTokensSchemaV1 } from '@panel/api-tokens';\n\nexport async function up(db: Kysely<any>): Promise<void> {\n  await apiTokensSchemaV1.up(db);\n}\n`;
    await writeFile(join(root, 'db', 'migrations', '0002-create-panel-api-tokens.ts'), older);
    const run = await runPanelApi(['install', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(run.out.slice(0, 4)).toEqual([
      '• Migration already installed  db/migrations/0002-create-panel-api-tokens.ts',
      '• Panel API configuration already installed  app/panel/initializer.ts',
      '✓ Created db/migrations/0003-index-panel-api-token-digests.ts',
      '✓ Updated db/migrations.ts',
    ]);
    expect(await readFile(join(root, 'db', 'migrations', '0003-index-panel-api-token-digests.ts'), 'utf8')).toContain('await apiTokensSchemaV2.up(db);');
    expect(await readFile(join(root, 'db', 'migrations.ts'), 'utf8')).toContain("  '0003-index-panel-api-token-digests': indexPanelApiTokenDigests,\n");
    const before = await snapshot(root);
    const again = await runPanelApi(['install', '--root', root]);
    expect(again.out).toEqual([
      '• Migration already installed  db/migrations/0002-create-panel-api-tokens.ts',
      '• Migration already installed  db/migrations/0003-index-panel-api-token-digests.ts',
      '• Panel API configuration already installed  app/panel/initializer.ts',
    ]);
    expect(await snapshot(root)).toEqual(before);
  });

  for (const kind of testDatabaseKinds()) {
    it(`"Run the database migration": the installed migrations run and the token service works on them, and the block denies by default [${kind}]`, async () => {
      const root = await guideApp();
      expect((await runPanelApi(['install', '--root', root])).exitCode).toBe(0);
      const { migrations } = (await import(pathToFileURL(join(root, 'db', 'migrations.ts')).href)) as { migrations: Record<string, Migration> };
      const { panelApi } = (await import(pathToFileURL(join(root, 'app', 'panel', 'initializer.ts')).href)) as { panelApi: PanelApiTokensConfig };
      const database = await openTestDatabase(kind);
      try {
        expect(await runMigrations(database, migrations)).toEqual(['0001-create-tables', '0002-create-panel-api-tokens']);
        // The one migration a new install writes makes the token digest index too (apiTokensSchemaV2).
        const indexes = await database.db.selectFrom('pg_indexes' as never).select('indexname' as never).where('tablename' as never, '=', 'panel_api_tokens' as never).execute();
        expect(indexes.map((row) => (row as { indexname: string }).indexname)).toContain(TOKEN_DIGEST_INDEX);
        const tokens = new ApiTokenService({ database, pepper: 'x'.repeat(32) });
        const { secret } = await tokens.create({ name: 'installed', grants: ['books:index'] });
        expect((await tokens.authenticate(secret))?.allows('books', 'index')).toBe(true);
        expect(panelApi.edition).toBe('B');
        expect(await mayManageTokens(panelApi.manageTokensIf, { id: 1, admin: true })).toBe(false);
      } finally {
        await database.close();
      }
    });
  }
});
