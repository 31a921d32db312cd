import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUT = join(BENCH_ROOT, 'dist');

/** The packages the compiled servers import by name, and where their compiled sources are. */
const PACKAGES: readonly { name: string; dir: string }[] = [
  { name: '@panel/core', dir: 'packages/core' },
  { name: '@panel/api', dir: 'packages/api' },
  { name: '@panel/api-tokens', dir: 'packages/api-tokens' },
  { name: '@panel/panel-ui', dir: 'packages/panel-ui' },
  { name: '@panel/example-blog', dir: 'examples/blog' },
];

/**
 * The manifest of a compiled package: every subpath its own `exports` names (`.`, `./security`…),
 * pointing at the compiled JavaScript of its `@panel/source` entry; none for the demo (imported by path).
 */
function compiledManifest(dir: string): Record<string, unknown> {
  const own = JSON.parse(readFileSync(join(BENCH_ROOT, '..', dir, 'package.json'), 'utf8')) as { exports?: Record<string, unknown> };
  const exports: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(own.exports ?? {})) {
    const source = typeof target === 'object' && target !== null ? (target as Record<string, unknown>)['@panel/source'] : undefined;
    if (typeof source === 'string') exports[subpath] = source.replace(/\.ts$/, '.js');
  }
  return Object.keys(exports).length === 0 ? { type: 'module' } : { type: 'module', exports };
}

/**
 * Compiles the servers (the bench's code, the demo app, and the Panel packages it imports
 * from their current sources) to JavaScript under `bench/dist/`, with a `node_modules` there
 * naming the compiled packages; returns the compiled `serve.js`. The server processes then run
 * on plain `node`, as a deployment would: a TypeScript loader alone adds some 80 MB to a
 * process and would hide the runtime's own memory.
 */
export function compileServers(): string {
  rmSync(OUT, { recursive: true, force: true });
  const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', join(BENCH_ROOT, 'tsconfig.servers.json')], { stdio: 'inherit' });
  writeFileSync(join(OUT, 'package.json'), `${JSON.stringify({ type: 'module', private: true })}\n`);
  for (const { name, dir } of PACKAGES) {
    writeFileSync(join(OUT, dir, 'package.json'), `${JSON.stringify({ name, ...compiledManifest(dir) })}\n`);
    const link = join(OUT, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(OUT, dir), link, 'dir');
  }
  return join(OUT, 'bench', 'src', 'servers', 'serve.js');
}
