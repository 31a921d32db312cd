import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, runMigrations, runPanelMigrations } from '@panel/core';
import { apiTokensSchemaV1 } from '@panel/api-tokens';
import { guideBlocks, guideFiles } from './support/guide-blocks.js';
import { IN_REPO_TMP_PARENT, tempApps } from './support/temp-apps.js';

// docs/edition-b-tokens.md#from-the-command-line, run as written: each `npx panel-api …` block of
// the section in the guide's app (its own resource files, extracted from the guide), and what it
// prints compared with the block after it. Only the secret and the dates differ from run to run.

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(REPO_ROOT, 'packages/cli/bin/panel-api.js');

const apps = tempApps(IN_REPO_TMP_PARENT);
afterAll(() => apps.removeAll());

/** The section `## From the command line` of the page. */
async function section(): Promise<string> {
  const page = await readFile(join(REPO_ROOT, 'docs/edition-b-tokens.md'), 'utf8');
  const start = page.indexOf('## From the command line');
  expect(start).toBeGreaterThan(0);
  const end = page.indexOf('\n## ', start + 3);
  return page.slice(start, end);
}

/** What the page shows as a pattern: every date and the secret stand for any such value. */
function shownPattern(text: string): RegExp {
  const escaped = text.trimEnd().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/g, '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z').replace(/pat_\S+/g, 'pat_[0-9A-Za-z]+_[0-9A-Za-z]+_[0-9A-Za-z]+')}$`);
}

/** Runs `panel-api …args` in the app as a shell would: standard error, then standard output (the order the page shows them in). */
function run(root: string, args: readonly string[]): Promise<string> {
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'PGLITE_DATA_DIR', 'PANEL_API_TOKEN_PEPPER']) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: root, env }, (_error, stdout, stderr) => resolve(`${stderr}${stdout}`));
  });
}

describe('docs/edition-b-tokens.md, "From the command line", run as written', () => {
  let root: string;

  beforeAll(async () => {
    root = await apps.empty();
    const guide = guideBlocks(await readFile(join(REPO_ROOT, 'docs/getting-started-outside.md'), 'utf8'));
    for (const [path, code] of guideFiles(guide)) {
      if (!path.startsWith('app/panel/resources/')) continue;
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), code);
    }
    // The app after its first start: the PGlite folder the scaffolder uses, migrated; the pepper in .env.
    await writeFile(join(root, '.env'), 'PANEL_API_TOKEN_PEPPER=a-docs-test-pepper-of-at-least-32-characters\n');
    const dataDir = join(root, 'data', 'pglite');
    await mkdir(dataDir, { recursive: true });
    const database = await openDatabase({ dataDir });
    await runPanelMigrations(database);
    await runMigrations(database, { '0001-create-panel-api-tokens': apiTokensSchemaV1 });
    await database.close();
  }, 60_000);

  it('prints what the page shows, command after command', async () => {
    const blocks = guideBlocks(await section());
    const commands = blocks.flatMap((block, i) => (block.lang === 'sh' && block.code.startsWith('npx panel-api ') ? [{ command: block.code.trim(), shown: blocks[i + 1]! }] : []));
    expect(commands.map((c) => c.command.split(' ').slice(2, 4).join(' '))).toEqual(['token create', 'token list', 'grants set', 'default-permissions set', 'token revoke', 'default-permissions set']);
    for (const { command, shown } of commands) {
      expect(shown.lang, `the block after \`${command}\``).toBe('text');
      const printed = await run(root, command.split(' ').slice(2));
      expect(printed.trimEnd(), command).toMatch(shownPattern(shown.code));
    }
  }, 120_000);
});
