// PGlite is one process at a time. A token command on the PGlite folder a running server holds
// must not open it (two processes on one folder corrupt it): it goes through the Unix socket the
// holder serves the database on, named in the folder's lock file. The holder is a real second
// Node process opening the folder with openDatabase, as the app's server does.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, runMigrations, runPanelMigrations } from '@panel/core';
import { apiTokensSchemaV1 } from '@panel/api-tokens';
import { IN_REPO_TMP_PARENT, tempApps } from './support/temp-apps.js';
import { holdPgliteFolder, panelApiInFolder } from './support/app-folder-runs.js';


const apps = tempApps(IN_REPO_TMP_PARENT);
afterAll(() => apps.removeAll());

/** `panel-api …args` in the app's folder, as a user runs it: exit code and output. */
const panelApi = (root: string, args: readonly string[]) => panelApiInFolder(root, args, ['DATABASE_URL', 'PGLITE_DATA_DIR', 'PANEL_API_TOKEN_PEPPER']);
const holder = holdPgliteFolder;

describe('panel-api token commands on a PGlite folder another process holds', { timeout: 180_000 }, () => {
  let root: string;
  let dataDir: string;

  beforeAll(async () => {
    // The scaffolder's layout: PGlite in data/pglite, migrated; the pepper in .env.
    root = await apps.copy('blog-resources');
    dataDir = join(root, 'data', 'pglite');
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(root, '.env'), 'PANEL_API_TOKEN_PEPPER=a-lock-test-pepper-of-at-least-32-characters\n');
    const database = await openDatabase({ dataDir });
    await runPanelMigrations(database);
    await runMigrations(database, { '0001-create-panel-api-tokens': apiTokensSchemaV1 });
    await database.close();
  }, 60_000);

  it('"While the app runs on PGlite, the CLI reaches the app\'s database through the running process": token create, token list and default-permissions show run through the socket the holder serves, and the token is in the folder once the holder closed it', async () => {
    const server = await holder(dataDir);
    try {
      const created = await panelApi(root, ['token', 'create', '--name', 'ci', '--grant', 'blog_posts:index']);
      expect(created.exitCode, created.stderr).toBe(0);
      expect(created.stdout).toMatch(/^pat_\S+\n$/);
      const listed = await panelApi(root, ['token', 'list']);
      expect(listed.exitCode, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(/^1\s+ci\s+Active/m);
      const shown = await panelApi(root, ['default-permissions', 'show']);
      expect(shown.exitCode, shown.stderr).toBe(0);
    } finally {
      await server.send('close');
    }
    const listed = await panelApi(root, ['token', 'list']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^1\s+ci\s+Active/m);
  });

  it('a lock left by a killed server (its pid no longer runs) is taken over: the command runs', async () => {
    const server = await holder(dataDir);
    await server.send('crash');
    const listed = await panelApi(root, ['token', 'list']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^1\s+ci\s+Active/m);
  });
});
