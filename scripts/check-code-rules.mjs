// The code's own rules (docs/architecture.md, "The code's rules"), checked by `npm run lint` and CI:
//   1. no source file in packages/*/src over 250 lines unless its first line is a comment saying why;
//   2. each package's test:source ratio ≥ 1.0, counting the tests that exercise it (below);
//   3. Edition A's packages (@panel/api, @panel/panel-ui) neither import, name nor depend on @panel/api-tokens;
//   4. each validation message is written in one place (messages listed in ONE_PLACE_MESSAGES).
// `node scripts/check-code-rules.mjs --report` also prints, per package, its source files, their median
// and maximum lines, and both ratios. Exit code 1 when a rule fails, with the fix for each failure.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const MAX_LINES = 250;
const MIN_RATIO = 1.0;
/** Packages whose ratio is not checked, and why (printed with the report). */
const RATIO_EXEMPT = new Map([['@panel/test-support', 'test infrastructure: every test exercises it, it has no behaviour of its own to test']]);
/** Packages that must not reach Edition B's package. */
const EDITION_A = ['@panel/api', '@panel/panel-ui'];
const EDITION_B_PACKAGE = '@panel/api-tokens';
/** Messages that must be written once in the sources: a rule with its message lives in one module. */
const ONE_PLACE_MESSAGES = ['must not contain a NUL character'];
const SOURCE = /\.(ts|mts|js|mjs)$/;
const TEST = /\.test\.(ts|mts|js|mjs)$/;

const lines = (file) => {
  const text = readFileSync(file, 'utf8');
  return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
};

function walk(dir, out = []) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

/** The workspace packages under packages/: name, folder, source files, test files. */
function packages() {
  return readdirSync(join(root, 'packages'))
    .map((folder) => join(root, 'packages', folder))
    .filter((dir) => statSync(join(dir, 'package.json'), { throwIfNoEntry: false }))
    .map((dir) => {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const sources = walk(join(dir, 'src')).filter((f) => SOURCE.test(f) && !TEST.test(f) && !f.endsWith('.d.ts'));
      return { name: manifest.name, dir, manifest, sources };
    });
}

const IMPORT = /(?:^|[^\w.])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[^\w.])import\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|[^\w.])import\s*['"]([^'"]+)['"]/gm;

function specifiers(file) {
  const text = readFileSync(file, 'utf8');
  const found = [];
  for (const match of text.matchAll(IMPORT)) found.push(match[1] ?? match[2] ?? match[3]);
  return found;
}

/** A relative import's file: the TypeScript source of a `.js` specifier, or the file itself. */
function resolveLocal(from, specifier) {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base, `${base}.ts`, join(base, 'index.ts')]) {
    if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
  }
  return undefined;
}

/**
 * The workspace packages a test exercises: those its own file imports, and those the local modules it
 * imports (fixture apps, the demo's sources, test helpers) import in turn; a package's own relative
 * imports count for that package. Imports are not followed into other packages: a test of @panel/api
 * counts for @panel/api, not for the @panel/core it runs on, unless it imports @panel/core itself.
 */
function exercisedPackages(testFile, packageOfFile) {
  const reached = new Set();
  const seen = new Set();
  const queue = [testFile];
  const own = packageOfFile(testFile);
  if (own) reached.add(own);
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const inPackage = packageOfFile(file);
    // A file of a package's src is that package's own code: counted, not followed further.
    if (inPackage && file !== testFile && file.includes(`${join('packages', '')}`) && file.includes(`${join('', 'src', '')}`)) {
      reached.add(inPackage);
      continue;
    }
    for (const specifier of specifiers(file)) {
      if (specifier.startsWith('.')) {
        const local = resolveLocal(file, specifier);
        if (local) queue.push(local);
      } else {
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
        if (name.startsWith('@panel/')) reached.add(name);
      }
    }
  }
  return reached;
}

function main() {
  const report = process.argv.includes('--report');
  const failures = [];
  const all = packages();
  const byDir = all.map((p) => [p.dir + '/', p.name]);
  const packageOfFile = (file) => byDir.find(([dir]) => file.startsWith(dir))?.[1];

  // 1. Long files say why.
  for (const pkg of all) {
    for (const file of pkg.sources) {
      const count = lines(file);
      if (count <= MAX_LINES) continue;
      const first = readFileSync(file, 'utf8').split('\n', 1)[0].trim();
      if (!(first.startsWith('//') || first.startsWith('/*'))) {
        failures.push(`${relative(root, file)} has ${count} lines (over ${MAX_LINES}) and its first line does not say why. Fix: split it by concern, or start it with a comment saying why it must be one file.`);
      }
    }
  }

  // 2. Test:source ratios.
  const testFiles = [...walk(join(root, 'packages')), ...walk(join(root, 'examples'))].filter((f) => TEST.test(f));
  const strict = new Map(all.map((p) => [p.name, 0]));
  const exercised = new Map(all.map((p) => [p.name, 0]));
  for (const file of testFiles) {
    const count = lines(file);
    const own = packageOfFile(file);
    if (own) strict.set(own, strict.get(own) + count);
    for (const name of exercisedPackages(file, packageOfFile)) if (exercised.has(name)) exercised.set(name, exercised.get(name) + count);
  }
  // 2b. No test mocks a module: the files of one worker share their modules (vitest.conditions.ts, `isolate: false`), so a mock would reach the next file.
  for (const file of testFiles) {
    if (/\bvi\.(mock|doMock)\(/.test(readFileSync(file, 'utf8'))) {
      failures.push(`${relative(root, file)} mocks a module (vi.mock), but the test files of one worker share their modules (isolate: false in vitest.conditions.ts): the mock would reach the files after it. Fix: pass the dependency in (a parameter, an option) instead of mocking its module.`);
    }
  }
  const rows = [];
  for (const pkg of all) {
    const counts = pkg.sources.map(lines).sort((a, b) => a - b);
    const source = counts.reduce((sum, n) => sum + n, 0);
    const median = counts.length === 0 ? 0 : counts[Math.floor((counts.length - 1) / 2)];
    const ratio = source === 0 ? Infinity : exercised.get(pkg.name) / source;
    rows.push({ name: pkg.name, files: counts.length, source, median, max: counts.at(-1) ?? 0, strict: source === 0 ? Infinity : strict.get(pkg.name) / source, ratio });
    if (ratio < MIN_RATIO && !RATIO_EXEMPT.has(pkg.name)) {
      failures.push(`${pkg.name}: test:source is ${ratio.toFixed(2)} (${exercised.get(pkg.name)} test lines exercising ${source} source lines), under ${MIN_RATIO}. Fix: test the behaviour its sources add (tests under packages/${pkg.dir.split('/').pop()}/test, or a test that imports ${pkg.name}).`);
    }
  }

  // 3. Edition A does not reach Edition B.
  for (const pkg of all.filter((p) => EDITION_A.includes(p.name))) {
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies']) {
      if (pkg.manifest[field]?.[EDITION_B_PACKAGE]) failures.push(`${pkg.name}'s package.json lists ${EDITION_B_PACKAGE} in ${field}. Fix: Edition B plugs in through the extension points (docs/architecture.md); remove it.`);
    }
    for (const file of pkg.sources) {
      if (specifiers(file).some((s) => s === EDITION_B_PACKAGE || s.startsWith(`${EDITION_B_PACKAGE}/`))) {
        failures.push(`${relative(root, file)} imports ${EDITION_B_PACKAGE}. Fix: Edition A's packages know nothing of Edition B; ask the extension interface instead.`);
      } else if (readFileSync(file, 'utf8').includes(EDITION_B_PACKAGE)) {
        // Not even by name in a comment or a message: what Edition A says of Edition B goes through docs/extensions.md.
        failures.push(`${relative(root, file)} names ${EDITION_B_PACKAGE}. Fix: Edition A's packages know nothing of Edition B; name the extension point (docs/extensions.md) instead.`);
      }
    }
  }

  // 4. One place per message.
  const sources = all.flatMap((p) => p.sources);
  for (const message of ONE_PLACE_MESSAGES) {
    const places = sources.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => [line, i + 1])
        .filter(([line]) => line.includes(message) && !/^\s*(\*|\/\/)/.test(line))
        .map(([, n]) => `${relative(root, file)}:${n}`),
    );
    if (places.length !== 1) failures.push(`The message "${message}" is written in ${places.length} places (${places.join(', ')}). Fix: keep the rule and its message in one module and call it.`);
  }

  if (report) {
    console.log('package                 files  median  max   source  test:source (own)  test:source (exercising)');
    for (const r of rows) {
      const ratio = (x) => (x === Infinity ? '—' : x.toFixed(2));
      const note = RATIO_EXEMPT.has(r.name) ? `  (exempt: ${RATIO_EXEMPT.get(r.name)})` : '';
      console.log(`${r.name.padEnd(24)}${String(r.files).padStart(5)}${String(r.median).padStart(8)}${String(r.max).padStart(6)}${String(r.source).padStart(9)}${ratio(r.strict).padStart(19)}${ratio(r.ratio).padStart(26)}${note}`);
    }
  }
  if (failures.length > 0) {
    console.error(`\nThe code's rules (scripts/check-code-rules.mjs) found ${failures.length} problem(s):`);
    for (const failure of failures) console.error(`- ${failure}`);
    process.exit(1);
  }
  console.log(`The code's rules hold: files over ${MAX_LINES} lines say why, test:source ≥ ${MIN_RATIO} per package, Edition A does not reach ${EDITION_B_PACKAGE}, each listed message is written once, no test mocks a module.`);
}

main();
