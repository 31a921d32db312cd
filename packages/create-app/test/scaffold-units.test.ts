// The scaffolder's own behaviour, tested directly and quickly (no install): its command line
// (`createOptions`), where the @panel/* packages come from (`panelSpecifiers`), the files it writes
// for each edition, language and database (`appFiles`), and `main`'s answers that need no
// install (help, usage errors, a folder that is not empty, --no-install). create-app.test.ts
// installs and runs the apps; this file checks each rule where it is made.
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

/** What `createOptions` answers (src/options.js, `CreateOptions`). */
interface CreateOptions {
  readonly directory: string;
  readonly name: string;
  readonly edition: 'a' | 'b';
  readonly install: boolean;
  readonly databaseUrl: string | undefined;
  readonly language: 'ts' | 'js';
  readonly panelPackages: string | undefined;
}

// The scaffolder is plain JavaScript with JSDoc types and no declaration files: its modules are
// loaded here with the types this test relies on.
const source = (file: string) => new URL(`../src/${file}`, import.meta.url).href;
const { appFiles } = (await import(source('app-files.js'))) as { appFiles(options: CreateOptions, panel: Record<string, string>, secrets: Record<string, string>): Map<string, string> };
const { main } = (await import(source('main.js'))) as { main(argv: readonly string[]): Promise<number> };
const { USAGE, UsageError, createOptions } = (await import(source('options.js'))) as {
  USAGE: string;
  UsageError: new (message: string) => Error;
  createOptions(argv: readonly string[], context: { cwd: string; interactive: boolean }): Promise<CreateOptions | 'help'>;
};
const { PANEL_PACKAGES, panelSpecifiers } = (await import(source('panel-packages.js'))) as { PANEL_PACKAGES: readonly string[]; panelSpecifiers(version: string, folder: string | undefined): Record<string, string> };

const CWD = resolve(tmpdir(), 'panel-create-app-units');
const SECRETS = { apiKey: 'the-api-key', pepper: 'the-pepper', sessionSecret: 'the-session-secret', adminPassword: 'the-admin-password' };
const REGISTRY = panelSpecifiers('0.1.0', undefined);

/** The options of `argv` with `--yes` (nothing asked). */
const parse = (argv: string[]) => createOptions(['--yes', ...argv], { cwd: CWD, interactive: false });

/** The message of the usage error `argv` makes. */
async function usageError(argv: string[]): Promise<string> {
  const error = await parse(argv).then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(UsageError);
  return (error as Error).message;
}

/** The files of an app with these options (the defaults of `--yes` otherwise). */
async function files(argv: string[] = [], panel: Record<string, string> = REGISTRY): Promise<Map<string, string>> {
  const options = await parse(argv);
  if (options === 'help') throw new Error('help');
  return appFiles(options, panel, SECRETS);
}

const manifest = (written: Map<string, string>) => JSON.parse(written.get('package.json')!) as { name: string; scripts: Record<string, string>; dependencies: Record<string, string>; devDependencies: Record<string, string> };

describe('createOptions: the command line', () => {
  it('"--yes takes the defaults, ask nothing": Edition A, TypeScript, PGlite, install, the registry, folder my-admin', async () => {
    expect(await parse([])).toEqual({ directory: join(CWD, 'my-admin'), name: 'my-admin', edition: 'a', install: true, databaseUrl: undefined, language: 'ts', panelPackages: undefined });
  });

  it('reads each flag: the folder, --edition, --language (and its long names), --database, --no-install, --panel-packages relative to the cwd', async () => {
    expect(await parse(['shop', '--edition', 'B', '--language', 'javascript', '--database', 'postgres://u@h:5432/shop', '--no-install', '--panel-packages', 'packs'])).toEqual({
      directory: join(CWD, 'shop'),
      name: 'shop',
      edition: 'b',
      install: false,
      databaseUrl: 'postgres://u@h:5432/shop',
      language: 'js',
      panelPackages: join(CWD, 'packs'),
    });
    expect(await parse(['shop', '--language', 'TypeScript'])).toMatchObject({ language: 'ts' });
    expect(await parse(['shop', '--database', 'postgresql://u@h/shop'])).toMatchObject({ databaseUrl: 'postgresql://u@h/shop' });
    expect(await parse(['shop', '--database', 'pglite'])).toMatchObject({ databaseUrl: undefined });
    expect(await parse(['-y', 'shop'])).toMatchObject({ name: 'shop' });
  });

  it('the package name is the folder\'s last segment, lower-cased, other characters as "-"', async () => {
    expect(await parse(['nested/My Shop!'])).toMatchObject({ directory: join(CWD, 'nested', 'My Shop!'), name: 'my-shop-' });
    expect(await parse([join(tmpdir(), 'Abs.Path_1')])).toMatchObject({ directory: join(tmpdir(), 'Abs.Path_1'), name: 'abs.path_1' });
  });

  it('--help and -h answer "help", whatever else is there', async () => {
    expect(await parse(['--help'])).toBe('help');
    expect(await createOptions(['-h', 'shop'], { cwd: CWD, interactive: false })).toBe('help');
  });

  it('"a mistake in the command line says what and how to fix it": one line for a wrong value, the usage after a parse error', async () => {
    expect(await usageError(['--edition', 'c'])).toBe('--edition must be a or b, instead got "c".');
    expect(await usageError(['--language', 'py'])).toBe('--language must be ts or js, instead got "py".');
    expect(await usageError(['--database', 'mysql://localhost/shop'])).toBe('--database must be pglite or a postgres:// URL such as postgres://postgres@127.0.0.1:5432/shop, instead got "mysql://localhost/shop".');
    expect(await usageError(['--database', 'postgres://'])).toMatch(/^--database must be pglite or a postgres:\/\/ URL/);
    expect(await usageError(['one', 'two'])).toBe(`One folder, please; got one, two.\n${USAGE}`);
    const unknown = await usageError(['--colour']);
    expect(unknown).toMatch(/^Unknown option '--colour'/);
    expect(unknown.endsWith(`\n${USAGE}`)).toBe(true);
    expect(await usageError(['--edition'])).toMatch(/argument missing/);
  });

  it('without a terminal nothing is asked even without --yes: the defaults apply', async () => {
    expect(await createOptions(['shop'], { cwd: CWD, interactive: false })).toMatchObject({ edition: 'a', language: 'ts', databaseUrl: undefined });
  });
});

describe('panelSpecifiers: where the @panel/* packages come from', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'panel-packs-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('"the registry\'s caret range of this scaffolder\'s version" for every package', () => {
    expect(panelSpecifiers('1.2.3', undefined)).toEqual(Object.fromEntries(PANEL_PACKAGES.map((name) => [name, '^1.2.3'])));
  });

  it('"the tarball there, named in packs.json, else found by its file name"', async () => {
    const byName = join(folder, 'by-name');
    await mkdir(byName);
    for (const name of PANEL_PACKAGES) await writeFile(join(byName, `${name.slice(1).replace('/', '-')}-0.1.0.tgz`), '');
    await writeFile(join(byName, 'panel-core-0.0.9.txt'), '');
    expect(panelSpecifiers('9.9.9', byName)).toEqual(Object.fromEntries(PANEL_PACKAGES.map((name) => [name, `file:${join(byName, `${name.slice(1).replace('/', '-')}-0.1.0.tgz`)}`])));
    const listed = join(folder, 'listed');
    await mkdir(listed);
    await writeFile(join(listed, 'packs.json'), JSON.stringify(Object.fromEntries(PANEL_PACKAGES.map((name) => [name, `${name.length}.tgz`]))));
    expect(panelSpecifiers('9.9.9', listed)['@panel/api-tokens']).toBe(`file:${join(listed, `${'@panel/api-tokens'.length}.tgz`)}`);
  });

  it('a missing folder, or a package without its tarball, is an error naming the fix', async () => {
    expect(() => panelSpecifiers('0.1.0', join(folder, 'nowhere'))).toThrow(`--panel-packages ${join(folder, 'nowhere')}: no such folder. Fix: run npm run pack:all in a clone of the Panel API repository, and pass its packs/ folder.`);
    const partial = join(folder, 'partial');
    await mkdir(partial);
    await writeFile(join(partial, 'panel-core-0.1.0.tgz'), '');
    expect(() => panelSpecifiers('0.1.0', partial)).toThrow(`--panel-packages ${partial}: no tarball of @panel/api (panel-api-<version>.tgz). Fix: run npm run pack:all, which writes every package's.`);
  });
});

describe('appFiles: what the scaffolder writes', () => {
  it('Edition A: the API-key base controller, API_KEYS in .env, no initializer, no token tables', async () => {
    const written = await files();
    expect([...written.keys()].sort()).toEqual([
      '.env', '.gitignore', 'README.md', 'app/controllers/panel/api/resources/v1/base-resources-controller.ts', 'app/panel/resources/author.ts', 'app/panel/resources/book.ts',
      'db/migrations.ts', 'db/seed.ts', 'package.json', 'src/app.ts', 'src/server.ts', 'test/api.test.ts', 'tsconfig.json',
    ]);
    expect(written.get('.env')).toBe(
      '# Local settings (not committed). The API keys the server accepts, comma-separated.\nAPI_KEYS=the-api-key\n# The key sealing the panel\'s session cookies.\nPANEL_SESSION_SECRET=the-session-secret\n# The password of the panel\'s admin, admin@example.com (set when the first boot creates the user).\nPANEL_ADMIN_PASSWORD=the-admin-password\n',
    );
    for (const [path, text] of written) expect(text.includes('api-tokens'), path).toBe(false);
    expect(written.get('db/migrations.ts')).toContain("'0002-create-users'");
    expect(written.get('src/server.ts')).toContain("'Authorization: ApiKey <a key of API_KEYS in .env>'");
  });

  it('Edition B: the initializer, the pepper in .env, the token tables before the users, the first token printed at boot', async () => {
    const written = await files(['--edition', 'b']);
    expect(written.has('app/controllers/panel/api/resources/v1/base-resources-controller.ts')).toBe(false);
    expect(written.get('app/panel/initializer.ts')).toContain("import { configurePanelApi } from '@panel/api-tokens';");
    expect(written.get('.env')).toMatch(/^# Local settings \(not committed\)\. The pepper of the API tokens.*\nPANEL_API_TOKEN_PEPPER=the-pepper\n/);
    expect(written.get('.env')).not.toContain('API_KEYS');
    const migrations = written.get('db/migrations.ts')!;
    expect(migrations.indexOf("'0002-create-panel-api-tokens': apiTokensSchemaV1")).toBeLessThan(migrations.indexOf("'0004-create-users'"));
    expect(migrations).toContain("'0003-index-panel-api-token-digests': apiTokensSchemaV2");
    expect(written.get('src/server.ts')).toContain('First API token (shown once, keep it)');
    expect(written.get('src/app.ts')).toContain("import { panelApi } from '../app/panel/initializer.js';");
    expect(written.get('test/api.test.ts')).toContain('Bearer ${secret}');
  });

  it('"Edition A does not install @panel/api-tokens" (issue 41): its package.json names it neither from the registry nor from tarballs; Edition B does', async () => {
    const tarballs = Object.fromEntries(PANEL_PACKAGES.map((name) => [name, `file:/packs/${name.slice(1).replace('/', '-')}-0.1.0.tgz`]));
    for (const panel of [REGISTRY, tarballs]) {
      const a = manifest(await files([], panel));
      expect(Object.keys(a.dependencies)).toEqual(['@fastify/cookie', '@panel/api', '@panel/core', '@panel/panel-ui', 'fastify', 'kysely']);
      expect(manifest(await files(['--edition', 'b'], panel)).dependencies['@panel/api-tokens']).toBe(panel['@panel/api-tokens']);
    }
    expect(manifest(await files([], tarballs)).dependencies['@panel/api']).toBe('file:/packs/panel-api-0.1.0.tgz');
  });

  it('TypeScript: tsx for dev and tests, tsc for the build, its devDependencies; the manifest is private ESM named after the folder', async () => {
    const pkg = manifest(await files(['shop'])) as ReturnType<typeof manifest> & { private: boolean; type: string };
    expect(pkg).toMatchObject({ name: 'shop', private: true, type: 'module' });
    expect(pkg.scripts).toEqual({ dev: 'panel-api dev', start: 'node dist/src/server.js', build: 'tsc -p tsconfig.json', test: 'node --import tsx --test test/api.test.ts', 'panel-api': 'panel-api' });
    expect(Object.keys(pkg.devDependencies)).toEqual(['@panel/api-cli', '@types/node', 'tsx', 'typescript']);
  });

  it('"JavaScript": the same files as .js without a type annotation, no tsconfig.json, plain Node scripts', async () => {
    for (const edition of ['a', 'b']) {
      const written = await files(['--language', 'js', '--edition', edition]);
      expect([...written.keys()].filter((path) => path.endsWith('.ts') || path === 'tsconfig.json')).toEqual([]);
      expect(written.has('src/server.js')).toBe(true);
      for (const [path, text] of written) {
        if (!path.endsWith('.js')) continue;
        expect(text, path).not.toMatch(/^import type |: Kysely<any>|: Promise<|\boverride |: PanelDatabase|: FastifyInstance|\w!\./m);
        expect(text, path).not.toMatch(/from '[^']+\.ts'/);
      }
      expect(manifest(written).scripts).toMatchObject({ start: 'node src/server.js', test: 'node --test test/api.test.js', build: 'node --check src/server.js && node --check src/app.js' });
      expect(written.get('README.md')).not.toMatch(/\w\.ts\b/);
    }
  });

  it('the README says how this app is run and authenticated: the edition\'s credential, the language\'s scripts, the next steps; .gitignore keeps secrets and data out', async () => {
    const a = (await files(['shop'])).get('README.md')!;
    expect(a.startsWith('# shop\n\nA [Panel API](https://github.com/panel-api/panel-api) app: two resources')).toBe(true);
    expect(a).toContain('Send a key of `API_KEYS` (in `.env`) as `Authorization: ApiKey <key>`.');
    expect(a).toContain('| `npm run dev` | `panel-api dev`: the server under tsx,');
    expect(a).toContain('Change the keys in `.env` (`API_KEYS`, comma-separated)');
    const b = (await files(['shop', '--edition', 'b', '--language', 'js'])).get('README.md')!;
    expect(b).toContain('app (Edition B: built-in tokens and grants)');
    expect(b).toContain('send it as `Authorization: Bearer <token>`');
    expect(b).toContain(', then open API Tokens.');
    expect(b).toContain('| `npm run dev` | `panel-api dev`: the server under Node,');
    expect(b).toContain('check that the modules parse (JavaScript: nothing to compile)');
    expect(b).toContain('npm run panel-api -- token create --name ci --grant books:index,books:show');
    for (const written of [await files(), await files(['--language', 'js'])]) expect(written.get('.gitignore')).toBe('node_modules/\ndist/\ndata/\nstorage/\n.env\n');
  });

  it('"--database <postgres url> goes to .env as DATABASE_URL, the README says so"; without it the README names data/pglite', async () => {
    const postgres = await files(['--database', 'postgres://u@h:5432/shop']);
    expect(postgres.get('.env')!.endsWith('# The PostgreSQL database (without it: the embedded PGlite in data/pglite).\nDATABASE_URL=postgres://u@h:5432/shop\n')).toBe(true);
    expect(postgres.get('README.md')).toContain('on the PostgreSQL database `DATABASE_URL` names');
    const pglite = await files();
    expect(pglite.get('.env')).not.toContain('DATABASE_URL');
    expect(pglite.get('README.md')).toContain('on the embedded PGlite database, kept in\n`data/pglite`');
  });
});

describe('main: the answers that need no install', () => {
  let work: string;
  let out: string[];
  let err: string[];
  const cwd = process.cwd();
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'panel-create-app-main-'));
    process.chdir(work);
  });
  afterAll(async () => {
    process.chdir(cwd);
    await rm(work, { recursive: true, force: true });
  });
  const run = async (argv: string[]) => {
    out = [];
    err = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void out.push(args.join(' ')));
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void err.push(args.join(' ')));
    return main(argv);
  };
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('--help prints the usage and exits 0; a usage error prints its message and exits 1', async () => {
    expect(await run(['--help'])).toBe(0);
    expect(out).toEqual([USAGE]);
    expect(await run(['--yes', '--edition', 'z'])).toBe(1);
    expect(err).toEqual(['--edition must be a or b, instead got "z".']);
  });

  it('"--no-install writes the files only": every file of appFiles, the count and edition, then the next steps and where the key and the admin password are', async () => {
    expect(await run(['shop', '--yes', '--no-install', '--edition', 'b'])).toBe(0);
    expect((await readdir(join(work, 'shop'), { recursive: true })).filter((entry) => entry.includes('.'))).toContain(join('app', 'panel', 'initializer.ts'));
    expect(out[0]).toBe('✓ Wrote 13 files to shop (Edition B)');
    expect(out[1]).toBe('\nDone. Next:\n  cd shop\n  npm install\n  npm run panel-api -- generate\n  npm run dev');
    expect(out[2]).toBe(`The first boot prints the first API token, once. The panel: /panel/login, as admin@example.com with the password in ${join('shop', '.env')} (PANEL_ADMIN_PASSWORD).`);
    const env = await readFile(join(work, 'shop', '.env'), 'utf8');
    // The secrets are random, fresh per app: a 64-hex-digit pepper.
    expect(env).toMatch(/^PANEL_API_TOKEN_PEPPER=[0-9a-f]{64}$/m);
    expect(await run(['shop-a', '--yes', '--no-install'])).toBe(0);
    expect(out[2]).toBe(`Your API key is in ${join('shop-a', '.env')} (API_KEYS). The panel: /panel/login, as admin@example.com with the password in ${join('shop-a', '.env')} (PANEL_ADMIN_PASSWORD).`);
    expect(await readFile(join(work, 'shop-a', '.env'), 'utf8')).not.toBe(env);
  });

  it('refuses a folder that is not empty, and a --panel-packages folder that does not exist, in one line each, writing nothing', async () => {
    await mkdir(join(work, 'taken'));
    await writeFile(join(work, 'taken', 'keep.txt'), 'mine');
    expect(await run(['taken', '--yes', '--no-install'])).toBe(1);
    expect(err).toEqual([`${join(work, 'taken')} exists and is not empty. Fix: choose another folder name, or empty that folder.`]);
    expect(await readdir(join(work, 'taken'))).toEqual(['keep.txt']);
    expect(await run(['fresh', '--yes', '--no-install', '--panel-packages', 'missing'])).toBe(1);
    expect(err).toEqual([`--panel-packages ${join(work, 'missing')}: no such folder. Fix: run npm run pack:all in a clone of the Panel API repository, and pass its packs/ folder.`]);
    expect(await readdir(work)).not.toContain('fresh');
  });
});
