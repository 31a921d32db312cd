// `npm run lint:packages`: every published package checked as a registry would serve it:
// publint --strict (the package.json's exports, files and types against the packed files) and
// @arethetypeswrong/cli (the types resolve under Node 16+ and bundlers; ESM only, so the
// CommonJS and node10 columns are not asked for). Packs with `npm run pack:all` into a
// temporary folder first. CI runs it (.ci/run).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const shell = process.platform === 'win32';
// PANEL_PACKED_TARBALLS names a folder `npm run pack:all` filled already (CI packs once); else a temporary one is filled here.
const packed = process.env.PANEL_PACKED_TARBALLS;
const work = packed ?? mkdtempSync(join(tmpdir(), 'panel-lint-packages-'));
let failed = 0;

function run(label, command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', shell });
  const ok = result.status === 0;
  console.log(`${ok ? '✓' : '✗'} ${label}`);
  if (!ok) {
    failed += 1;
    process.stdout.write(result.stdout + result.stderr);
  }
  return ok;
}

try {
  if (!packed && !run('npm run pack:all', process.execPath, [join(root, 'scripts', 'pack-all.mjs'), work], root)) process.exit(1);
  const packs = JSON.parse(readFileSync(join(work, 'packs.json'), 'utf8'));
  const dirs = Object.fromEntries(readdirSync(join(root, 'packages')).map((dir) => [JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')).name, dir]));
  for (const [name, file] of Object.entries(packs)) {
    run(`publint ${name}`, 'npx', ['--no-install', 'publint', '--strict', join(root, 'packages', dirs[name])], root);
    // The scaffolder has a bin and no types to check.
    if (name !== '@panel/create-app') run(`attw ${name}`, 'npx', ['--no-install', 'attw', join(work, file), '--profile', 'esm-only', '--format', 'table-flipped'], root);
  }
} finally {
  if (!packed) rmSync(work, { recursive: true, force: true });
}
process.exitCode = failed === 0 ? 0 : 1;
