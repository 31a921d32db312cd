// The app the scaffolder writes, run in this process without an install (issue 41, item 5: "test
// its pure functions ... directly, quickly"): appFiles' files in a folder of the repository (so
// @panel/* resolve to the workspace), the controllers from `panel-api generate` (runCli), then
// the generated buildApp on an in-memory PGlite, asked what the generated test asks and a little
// more. create-app.test.ts does the same from the packed tarballs, through npm, in minutes.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '@panel/api-cli';

type Files = Map<string, string>;
const source = (file: string) => new URL(`../src/${file}`, import.meta.url).href;
const { appFiles } = (await import(source('app-files.js'))) as { appFiles(options: object, panel: Record<string, string>, secrets: Record<string, string>): Files };
const { panelSpecifiers } = (await import(source('panel-packages.js'))) as { panelSpecifiers(version: string, folder: string | undefined): Record<string, string> };

const HERE = fileURLToPath(new URL('.', import.meta.url));
const SECRETS = { apiKey: 'unit-api-key', pepper: 'unit-pepper-of-at-least-32-characters-0123', sessionSecret: 'unit-session-secret-of-at-least-32-characters', adminPassword: 'unit-admin-password' };
const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

interface ScaffoldedApp {
  readonly app: FastifyInstance;
  close(): Promise<void>;
}

interface GeneratedApp {
  openAppDatabase(options?: { inMemory?: boolean }): Promise<{ db: { selectFrom(table: string): { select(column: string): { execute(): Promise<unknown[]> } } }; close(): Promise<void> }>;
  buildApp(options: { database: unknown }): Promise<FastifyInstance>;
}

/** Writes the app of `edition` in `language` (PGlite), generates its controllers, and imports its src/app module. */
async function generatedApp(edition: 'a' | 'b', language: 'ts' | 'js' = 'ts', edit: (files: Files) => void = () => {}): Promise<{ directory: string; generated: GeneratedApp }> {
  const directory = await mkdtemp(join(HERE, `.tmp-app-${edition}-${language}-`));
  made.push(directory);
  const files = appFiles({ directory, name: `unit-${edition}`, edition, install: false, databaseUrl: undefined, language, panelPackages: undefined }, panelSpecifiers('0.1.0', undefined), SECRETS);
  edit(files);
  for (const [path, text] of files) {
    await mkdir(dirname(join(directory, path)), { recursive: true });
    await writeFile(join(directory, path), text);
  }
  const out: string[] = [];
  expect(await runCli(['generate', '--root', directory], { out: (line) => out.push(line), err: (line) => out.push(line) }), out.join('\n')).toBe(0);
  // What .env says, as the generated server would load it.
  process.env.API_KEYS = SECRETS.apiKey;
  process.env.PANEL_API_TOKEN_PEPPER = SECRETS.pepper;
  process.env.PANEL_SESSION_SECRET = SECRETS.sessionSecret;
  process.env.PANEL_ADMIN_PASSWORD = SECRETS.adminPassword;
  return { directory, generated: (await import(join(directory, 'src', `app.${language}`))) as GeneratedApp };
}

/** The app of `edition` in `language`, built on a fresh in-memory database. */
async function scaffold(edition: 'a' | 'b', language: 'ts' | 'js' = 'ts'): Promise<ScaffoldedApp> {
  const { generated } = await generatedApp(edition, language);
  const database = await generated.openAppDatabase({ inMemory: true });
  const app = await generated.buildApp({ database });
  return {
    app,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** A 1×1 PNG: what a seed's cover would hold. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** `text` with `addition` after `anchor` (which it must hold once). */
function after(text: string, anchor: string, addition: string): string {
  expect(text.split(anchor)).toHaveLength(2);
  return text.replace(anchor, `${anchor}${addition}`);
}

describe('the scaffolded app, built in this process', { timeout: 120_000 }, () => {
  it('"The scaffold prints and documents /api/resources/v1/docs": the reference page is served there, in both editions', async () => {
    for (const edition of ['a', 'b'] as const) {
      const { app, close } = await scaffold(edition);
      try {
        const first = await app.inject({ url: '/api/resources/v1/docs' });
        const page = first.statusCode >= 300 && first.statusCode < 400 ? await app.inject({ url: first.headers.location as string }) : first;
        expect(page.statusCode, `Edition ${edition}`).toBe(200);
        expect(page.headers['content-type']).toMatch(/^text\/html/);
        expect((await app.inject({ url: '/api/resources/v1/openapi.json' })).statusCode).toBe(200);
      } finally {
        await close();
      }
    }
  });

  it('Edition A: "API keys from the environment": a key of API_KEYS lists the three seeded books, no key or a wrong one is 401; no token route, no token screens', async () => {
    const { app, close } = await scaffold('a');
    try {
      const books = await app.inject({ url: '/api/resources/v1/books', headers: { authorization: `ApiKey ${SECRETS.apiKey}` } });
      expect(books.statusCode, books.body).toBe(200);
      expect((books.json() as { pagination: { total_count: number } }).pagination.total_count).toBe(3);
      expect((await app.inject({ url: '/api/resources/v1/books' })).statusCode).toBe(401);
      expect((await app.inject({ url: '/api/resources/v1/books', headers: { authorization: 'ApiKey wrong' } })).statusCode).toBe(401);
      expect(app.panelApiRoutes!.some((route) => route.action === 'related')).toBe(false);
      expect((await app.inject({ url: '/panel/api_tokens' })).statusCode).toBe(404);
      const login = await app.inject({ url: '/panel/login' });
      expect(login.statusCode).toBe(200);
      expect(String(login.headers['content-security-policy'])).toMatch(/frame-ancestors 'none'/);
    } finally {
      await close();
    }
  });

  it('Edition B: "built-in tokens and grants": a token with books:index reads the books and nothing else; the OpenAPI document names the token scheme', async () => {
    const { app, close } = await scaffold('b');
    try {
      const service = (app as unknown as { panelApiTokens: { create(input: object): Promise<{ secret: string }> } }).panelApiTokens;
      const { secret } = await service.create({ name: 'unit', grants: ['books:index'] });
      const books = await app.inject({ url: '/api/resources/v1/books', headers: { authorization: `Bearer ${secret}` } });
      expect(books.statusCode, books.body).toBe(200);
      expect((books.json() as { pagination: { total_count: number } }).pagination.total_count).toBe(3);
      expect((await app.inject({ url: '/api/resources/v1/authors', headers: { authorization: `Bearer ${secret}` } })).statusCode).toBe(403);
      expect((await app.inject({ url: '/api/resources/v1/books' })).statusCode).toBe(401);
      const document = (await app.inject({ url: '/api/resources/v1/openapi.json' })).json() as { components: { securitySchemes: Record<string, unknown> } };
      expect(Object.keys(document.components.securitySchemes)).toContain('panelApiToken');
    } finally {
      await close();
    }
  });

  it('"the seeded admin reaches the panel": Edition B\'s admin signs in with PANEL_ADMIN_PASSWORD and manages tokens; a wrong password is 401', async () => {
    const { app, close } = await scaffold('b');
    try {
      const form = { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:80' };
      const signIn = await app.inject({ method: 'POST', url: '/panel/login', headers: form, payload: new URLSearchParams({ email: 'admin@example.com', password: SECRETS.adminPassword }).toString() });
      expect(signIn.statusCode, signIn.body).toBe(303);
      const cookie = signIn.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      const home = await app.inject({ url: '/panel', headers: { cookie } });
      expect(home.statusCode).toBe(200);
      expect(home.body).toContain('Signed in as Admin.');
      // Edition B's screens, registered as the scaffold writes it (panelScreens({ extensions: [panelApi] })).
      expect(home.body).toContain('<h2 id="api-heading">API</h2>');
      expect((await app.inject({ url: '/panel/api_tokens', headers: { cookie } })).statusCode).toBe(200);
      const wrong = await app.inject({ method: 'POST', url: '/panel/login', headers: form, payload: 'email=admin%40example.com&password=wrong' });
      expect(wrong.statusCode).toBe(401);
    } finally {
      await close();
    }
  });

  it('"JavaScript": the .js app, its types erased and its controllers generated as JavaScript, serves the same answers', async () => {
    const { app, close } = await scaffold('a', 'js');
    try {
      const books = await app.inject({ url: '/api/resources/v1/books', headers: { authorization: `ApiKey ${SECRETS.apiKey}` } });
      expect(books.statusCode, books.body).toBe(200);
      expect((books.json() as { pagination: { total_count: number } }).pagination.total_count).toBe(3);
      expect(app.panelApiRoutes!.map((route) => route.file).filter((file) => !file.endsWith('.js'))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('"the scaffold\'s seed able to attach files" (issue 46, item 7): a cover attached as the seed\'s comment says is answered with its URL, and the URL serves the bytes', async () => {
    const { generated } = await generatedApp('a', 'ts', (files) => {
      // The seed's own comment: "give Book a field.file('cover'), then await panel.attachments.attach({ … })".
      const seed = files.get('db/seed.ts')!;
      expect(seed).toContain("give Book a `field.file('cover')`, then\n * `await panel.attachments.attach({ resource: 'Book', id, field: 'cover', filename: 'cover.png', contentType: 'image/png', bytes })`.");
      files.set('app/panel/resources/book.ts', after(files.get('app/panel/resources/book.ts')!, "field.integer('pages'),", "\n      field.file('cover'),"));
      const attach = [
        "  const [first] = await db.selectFrom('books').select('id').orderBy('id').limit(1).execute();",
        `  const bytes = Buffer.from('${PNG}', 'base64');`,
        "  await panel.attachments.attach({ resource: 'Book', id: first!.id, field: 'cover', filename: 'cover.png', contentType: 'image/png', bytes });",
        '',
      ].join('\n');
      files.set('db/seed.ts', after(seed, '    .execute();\n', attach));
    });
    const database = await generated.openAppDatabase({ inMemory: true });
    const app = await generated.buildApp({ database });
    try {
      const headers = { authorization: `ApiKey ${SECRETS.apiKey}` };
      const list = await app.inject({ url: '/api/resources/v1/books?sort_by=id&per_page=1', headers });
      const { id } = (list.json() as { records: { id: number }[] }).records[0]!;
      const shown = await app.inject({ url: `/api/resources/v1/books/${id}`, headers });
      const book = (shown.json() as { record: { cover: { url: string; content_type: string; byte_size: number } | null } }).record;
      expect(book.cover).toMatchObject({ content_type: 'image/png', byte_size: Buffer.from(PNG, 'base64').length });
      const served = await app.inject({ url: book.cover!.url });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(Buffer.from(PNG, 'base64'))).toBe(true);
      // The bytes are in ./storage of the folder the app runs from (createPanel's default), here the repository's (gitignored).
      const key = /^\/panel\/attachments\/([a-z0-9]+)\//.exec(book.cover!.url)![1]!;
      const stored = join(process.cwd(), 'storage', key.slice(0, 2), key.slice(2, 4), key);
      expect(existsSync(stored)).toBe(true);
      await rm(stored);
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('"kept in PGLITE_DATA_DIR": the data survives a restart, and the seed does not add its rows twice', async () => {
    const { directory, generated } = await generatedApp('a');
    process.env.PGLITE_DATA_DIR = join(directory, 'data', 'pglite');
    try {
      for (const boot of [1, 2]) {
        // A boot: the database opened and migrated, then the app built, which seeds it through the panel.
        const database = await generated.openAppDatabase();
        const app = await generated.buildApp({ database });
        try {
          expect(await database.db.selectFrom('books').select('id').execute(), `boot ${boot}`).toHaveLength(3);
          expect(await database.db.selectFrom('users').select('id').execute(), `boot ${boot}`).toHaveLength(1);
        } finally {
          await app.close();
          await database.close();
        }
      }
    } finally {
      delete process.env.PGLITE_DATA_DIR;
    }
  });
});
