import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const OUT = join(REPO_ROOT, 'bench', '.tmp-startup');

/**
 * Builds the demo as a deployment would run it: the Panel packages with their own build
 * (`npm run build`: each package's `dist/`, which `node` resolves through the workspace links
 * without the `@panel/source` condition) and the demo app compiled to JavaScript under
 * `bench/.tmp-startup/`. Returns the compiled `server.js`.
 */
export function compileDemo(): string {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  rmSync(OUT, { recursive: true, force: true });
  const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', fileURLToPath(new URL('tsconfig.demo.json', import.meta.url))], { stdio: 'inherit' });
  return join(OUT, 'examples', 'blog', 'src', 'server.js');
}
