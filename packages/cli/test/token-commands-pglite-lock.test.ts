// PGlite is one process at a time. A token command on the PGlite folder a running server holds
// must not open it (two processes on one folder corrupt it): it goes through the Unix socket the
// holder serves the database on, named in the folder's lock file. The holder is a real second
// Node process opening the folder with openDatabase, as the app's server does.
import { execFile, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, runMigrations, runPanelMigrations } from '@panel/core';
import { apiTokensSchemaV1 } from '@panel/api-tokens';
import { IN_REPO_TMP_PARENT, tempApps } from './support/temp-apps.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(REPO_ROOT, 'packages/cli/bin/panel-api.js');
// The same holder as @panel/core's lock test: a process that opens the folder and waits for "close", "exit" or "crash".
const HOLDER = join(REPO_ROOT, 'packages/core/test/support/hold-pglite-folder.ts');

const apps = tempApps(IN_REPO_TMP_PARENT);
afterAll(() => apps.removeAll());

/** `panel-api …args` in the app's folder, as a user runs it: exit code and output. */
function panelApi(root: string, args: readonly string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'PGLITE_DATA_DIR', 'PANEL_API_TOKEN_PEPPER']) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: root, env }, (error, stdout, stderr) => {
      resolve({ exitCode: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** A second Node process holding `dataDir` through openDatabase, as a running server does. */
async function holder(dataDir: string): Promise<{ pid: number; send(line: 'close' | 'crash'): Promise<void> }> {
  const child = spawn(process.execPath, ['--conditions=@panel/source', '--import', 'tsx', HOLDER, dataDir], { stdio: 'pipe' });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = String((await lines.next()).value ?? '');
  if (!first.startsWith('held ')) throw new Error(`the holder did not start: ${first}`);
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: Number(first.slice('held '.length)),
    async send(line) {
      child.stdin.write(`${line}\n`);
      await ended;
    },
  };
}

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
