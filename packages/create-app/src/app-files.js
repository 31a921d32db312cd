// @ts-check
// Over 250 lines: the new app's files are its text, one function per file, read top to bottom like the app.
// Edition A authenticates `Authorization: ApiKey <key>` against API_KEYS; Edition B serves
// built-in Bearer tokens (the first one printed once at the first boot). Both serve the panel:
// sign-in as the seeded admin, then the shell's home (and, in Edition B, the token screens).

/** @typedef {import('./options.js').CreateOptions} CreateOptions */

/**
 * @param {CreateOptions} options
 * @param {Record<string, string>} panel the `@panel/*` dependency specifiers, by name
 */
function packageJson(options, panel) {
  // Edition B only: @panel/api-tokens is an extension of @panel/api and @panel/panel-ui, which never need it.
  const tokens = options.edition === 'b';
  const dependencies = {
    '@fastify/cookie': '^11',
    '@panel/api': panel['@panel/api'],
    ...(tokens ? { '@panel/api-tokens': panel['@panel/api-tokens'] } : {}),
    '@panel/core': panel['@panel/core'],
    '@panel/panel-ui': panel['@panel/panel-ui'],
    fastify: '^5',
    kysely: '^0.28',
  };
  const js = options.language === 'js';
  const manifest = {
    name: options.name,
    version: '0.1.0',
    private: true,
    type: 'module',
    engines: { node: '>=20.12' },
    scripts: js
      ? {
          dev: 'panel-api dev',
          start: 'node src/server.js',
          // JavaScript: nothing to compile; the build checks that the server's modules parse.
          build: 'node --check src/server.js && node --check src/app.js',
          test: 'node --test test/api.test.js',
          'panel-api': 'panel-api',
        }
      : {
          dev: 'panel-api dev',
          start: 'node dist/src/server.js',
          build: 'tsc -p tsconfig.json',
          test: 'node --import tsx --test test/api.test.ts',
          'panel-api': 'panel-api',
        },
    dependencies,
    devDependencies: js
      ? { '@panel/api-cli': panel['@panel/api-cli'] }
      : { '@panel/api-cli': panel['@panel/api-cli'], '@types/node': '^20.19.25', tsx: '^4.23.15', typescript: '^7.0.2' },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

const TSCONFIG = `{
  "compilerOptions": {
    "target": "es2022",
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "strict": true,
    "skipLibCheck": true,
    "types": ["node"],
    "rootDir": ".",
    "outDir": "dist"
  },
  "include": ["app", "db", "src"]
}
`;

const AUTHOR = `import { Resource, field } from '@panel/core';

/** A writer. Resource name \`Author\`: route key \`authors\`, body key \`author\`. */
export default class AuthorResource extends Resource {
  static override title = 'name';

  override fields() {
    return [field.id(), field.text('name', { required: true }), field.hasMany('books')];
  }
}
`;

const BOOK = `import { Resource, field } from '@panel/core';

/** A book and its author. Resource name \`Book\`: route key \`books\`, body key \`book\`. */
export default class BookResource extends Resource {
  static override title = 'title';

  override fields() {
    return [
      field.id(),
      field.text('title', { required: true }),
      field.integer('pages'),
      field.belongsTo('author'),
      field.datetime('created_at', { hideOn: ['new', 'edit'] }),
    ];
  }
}
`;

/** @param {CreateOptions} options */
function migrations(options) {
  const tokens = options.edition === 'b';
  return `${tokens ? "import { apiTokensSchemaV1, apiTokensSchemaV2 } from '@panel/api-tokens';\n" : ''}import { sql, type Kysely } from 'kysely';
import type { Migration } from '@panel/core';

/** The app's migrations, run in name order at boot (src/app.ts); add new ones at the end. */
export const migrations: Record<string, Migration> = {
  '0001-create-authors-and-books': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('authors')
        .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
        .addColumn('name', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('books')
        .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('pages', 'integer')
        .addColumn('author_id', 'integer', (c) => c.references('authors.id'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql\`now()\`))
        .execute();
    },
  },${tokens ? `\n  // Edition B: the tables of the built-in tokens and their grants, and the unique index on token digests.\n  '0002-create-panel-api-tokens': apiTokensSchemaV1,\n  '0003-index-panel-api-token-digests': apiTokensSchemaV2,` : ''}
  // The panel's users: who signs in to the panel${tokens ? ' (admin: true manages the tokens)' : ''}.
  '${tokens ? '0004' : '0002'}-create-users': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_digest', 'text', (c) => c.notNull())
        .addColumn('admin', 'boolean', (c) => c.notNull().defaultTo(false))
        .execute();
    },
  },
};
`;
}

/** The seed, the same in both editions. */
function seedModule() {
  return `import { hashPassword, type Panel } from '@panel/core';

/**
 * Two authors and three books, when there are no authors yet. The panel's admin,
 * admin@example.com, with the password PANEL_ADMIN_PASSWORD (.env), when there are no users yet.
 * It is given the panel, so that it can attach files too, their bytes in storage and their rows
 * together: give Book a \`field.file('cover')\`, then
 * \`await panel.attachments.attach({ resource: 'Book', id, field: 'cover', filename: 'cover.png', contentType: 'image/png', bytes })\`.
 */
export async function seed(panel: Panel): Promise<void> {
  const { db } = panel.database;
  const password = process.env.PANEL_ADMIN_PASSWORD;
  if (password && (await db.selectFrom('users').select('id').limit(1).execute()).length === 0) {
    await db.insertInto('users').values({ name: 'Admin', email: 'admin@example.com', password_digest: await hashPassword(password), admin: true }).execute();
  }
  if ((await db.selectFrom('authors').select('id').limit(1).execute()).length > 0) return;
  const [leGuin, calvino] = await db.insertInto('authors').values([{ name: 'Ursula K. Le Guin' }, { name: 'Italo Calvino' }]).returning('id').execute();
  await db
    .insertInto('books')
    .values([
      { title: 'The Dispossessed', pages: 387, author_id: leGuin!.id },
      { title: 'The Left Hand of Darkness', pages: 304, author_id: leGuin!.id },
      { title: 'Invisible Cities', pages: 165, author_id: calvino!.id },
    ])
    .execute();
}
`;
}

const INITIALIZER = `import { configurePanelApi } from '@panel/api-tokens';

/**
 * Panel API, Edition B: built-in Bearer tokens with per-token grants. The pepper comes from
 * PANEL_API_TOKEN_PEPPER (in .env). The panel's admins manage tokens in the panel's screens
 * (@panel/panel-ui, at /panel/api_tokens).
 */
export const panelApi = configurePanelApi({ manageTokensIf: (user) => (user as { admin?: boolean } | null)?.admin === true });
`;

/** @param {CreateOptions} options */
function appModule(options) {
  const tokens = options.edition === 'b';
  return `import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { createPanel, hashPassword, openDatabase, runMigrations, runPanelMigrations, verifyPassword, type PanelDatabase } from '@panel/core';
import { mountPanelApi, mountPanelAttachments, panelServerOptions } from '@panel/api';
import { panelAccountPages, panelScreens, securePanelPages } from '@panel/panel-ui';
import { migrations } from '../db/migrations.js';
import { seed } from '../db/seed.js';${tokens ? "\nimport { panelApi } from '../app/panel/initializer.js';" : ''}

/** The folder holding app/: the project root under tsx, dist/ once built. */
const appRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The app's database, migrated (\`buildApp\` seeds it): PostgreSQL when DATABASE_URL is set, else the
 * embedded PGlite, kept in PGLITE_DATA_DIR (default data/pglite), or in memory with \`inMemory\`.
 */
export async function openAppDatabase(options: { inMemory?: boolean } = {}): Promise<PanelDatabase> {
  const url = process.env.DATABASE_URL || undefined;
  const dataDir = url || options.inMemory ? undefined : (process.env.PGLITE_DATA_DIR ?? 'data/pglite');
  const database = await openDatabase({ url, dataDir });
  await runPanelMigrations(database);
  await runMigrations(database, migrations);
  return database;
}

/** The server: Panel API under /api, its OpenAPI document and reference page, the files' URLs, and the panel under /panel; the database seeded through the panel. */
export async function buildApp(options: { database: PanelDatabase; logger?: boolean }): Promise<FastifyInstance> {
  const panel = await createPanel({ database: options.database, appRoot, sessionSecret: process.env.PANEL_SESSION_SECRET });
  await seed(panel);
  const app = Fastify(panelServerOptions({ logger: options.logger ?? false }));
  // Every answer under /panel (the sign-in page, the panel's screens, the not-found 404) gets the screens' security headers.
  securePanelPages(app, { rootPath: panel.config.rootPath });
  await app.register(fastifyCookie);
  // /api/resources/v1/..., its OpenAPI document and the interactive reference page (/api/resources/v1/docs).
  await app.register(mountPanelApi, { panel${tokens ? ', extensions: [panelApi]' : ''}, openapi: { docs: true } });
  await app.register(mountPanelAttachments, { panel${tokens ? ', extensions: [panelApi]' : ''} }); // /panel/attachments/...
  // The panel: sign-in, password confirmation, security (/panel/login, /panel/confirm, /panel/security) ...
  await app.register(panelAccountPages, {
    panel,
    checkCredentials: async (email, password) => {
      const user = await panel.database.db.selectFrom('users').select(['id', 'password_digest']).where('email', '=', email.trim()).executeTakeFirst();
      // An unknown email costs the same password check as a wrong password.
      const matches = await verifyPassword(password, user?.password_digest ?? (await unknownUserDigest));
      return user && matches ? Number(user.id) : null;
    },
    emailOf: async (id) => (await panel.database.db.selectFrom('users').select(['email']).where('id', '=', id).executeTakeFirst())?.email,
  });
  ${tokens ? "// ... and the shell with the API token and default permissions screens (/panel, /panel/api_tokens), for admins.\n  await app.register(panelScreens, { panel, extensions: [panelApi], home: true });" : '// ... and the shell with its home screen (/panel).\n  await app.register(panelScreens, { panel, home: true });'}
  return app;
}

/** A digest no password matches, checked for an unknown email. */
const unknownUserDigest = hashPassword(randomBytes(16).toString('hex'));
`;
}

/** @param {CreateOptions} options */
function serverModule(options) {
  const tokens = options.edition === 'b';
  const firstToken = tokens
    ? `
// Edition B: the first token, with every grant, printed once (its secret is never stored).
const service = app.panelApiTokens!;
if ((await service.list()).length === 0) {
  const resources = ['authors', 'books'];
  const { secret } = await service.create({ name: 'first', grants: resources.flatMap((resource) => GRANT_VERBS.map((verb) => \`\${resource}:\${verb}\`)) });
  console.log(\`First API token (shown once, keep it): \${secret}\`);
}
`
    : '';
  const hint = tokens ? "'Authorization: Bearer <token>'" : "'Authorization: ApiKey <a key of API_KEYS in .env>'";
  return `import { existsSync } from 'node:fs';
import { closeOnSignals } from '@panel/api';
import { databaseSetupProblem } from '@panel/core';${tokens ? "\nimport { GRANT_VERBS } from '@panel/api-tokens';" : ''}
import { buildApp, openAppDatabase } from './app.js';

// Settings from .env (written by the scaffolder; keep it out of git), under those of the environment.
if (existsSync('.env')) process.loadEnvFile('.env');

let database;
try {
  database = await openAppDatabase();
} catch (error) {
  // A missing database, a server that refuses connections, a wrong password: one line and the fix.
  const problem = databaseSetupProblem(error);
  if (problem === undefined) throw error;
  console.error(problem);
  process.exit(1);
}
const app = await buildApp({ database, logger: process.env.LOG_REQUESTS === '1' });
${firstToken}
// Ctrl-C, and npm run dev before a restart (SIGTERM): the server closes, then the database
// (a second signal, such as the one tsx passes on, cannot cut the close short).
closeOnSignals({ app, database });
const address = await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' });
console.log(\`${options.name} API on \${address}\`);
console.log(\`  curl -H ${hint} \${address}/api/resources/v1/books\`);
console.log(\`  API reference: \${address}/api/resources/v1/docs\`);
console.log(\`  Panel: \${address}/panel/login (admin@example.com, the password PANEL_ADMIN_PASSWORD in .env)\`);
`;
}

const BASE_CONTROLLER_A = `import { secretsEqual } from '@panel/core';
import { AuthenticationError, NotAuthorizedError, ResourcesController } from '@panel/api';

/** The base of every generated v1 controller: \`Authorization: ApiKey <key>\`, a key of API_KEYS. */
export class BaseResourcesController extends ResourcesController {
  static {
    // A refused policy answers 403 JSON instead of the panel's 302 to /panel.
    this.rescueFrom(NotAuthorizedError, function () {
      return this.render(403, { error: 'Forbidden' });
    });
  }

  /** Accepts \`Authorization: ApiKey <key>\` for any key of API_KEYS (comma-separated), compared in constant time; else 401. */
  override async setupAuthentication(): Promise<void> {
    const keys = (process.env.API_KEYS ?? '').split(',').map((key) => key.trim()).filter((key) => key !== '');
    const presented = /^ApiKey (\\S+)$/.exec(this.request.headers.authorization ?? '')?.[1];
    if (presented === undefined || !keys.some((key) => secretsEqual(presented, key))) throw new AuthenticationError();
  }
}
`;

/** @param {CreateOptions} options */
function apiTest(options) {
  const tokens = options.edition === 'b';
  return `import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { PanelDatabase } from '@panel/core';
import { buildApp, openAppDatabase } from '../src/app.js';

let database: PanelDatabase;
let app: FastifyInstance;
${tokens ? "process.env.PANEL_API_TOKEN_PEPPER = 'a-test-pepper-of-at-least-32-characters';\n" : "process.env.API_KEYS = 'test-key';\n"}process.env.PANEL_SESSION_SECRET = 'a-test-session-secret-of-at-least-32-characters';

before(async () => {
  delete process.env.DATABASE_URL;
  database = await openAppDatabase({ inMemory: true });
  app = await buildApp({ database });
});

after(async () => {
  await app?.close();
  await database?.close();
});

test('lists the seeded books to an authenticated client', async () => {
${tokens ? "  const { secret } = await app.panelApiTokens!.create({ name: 'test', grants: ['books:index'] });\n  const answer = await app.inject({ url: '/api/resources/v1/books', headers: { authorization: `Bearer ${secret}` } });" : "  const answer = await app.inject({ url: '/api/resources/v1/books', headers: { authorization: 'ApiKey test-key' } });"}
  assert.equal(answer.statusCode, 200);
  assert.equal(answer.json().pagination.total_count, 3);
});

test('refuses a request without credentials with 401', async () => {
  const answer = await app.inject({ url: '/api/resources/v1/books' });
  assert.equal(answer.statusCode, 401);
});

test("serves the panel's sign-in page", async () => {
  const answer = await app.inject({ url: '/panel/login' });
  assert.equal(answer.statusCode, 200);
  assert.match(String(answer.headers['content-security-policy']), /frame-ancestors 'none'/);
});
`;
}

/** @param {CreateOptions} options */
function readme(options) {
  const tokens = options.edition === 'b';
  return `# ${options.name}

A [Panel API](https://github.com/panel-api/panel-api) app${tokens ? ' (Edition B: built-in tokens and grants)' : ''}: two resources, authors and books,
served as a JSON REST API, and the panel.

\`\`\`sh
npm run dev
\`\`\`

serves it on http://127.0.0.1:3000 (\`PORT\` changes it) ${options.databaseUrl === undefined ? 'on the embedded PGlite database, kept in\n`data/pglite`' : 'on the PostgreSQL database `DATABASE_URL` names\n(in `.env`)'}, migrated and seeded at boot. ${tokens ? 'The first boot prints the first API token once; send it as `Authorization: Bearer <token>`.' : 'Send a key of `API_KEYS` (in `.env`) as `Authorization: ApiKey <key>`.'}
The API reference is at \`/api/resources/v1/docs\`. \`DATABASE_URL=postgres://…\` runs it on
PostgreSQL (a missing database is one line naming the fix, \`createdb <name>\`).
The panel: sign in at \`/panel/login\` as \`admin@example.com\` with the password
\`PANEL_ADMIN_PASSWORD\` of \`.env\` (the first boot creates that user)${tokens ? ', then open API Tokens' : ''}.

| script | what |
|---|---|
| \`npm run dev\` | \`panel-api dev\`: the server ${options.language === 'js' ? 'under Node' : 'under tsx'}, restarted when a file of \`app/\`, \`src/\` or \`db/\` changes (a new resource too: its controller is generated first, an existing file is never touched); a mistake in a resource is printed with its file:line and fix, and the server keeps serving the last good version |
| \`npm test\` | the app's test (\`test/api.test.ts\`: the API and the panel's sign-in page), on an in-memory database |
| \`npm run build\`, \`npm start\` | ${options.language === 'js' ? 'check that the modules parse (JavaScript: nothing to compile), run the server' : 'compile to \`dist/\`, run it with plain Node'} |
| \`npm run panel-api -- generate\` | the controllers of new resources (\`-- --check\` in CI) |

## Next steps

1. Add a resource in \`app/panel/resources/\`, its table in \`db/migrations.ts\`, then
   \`npm run panel-api -- generate\` for its controller.
2. ${tokens ? 'Manage tokens in the panel (API Tokens), or on the command line: `npm run panel-api -- token create --name ci --grant books:index,books:show` (the server may keep running: on PGlite the command reaches the database through it).' : 'Change the keys in `.env` (`API_KEYS`, comma-separated), or replace `setupAuthentication` in `app/controllers/panel/api/resources/v1/base-resources-controller.ts`.'}
3. Read the guide: resources, authorization, configuration.
`;
}

/**
 * @param {CreateOptions} options
 * @param {{ apiKey: string; pepper: string; sessionSecret: string; adminPassword: string }} secrets
 */
function dotenv(options, secrets) {
  const settings =
    (options.edition === 'b'
      ? `# Local settings (not committed). The pepper of the API tokens: keep it secret, and the same across restarts.\nPANEL_API_TOKEN_PEPPER=${secrets.pepper}\n`
      : `# Local settings (not committed). The API keys the server accepts, comma-separated.\nAPI_KEYS=${secrets.apiKey}\n`) +
    `# The key sealing the panel's session cookies.\nPANEL_SESSION_SECRET=${secrets.sessionSecret}\n` +
    `# The password of the panel's admin, admin@example.com (set when the first boot creates the user).\nPANEL_ADMIN_PASSWORD=${secrets.adminPassword}\n`;
  return options.databaseUrl === undefined ? settings : `${settings}# The PostgreSQL database (without it: the embedded PGlite in data/pglite).\nDATABASE_URL=${options.databaseUrl}\n`;
}

const GITIGNORE = `node_modules/
dist/
data/
storage/
.env
`;

// The JavaScript app is the TypeScript app without its types: the scaffolder writes one set of
// files and erases the few type annotations they use here, by rules made for exactly these files
// (no TypeScript compiler at scaffold time: the scaffolder has no dependencies). The scaffolder's
// test runs the JavaScript app (npm test, npm run dev), so a rule that misses fails there.

/** @type {readonly [RegExp, string][]} */
const ERASE = [
  [/^import type [^;]+;\n/gm, ''],
  [/^import (\w+), \{ type \w+ \} from/gm, 'import $1 from'],
  [/, type \w+(?=[ ,}])/g, ''],
  [/\{ type (\w+), /g, '{ '],
  [/import \{ type \w+ \} from '[^']+';\n/g, ''],
  [/\boverride /g, ''],
  [/: Record<string, Migration>/g, ''],
  [/\((\w+): Kysely<any>\)/g, '($1)'],
  [/\): Promise<[\w<>]+>/g, ')'],
  [/options: \{ inMemory\?: boolean \} = \{\}/g, 'options = {}'],
  [/options: \{ database: PanelDatabase; logger\?: boolean \}/g, 'options'],
  [/\(user as \{ admin\?: boolean \} \| null\)\?\.admin/g, 'user?.admin'],
  [/(\w)!(?=[.;,) ])/g, '$1'],
  [/^let (\w+): \w+;$/gm, 'let $1;'],
  [/\((\w+): [A-Z]\w*\)/g, '($1)'],
  // The files the comments name.
  [/(\w)\.ts\b/g, '$1.js'],
  [/the project root under tsx, dist\/ once built/g, 'the project root'],
];

/**
 * `source`, a TypeScript file of the new app, as JavaScript.
 *
 * @param {string} source
 * @returns {string}
 */
function javascriptOf(source) {
  return ERASE.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), source).replace(/^\n+/, '');
}

/**
 * Every file of the new app, by path relative to its folder. The resource controllers are the
 * generator's (`panel-api generate`, run after the install); Edition A's base controller is
 * written here, with its API-key check.
 *
 * @param {CreateOptions} options
 * @param {Record<string, string>} panel the `@panel/*` dependency specifiers, by name
 * @param {{ apiKey: string; pepper: string; sessionSecret: string; adminPassword: string }} secrets
 * @returns {Map<string, string>}
 */
export function appFiles(options, panel, secrets) {
  const files = new Map([
    ['package.json', packageJson(options, panel)],
    ['tsconfig.json', TSCONFIG],
    ['.gitignore', GITIGNORE],
    ['.env', dotenv(options, secrets)],
    ['README.md', readme(options)],
    ['app/panel/resources/author.ts', AUTHOR],
    ['app/panel/resources/book.ts', BOOK],
    ['db/migrations.ts', migrations(options)],
    ['db/seed.ts', seedModule()],
    ['src/app.ts', appModule(options)],
    ['src/server.ts', serverModule(options)],
    ['test/api.test.ts', apiTest(options)],
  ]);
  if (options.edition === 'a') files.set('app/controllers/panel/api/resources/v1/base-resources-controller.ts', BASE_CONTROLLER_A);
  else files.set('app/panel/initializer.ts', INITIALIZER);
  if (options.language !== 'js') return files;
  // JavaScript: the same files without their types, named .js; no tsconfig.json.
  return new Map(
    [...files]
      .filter(([path]) => path !== 'tsconfig.json')
      .map(([path, text]) => (path.endsWith('.ts') ? [path.replace(/\.ts$/, '.js'), javascriptOf(text)] : [path, path === 'README.md' ? javascriptOf(text) : text])),
  );
}
