// One line naming the option and the fix, as the other commands give: `panel-api dev` run from
// the app's src/ folder ("Fix: cd .." as generate gives), a controllersDir that is not a path in
// panel.config.json (an example of a controllers folder, not of a resources folder), and
// `panel-api resource` without its <Name> or without --from-table (the missing one named).
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runPanelApi } from './support/run-panel-api.js';
import { tempApps } from './support/temp-apps.js';

const BIN = fileURLToPath(new URL('../bin/panel-api.js', import.meta.url));
const apps = tempApps();
afterAll(() => apps.removeAll());

/** `panel-api …args` in `cwd`, as a user runs it. */
function panelApi(cwd: string, args: readonly string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd }, (error, stdout, stderr) => {
      resolve({ exitCode: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('one line naming the option and the fix', { timeout: 60_000 }, () => {
  it('"Fix: cd .." as the other commands give: panel-api dev run from the app\'s src/ folder', async () => {
    const root = await apps.empty();
    await mkdir(join(root, 'src'));
    await writeFile(join(root, 'src', 'server.ts'), '');
    const run = await panelApi(join(root, 'src'), ['dev']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(
      `No app/panel/resources folder in ${join(root, 'src')}: panel-api looks for app/panel/resources under the app root (the current directory, or the folder --root names). Fix: cd .. (the app root ${root} holds it), or pass --root ${root}.\n`,
    );
    // generate, from the same folder, gives the same line.
    expect((await panelApi(join(root, 'src'), ['generate'])).stderr).toBe(run.stderr);
  });

  it('panel.config.json { "controllersDir": 5 }: the example is a controllers folder', async () => {
    const root = await apps.empty();
    await writeFile(join(root, 'panel.config.json'), '{ "controllersDir": 5 }\n');
    const run = await runPanelApi(['generate', '--root', root]);
    expect(run.exitCode).toBe(2);
    expect(run.err).toEqual(['panel.config.json: controllersDir must be a folder path relative to the app root, instead got 5. Fix: set it to a path such as "app/controllers/panel/api/resources".']);
  });

  it('panel-api resource without its <Name>: the missing Name, not --from-table, and the fix', async () => {
    const root = await apps.empty();
    for (const argv of [['resource'], ['resource', '--from-table', 'invoices']]) {
      const run = await runPanelApi([...argv, '--root', root]);
      expect(run.exitCode, argv.join(' ')).toBe(2);
      expect(run.err).toEqual(['panel-api resource needs the <Name> of the resource to write (PascalCase, such as Invoice). Fix: panel-api resource <Name> --from-table <table>.']);
    }
    const run = await runPanelApi(['resource', 'Invoice', '--root', root]);
    expect(run.exitCode).toBe(2);
    expect(run.err).toEqual(['panel-api resource Invoice needs --from-table <table>, the table to read. Fix: panel-api resource Invoice --from-table <table>.']);
  });
});
