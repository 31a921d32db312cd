// The scaffolder, as a new user runs it (issue: "From nothing to a served app in one command"):
// "`npm create @panel/app@latest shop -- --yes` then `cd shop && npm run dev` serves the API …
// (from tarballs in the test), and `npm test` in it passes; same with `--edition b`." The
// `@panel/*` packages come from `npm run pack:all` (PANEL_PACKED_TARBALLS names a folder it
// filled already); their dependencies from the npm registry or its cache.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds, testDatabaseUrl } from '@panel/test-support';
import { cleanEnv, run, startServer, type RunningServer } from '../../cli/test/support/processes.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(REPO_ROOT, 'packages', 'create-app', 'bin', 'create-app.js');
const NPM_ENV = { npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };

/** All files under a folder, relative, sorted, without node_modules. */
async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && !relative(root, entry.parentPath).split(/[\\/]/).includes('node_modules'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

/** One setting of the app's .env. */
async function envValue(app: string, name: string): Promise<string> {
  const line = (await readFile(join(app, '.env'), 'utf8')).split('\n').find((l) => l.startsWith(`${name}=`));
  return line!.slice(name.length + 1);
}

/**
 * The app's panel, as the issue's "serves the API and the panel" means it: the sign-in page with
 * the screens' security headers, then the seeded admin of .env signs in and reaches the home.
 */
async function expectPanel(server: RunningServer, app: string): Promise<void> {
  await expect.poll(() => server.output(), { timeout: 10_000 }).toContain('/panel/login (admin@example.com, the password PANEL_ADMIN_PASSWORD in .env)');
  const page = await fetch(`${server.url}/panel/login`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  expect(await page.text()).toContain('<label for="email">Email</label>');
  const signIn = await fetch(`${server.url}/panel/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
    body: new URLSearchParams({ email: 'admin@example.com', password: await envValue(app, 'PANEL_ADMIN_PASSWORD') }).toString(),
  });
  expect(signIn.status).toBe(303);
  const cookie = signIn.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  const home = await fetch(`${server.url}/panel`, { headers: { cookie } });
  expect(home.status).toBe(200);
  expect(home.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  const html = await home.text();
  expect(html).toContain('<h1>Panel</h1>');
  expect(html).toContain('Signed in as Admin.');
  expect(html).toContain('<li>Books — <code>/api/resources/v1/books</code></li>');
  // Edition A has no token screens: no sidebar entry, and the URL does not exist.
  expect(html).not.toContain('API Tokens');
  expect((await fetch(`${server.url}/panel/api_tokens`, { headers: { cookie } })).status).toBe(404);
  const wrong = await fetch(`${server.url}/panel/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url }, body: 'email=admin%40example.com&password=wrong' });
  expect(wrong.status).toBe(401);
}

/**
 * The README's before-publication command ("CI runs it as written here"): the line after
 * `npm run pack:all`, with its two folders (`./packs`, `../my-admin`) replaced by this test's.
 */
async function readmeScaffoldCommand(tarballs: string, folder: string): Promise<string[]> {
  const readme = await readFile(join(REPO_ROOT, 'README.md'), 'utf8');
  const line = readme.split('\n').find((candidate) => candidate.startsWith('npm exec --yes --package=./packs/panel-create-app-'));
  if (!line) throw new Error('README.md has no `npm exec --yes --package=./packs/panel-create-app-…` line after `npm run pack:all`.');
  const packs = JSON.parse(await readFile(join(tarballs, 'packs.json'), 'utf8')) as Record<string, string>;
  // The package's own README gives the same line.
  expect(await readFile(join(REPO_ROOT, 'packages', 'create-app', 'README.md'), 'utf8')).toContain(`\n${line}\n`);
  expect(line, 'the README names the tarball pack:all writes').toContain(`./packs/${packs['@panel/create-app']!} `);
  return line.replaceAll('./packs', tarballs).replace(' ../my-admin ', ` ${folder} `).split(' ');
}

// Each step installs or starts an app (npm, tsx, PGlite: a minute each on a loaded machine).
describe('npm create @panel/app (the scaffolder, from the packed tarballs)', { timeout: 300_000 }, () => {
  let work: string;
  let tarballs: string;
  const servers: RunningServer[] = [];
  const create = (args: string[]) => run(process.execPath, [BIN, ...args, '--panel-packages', tarballs], { cwd: work, env: cleanEnv(NPM_ENV) });
  const serve = async (app: string, command: string, args: string[], extra: Record<string, string> = {}) => {
    const server = await startServer(command, args, { cwd: app, env: cleanEnv({ PORT: '0', ...extra }), timeoutMs: 180_000 });
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'panel-create-app-'));
    tarballs = process.env.PANEL_PACKED_TARBALLS ?? join(work, 'tarballs');
    if (!process.env.PANEL_PACKED_TARBALLS) {
      const pack = await run(process.execPath, [join(REPO_ROOT, 'scripts', 'pack-all.mjs'), tarballs], { cwd: REPO_ROOT });
      if (pack.exitCode !== 0) throw new Error(`npm run pack:all failed:\n${pack.stdout}\n${pack.stderr}`);
    }
  }, 600_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('packs as a create-* package: its bin and sources, which npm create runs with plain node', async () => {
    const packs = JSON.parse(await readFile(join(tarballs, 'packs.json'), 'utf8')) as Record<string, string>;
    const listed = await run('tar', ['-tzf', join(tarballs, packs['@panel/create-app']!)], { cwd: work });
    expect(listed.stdout.trim().split('\n').sort()).toEqual(['package/README.md', 'package/bin/create-app.js', 'package/package.json', 'package/src/app-files.js', 'package/src/main.js', 'package/src/options.js', 'package/src/panel-packages.js']);
  });

  it('"--no-install writes the files only": the app\'s files, no node_modules, and the next steps', async () => {
    const created = await create(['files-only', '--yes', '--no-install']);
    expect(created.exitCode).toBe(0);
    expect(created.stdout).toContain('✓ Wrote 13 files to files-only (Edition A)');
    expect(created.stdout).toContain('Next:\n  cd files-only\n  npm install\n  npm run panel-api -- generate\n  npm run dev\n');
    expect(await listFiles(join(work, 'files-only'))).toEqual([
      '.env',
      '.gitignore',
      'README.md',
      'app/controllers/panel/api/resources/v1/base-resources-controller.ts',
      'app/panel/resources/author.ts',
      'app/panel/resources/book.ts',
      'db/migrations.ts',
      'db/seed.ts',
      'package.json',
      'src/app.ts',
      'src/server.ts',
      'test/api.test.ts',
      'tsconfig.json',
    ]);
    const manifest = JSON.parse(await readFile(join(work, 'files-only', 'package.json'), 'utf8')) as { scripts: Record<string, string>; dependencies: Record<string, string> };
    expect(Object.keys(manifest.scripts)).toEqual(['dev', 'start', 'build', 'test', 'panel-api']);
    // npm run dev is panel-api dev (a resource added while it runs is served: packages/cli/test/dev-command.test.ts);
    // the server closes Fastify, then the database, on SIGINT and SIGTERM, before panel-api dev starts the next one.
    expect(manifest.scripts.dev).toBe('panel-api dev');
    const server = await readFile(join(work, 'files-only', 'src', 'server.ts'), 'utf8');
    expect(server).toContain('closeOnSignals({ app, database });');
    expect(manifest.dependencies).toMatchObject({ fastify: '^5', kysely: '^0.28' });
    // The panel's screens come with Edition A too; @panel/api-tokens is Edition B's extension, which Edition A does not install (issue 41).
    expect(manifest.dependencies['@panel/panel-ui']).toMatch(/^file:.+panel-panel-ui-.+\.tgz$/);
    expect(manifest.dependencies['@panel/api-tokens']).toBeUndefined();
    expect(existsSync(join(work, 'files-only', 'node_modules'))).toBe(false);
    const registry = await run(process.execPath, [BIN, 'from-registry', '--yes', '--no-install'], { cwd: work, env: cleanEnv(NPM_ENV) });
    expect(registry.exitCode, registry.stderr).toBe(0);
    const published = JSON.parse(await readFile(join(work, 'from-registry', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(published.dependencies)).toEqual(['@fastify/cookie', '@panel/api', '@panel/core', '@panel/panel-ui', 'fastify', 'kysely']);
    expect(published.dependencies['@panel/panel-ui']).toBe('^0.1.0');
  });

  it('"PGlite or a DATABASE_URL": --database <postgres url> goes to .env as DATABASE_URL (the server loads it), the README says so; anything else is one line', async () => {
    const url = 'postgres://postgres@127.0.0.1:5432/shop';
    const created = await create(['on-postgres', '--yes', '--no-install', '--database', url]);
    expect(created.exitCode, created.stderr).toBe(0);
    expect(await envValue(join(work, 'on-postgres'), 'DATABASE_URL')).toBe(url);
    expect(await readFile(join(work, 'on-postgres', 'README.md'), 'utf8')).toContain('on the PostgreSQL database `DATABASE_URL` names');
    expect((await readFile(join(work, 'files-only', '.env'), 'utf8')).includes('DATABASE_URL')).toBe(false);
    const wrong = await create(['elsewhere', '--yes', '--no-install', '--database', 'mysql://localhost/shop']);
    expect(wrong.exitCode).toBe(1);
    expect(wrong.stderr).toBe('--database must be pglite or a postgres:// URL such as postgres://postgres@127.0.0.1:5432/shop, instead got "mysql://localhost/shop".\n');
  });

  it('refuses a folder that is not empty, and a wrong --edition, in one line each', async () => {
    const again = await create(['files-only', '--yes']);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toBe(`${join(work, 'files-only')} exists and is not empty. Fix: choose another folder name, or empty that folder.\n`);
    const edition = await create(['other', '--yes', '--edition', 'c']);
    expect(edition.exitCode).toBe(1);
    expect(edition.stderr).toBe('--edition must be a or b, instead got "c".\n');
  });

  it('Edition A: "npm create @panel/app shop -- --yes" installs and generates; npm test passes; npm run dev serves the API with the key from .env and the panel: sign-in with its security headers, the seeded admin reaches the home', async () => {
    const started = Date.now();
    // Through the README's own line: npm exec runs the packed scaffolder (npm create would ask the registry).
    const [npm, ...args] = await readmeScaffoldCommand(tarballs, 'shop');
    expect(npm).toBe('npm');
    const created = await run('npm', args, { cwd: work, env: cleanEnv(NPM_ENV) });
    expect(created.exitCode, created.stderr).toBe(0);
    expect(created.stdout).toContain('✓ Created BooksController  app/controllers/panel/api/resources/v1/books-controller.ts');
    const app = join(work, 'shop');
    // "An Edition A app installed from tarballs has no @panel/api-tokens in node_modules" (issue 41).
    expect(existsSync(join(app, 'node_modules', '@panel', 'panel-ui'))).toBe(true);
    expect(existsSync(join(app, 'node_modules', '@panel', 'api-tokens'))).toBe(false);
    // The README's own command.
    expect(await readFile(join(app, 'README.md'), 'utf8')).toContain('```sh\nnpm run dev\n```');
    const server = await serve(app, 'npm', ['run', 'dev']);
    const key = await envValue(app, 'API_KEYS');
    const books = await fetch(`${server.url}/api/resources/v1/books`, { headers: { authorization: `ApiKey ${key}` } });
    // "The scaffold boots clean in both editions" (issue 46, item 4): no framework warning on the first boot.
    expect(server.output()).not.toContain('PANEL_WARN');
    console.log(`scaffold, install, generate and first answer of npm run dev: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    console.log(`the scaffolder's steps: ${created.stdout.split('\n').filter((line) => /^✓ .+: [\d.]+ s$/.test(line)).join('; ')}`);
    expect(books.status).toBe(200);
    expect(((await books.json()) as { pagination: { total_count: number } }).pagination.total_count).toBe(3);
    expect((await fetch(`${server.url}/api/resources/v1/books`)).status).toBe(401);
    await expectPanel(server, app);
    // "SIGINT/SIGTERM close PGlite cleanly (no id gap after a restart) in the scaffold" (issue 46,
    // finding 9): Ctrl-C reaches npm, panel-api dev, tsx and the server; the next book after a
    // restart takes the next id (killed before PGlite closed, its sequence would skip 32).
    await server.stop('SIGINT');
    const again = await serve(app, 'npm', ['run', 'dev']);
    const added = await fetch(`${again.url}/api/resources/v1/books`, {
      method: 'POST',
      headers: { authorization: `ApiKey ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ book: { title: 'After a restart', pages: 1, author_id: 1 } }),
    });
    expect(added.status).toBe(201);
    expect(((await added.json()) as { record: { id: number } }).record.id).toBe(4);
    await again.stop('SIGINT');

    const tested = await run('npm', ['test'], { cwd: app, env: cleanEnv(NPM_ENV) });
    expect(tested.exitCode, tested.stdout + tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/^# pass 3$/m);
    const built = await run('npm', ['run', 'build'], { cwd: app, env: cleanEnv(NPM_ENV) });
    expect(built.exitCode, built.stdout + built.stderr).toBe(0);
  });

  it('"JavaScript or TypeScript": --language js writes a JavaScript app (no .ts file, JavaScript controllers) that npm test and npm run dev serve with plain Node', async () => {
    const created = await create(['shop-js', '--yes', '--language', 'js']);
    expect(created.exitCode, created.stderr).toBe(0);
    expect(created.stdout).toContain('✓ Created BooksController  app/controllers/panel/api/resources/v1/books-controller.js');
    const app = join(work, 'shop-js');
    const files = await listFiles(app);
    expect(files.filter((file) => file.endsWith('.ts'))).toEqual([]);
    expect(files).toContain('src/server.js');
    expect(files).not.toContain('tsconfig.json');
    const manifest = JSON.parse(await readFile(join(app, 'package.json'), 'utf8')) as { scripts: Record<string, string>; devDependencies: Record<string, string> };
    expect(Object.keys(manifest.scripts)).toEqual(['dev', 'start', 'build', 'test', 'panel-api']);
    expect(manifest.scripts.dev).toBe('panel-api dev');
    expect(Object.keys(manifest.devDependencies)).toEqual(['@panel/api-cli']);
    const tested = await run('npm', ['test'], { cwd: app, env: cleanEnv(NPM_ENV) });
    expect(tested.exitCode, tested.stdout + tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/^# pass 3$/m);
    const server = await serve(app, 'npm', ['run', 'dev']);
    const books = await fetch(`${server.url}/api/resources/v1/books`, { headers: { authorization: `ApiKey ${await envValue(app, 'API_KEYS')}` } });
    expect(books.status).toBe(200);
    await server.stop();
    const wrong = await create(['shop-py', '--yes', '--no-install', '--language', 'py']);
    expect(wrong.stderr).toBe('--language must be ts or js, instead got "py".\n');
  });

  it.runIf(testDatabaseKinds().includes('postgres'))('"with a DATABASE_URL naming a missing database, says so in one line" (createdb <name>)', async () => {
    const url = new URL(testDatabaseUrl());
    url.pathname = '/shop_create_app_missing';
    const boot = await run(join(work, 'shop', 'node_modules', '.bin', 'tsx'), ['src/server.ts'], { cwd: join(work, 'shop'), env: cleanEnv({ DATABASE_URL: url.toString(), PORT: '0' }) });
    expect(boot.exitCode).toBe(1);
    expect(boot.stderr).toBe(
      'Database "shop_create_app_missing" does not exist on the PostgreSQL server DATABASE_URL names. Fix: createdb shop_create_app_missing (or CREATE DATABASE shop_create_app_missing; as a superuser), or point DATABASE_URL at an existing database.\n',
    );
  });

  it('Edition B: "--edition b" serves built-in tokens: the first boot prints the first token once, which reads the API; npm test passes', async () => {
    const created = await create(['shop-b', '--yes', '--edition', 'b']);
    expect(created.exitCode, created.stderr).toBe(0);
    const app = join(work, 'shop-b');
    expect(await envValue(app, 'PANEL_API_TOKEN_PEPPER')).toMatch(/^[0-9a-f]{64}$/);
    const server = await serve(app, 'npm', ['run', 'dev']);
    const secret = /First API token \(shown once, keep it\): (\S+)/.exec(server.output())?.[1];
    expect(secret).toBeDefined();
    // "A freshly scaffolded Edition B app warns on its first boot (empty default permissions)": no longer; it serves tokens only.
    expect(server.output()).not.toContain('PANEL_WARN');
    const authors = await fetch(`${server.url}/api/resources/v1/authors`, { headers: { authorization: `Bearer ${secret}` } });
    expect(authors.status).toBe(200);
    expect((await fetch(`${server.url}/api/resources/v1/authors`)).status).toBe(401);
    await server.stop();
    const tested = await run('npm', ['test'], { cwd: app, env: cleanEnv(NPM_ENV) });
    expect(tested.exitCode, tested.stdout + tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/^# pass 3$/m);
  });
  it('Edition B serves the panel "as the demo does": the sign-in page with the screens\' security headers, the admin of .env signs in and sees the API token screens', async () => {
    const app = join(work, 'shop-b');
    const server = await serve(app, 'npm', ['run', 'dev']);
    // The server prints the panel's address after the API's (the line the test waited for).
    await expect.poll(() => server.output(), { timeout: 10_000 }).toContain('/panel/login (admin@example.com, the password PANEL_ADMIN_PASSWORD in .env)');
    const page = await fetch(`${server.url}/panel/login`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await page.text()).toContain('<label for="email">Email</label>');
    const signIn = await fetch(`${server.url}/panel/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: new URLSearchParams({ email: 'admin@example.com', password: await envValue(app, 'PANEL_ADMIN_PASSWORD') }).toString(),
    });
    expect(signIn.status).toBe(303);
    const cookie = signIn.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
    const tokens = await fetch(`${server.url}/panel/api_tokens`, { headers: { cookie } });
    expect(tokens.status).toBe(200);
    const html = await tokens.text();
    expect(html).toContain('<h1>API Tokens</h1>');
    expect(html).toContain('first');
    const wrong = await fetch(`${server.url}/panel/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url }, body: 'email=admin%40example.com&password=wrong' });
    expect(wrong.status).toBe(401);
    // The README's next step, while the server runs on PGlite: the token CLI reaches the app's database through it (issue 46, item 6).
    const readme = await readFile(join(app, 'README.md'), 'utf8');
    expect(readme).toContain('`npm run panel-api -- token create --name ci --grant books:index,books:show` (the server may keep running');
    const made = await run('npm', ['run', '--silent', 'panel-api', '--', 'token', 'create', '--name', 'ci', '--grant', 'books:index,books:show'], { cwd: app, env: cleanEnv(NPM_ENV) });
    expect(made.exitCode, made.stderr).toBe(0);
    const ci = made.stdout.trim();
    expect((await fetch(`${server.url}/api/resources/v1/books`, { headers: { authorization: `Bearer ${ci}` } })).status).toBe(200);
    expect((await fetch(`${server.url}/api/resources/v1/authors`, { headers: { authorization: `Bearer ${ci}` } })).status).toBe(403);
    await server.stop();
  });
});
