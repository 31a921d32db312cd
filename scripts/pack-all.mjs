// `npm run pack:all [-- <folder>]`: builds every published package (turbo, in dependency order)
// and writes their tarballs, as `npm publish` would upload them, into one folder (default
// `packs/`). An app outside the repository installs them from there before the packages are on
// the registry: `npm install <folder>/panel-core-0.1.0.tgz …`, or the scaffolder's
// `--panel-packages <folder>`. It also writes `<folder>/packs.json`: package name → tarball.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const destination = resolve(process.argv[2] ?? join(root, 'packs'));
const shell = process.platform === 'win32';

/** The published packages (not private), dependencies before the packages that use them. */
function publishedInOrder() {
  const all = readdirSync(join(root, 'packages')).map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) }));
  const published = all.filter((pkg) => !pkg.manifest.private);
  const names = new Set(published.map((pkg) => pkg.manifest.name));
  const ordered = [];
  const visit = (pkg, path = []) => {
    if (ordered.includes(pkg)) return;
    if (path.includes(pkg)) throw new Error(`pack:all: a dependency cycle: ${[...path, pkg].map((p) => p.manifest.name).join(' → ')}`);
    const { dependencies = {}, peerDependencies = {} } = pkg.manifest;
    for (const name of Object.keys({ ...dependencies, ...peerDependencies })) {
      if (names.has(name)) visit(published.find((p) => p.manifest.name === name), [...path, pkg]);
    }
    ordered.push(pkg);
  };
  for (const pkg of published) visit(pkg);
  return ordered;
}

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', shell, stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) throw new Error(`${result.stdout}${result.stderr}pack:all: ${command} ${args.join(' ')} failed in ${cwd}.`);
  return result.stdout;
}

/**
 * One build at a time in this clone: two test files that pack side by side would otherwise
 * clean and rebuild the same dist/ folders under each other. The second waits, then finds
 * turbo's cache. A lock older than ten minutes is a crashed run's, and is taken over.
 */
async function withBuildLock(work) {
  const lock = join(root, 'node_modules', '.cache', 'panel-pack-all.lock');
  mkdirSync(dirname(lock), { recursive: true });
  for (let waited = 0; ; waited += 500) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      let age = 0;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {}
      if (age > 600_000) rmSync(lock, { recursive: true, force: true });
      else if (waited > 900_000) throw new Error(`pack:all: ${lock} is held by another run. Fix: wait for it, or remove the folder.`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    return work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Builds the packages (turbo, dependency order) and packs each into `destination`. */
function buildAndPack(packages) {
  console.log(`Building ${packages.map((pkg) => pkg.manifest.name).join(', ')} …`);
  run('npx', ['--no-install', 'turbo', 'run', 'build', '--output-logs=errors-only', ...packages.map((pkg) => `--filter=${pkg.manifest.name}`)], root);
  const packs = {};
  for (const pkg of packages) {
    // Built above: no prepack build per package.
    const [packed] = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--loglevel=error', '--pack-destination', destination], join(root, 'packages', pkg.dir)));
    packs[pkg.manifest.name] = packed.filename;
    console.log(`✓ ${pkg.manifest.name}@${pkg.manifest.version}  ${join(destination, packed.filename)}`);
  }
  writeFileSync(join(destination, 'packs.json'), `${JSON.stringify(packs, null, 2)}\n`);
  console.log(`${packages.length} tarballs in ${destination}`);
  // Before publication, `npm create @panel/app` cannot fetch the scaffolder: the packed one runs instead.
  if (packs['@panel/create-app']) {
    console.log(`\nScaffold an app from them (Edition B: add --edition b):\n  npm exec --yes --package=${join(destination, packs['@panel/create-app'])} -- create-app ../my-admin --yes --panel-packages ${destination}`);
  }
}

try {
  const packages = publishedInOrder();
  mkdirSync(destination, { recursive: true });
  await withBuildLock(() => buildAndPack(packages));
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
}
