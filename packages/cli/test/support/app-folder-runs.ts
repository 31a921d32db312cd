import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BIN = join(REPO_ROOT, 'packages/cli/bin/panel-api.js');
// The same holder as @panel/core's lock test: a process that opens the folder and waits for "close", "exit" or "crash".
const HOLDER = join(REPO_ROOT, 'packages/core/test/support/hold-pglite-folder.ts');

/**
 * `panel-api …args` in the app's folder, as a user runs it (the real bin in a child process),
 * without the variables named in `unset` (the test's `DATABASE_URL`, say): exit code and output.
 */
export function panelApiInFolder(root: string, args: readonly string[], unset: readonly string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const env = { ...process.env };
  for (const name of unset) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: root, env }, (error, stdout, stderr) => {
      resolve({ exitCode: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** A second Node process holding `dataDir` through openDatabase, as a running server does; `send` ends it and waits for its exit. */
export async function holdPgliteFolder(dataDir: string): Promise<{ pid: number; send(line: 'close' | 'crash'): Promise<void> }> {
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
