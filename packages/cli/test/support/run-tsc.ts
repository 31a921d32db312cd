import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The monorepo's root, whose `tsconfig.json` holds the project's strict settings. */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

const TSC = join(REPO_ROOT, 'node_modules', '.bin', 'tsc');

/** What one tsc run returned. */
export interface TscRun {
  readonly exitCode: number;
  /** tsc's diagnostics (it prints them on standard output). */
  readonly output: string;
}

/**
 * Typechecks the app at `appRoot` (which must live inside the repository, so that
 * `@panel/core` and `@panel/api` resolve) with the root `tsconfig.json`'s settings: it writes a
 * `tsconfig.json` there that extends the root one and includes `app/**\/*.ts`, then runs
 * `tsc -p` on it.
 */
export async function typecheckApp(appRoot: string): Promise<TscRun> {
  const tsconfig = { extends: relative(appRoot, join(REPO_ROOT, 'tsconfig.json')).split('\\').join('/'), include: ['app/**/*.ts'] };
  await writeFile(join(appRoot, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  return new Promise((resolve) => {
    execFile(process.execPath, [TSC, '-p', join(appRoot, 'tsconfig.json'), '--pretty', 'false'], { cwd: appRoot }, (error, stdout, stderr) => {
      const exitCode = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ exitCode, output: `${stdout}${stderr}` });
    });
  });
}
