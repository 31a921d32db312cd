import { fileURLToPath } from 'node:url';
import { securePanelPages } from '@panel/panel-ui/security';
import Fastify, { type FastifyInstance } from 'fastify';
import { createPanel, type CountStrategyInput, type CreatePanelOptions, diskStorage, openDatabase, policyAuthorization, runMigrations, runPanelMigrations, type OpenDatabaseOptions, type Panel, type PanelDatabase, type SessionOptionsInput, type StorageService } from '@panel/core';
import { apiErrorHandler, mountPanelApi, mountPanelAttachments, panelServerOptions, type MountPanelApiOptions, type PanelServerOptionsInput } from '@panel/api';
import { DEMO_COUNT } from './demo-count.js';
import * as createTables from '../db/migrations/0001-create-tables.js';
import * as addFieldTypeColumns from '../db/migrations/0002-add-field-type-columns.js';
import * as createPanelApiTokens from '../db/migrations/0003-create-panel-api-tokens.js';
import * as indexPanelApiTokenDigests from '../db/migrations/0004-index-panel-api-token-digests.js';
import type { ApiTokenService } from '@panel/api-tokens';
import { panelApi } from '../app/panel/initializer.js';
import { openapi } from '../app/panel/openapi.js';
import { seedDemoTokens } from './demo-tokens.js';
import { seed } from '../db/seed.js';
import { restoreSeedFiles, seedFiles } from '../db/seed-files.js';
import { DEMO_SNAPSHOT_FILE, demoSnapshotKey } from './demo-snapshot.js';
import { randomBytes } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import { panelPages } from './panel-pages.js';
import { markStartupPhase } from './startup-timings.js';

/** The demo's count strategy (`demo-count.ts`). */
export { DEMO_COUNT } from './demo-count.js';

/**
 * The demo's rate limit per credential: far above what its test suites send (a suite makes a
 * few thousand requests with one key at most), so that only the `limited` token's own limit is
 * ever reached; the mount's default is 1000 per 60 s.
 */
export const DEMO_RATE_LIMIT = Object.freeze({ max: 100_000, windowSeconds: 60 });

/** The demo app's root folder (holding `app/`). */
export const APP_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The demo's migrations, by name. */
export const migrations = { '0001-create-tables': createTables, '0002-add-field-type-columns': addFieldTypeColumns, '0003-create-panel-api-tokens': createPanelApiTokens, '0004-index-panel-api-token-digests': indexPanelApiTokenDigests };

/** Edition B's controllers (overrides only; every other resource is served by the catch-all). */
export const EDITION_B_CONTROLLERS_DIR = fileURLToPath(new URL('../app/controllers-edition-b/panel/api/resources', import.meta.url));

/** What the demo app is built from. */
export interface BuildDemoAppOptions {
  /**
   * The database to open: PGlite in memory by default (loaded from the demo's prepared snapshot,
   * `.pglite/demo-snapshot.tar`, made on the first start), PostgreSQL with `url`; or an open
   * database, which is migrated and seeded when it has no users yet.
   */
  database?: OpenDatabaseOptions | PanelDatabase;
  /** Logs: `true` for JSON lines on standard output, or pino options (`{ level, stream }`); default none. */
  logger?: PanelServerOptionsInput['logger'];
  /** Server timeouts over `panelServerOptions()`'s defaults. */
  server?: Omit<PanelServerOptionsInput, 'logger'>;
  /**
   * The secret sealing the panel's session cookie, or a list (the first seals, all open); default
   * `PANEL_SESSION_SECRETS` (comma-separated, newest first) or `PANEL_SESSION_SECRET`, else a random one per process.
   */
  sessionSecret?: string | readonly string[];
  /** The panel session's lifetimes, cookie security, throttle and clock. */
  session?: SessionOptionsInput;
  /** Fastify's `trustProxy`: behind a proxy, `X-Forwarded-Proto: https` makes the session cookie `Secure`. */
  trustProxy?: boolean;
  /** Where attachment bytes live; default `diskStorage` under the demo's `storage/` folder. */
  storage?: StorageService;
  /** Options passed on to `mountPanelApi`. */
  api?: Partial<Omit<MountPanelApiOptions, 'panel'>>;
  /**
   * `'B'` serves the demo in Edition B (`npm run demo:tokens`): the `panelApi` configuration of
   * `app/panel/initializer.ts`, the overrides of `app/controllers-edition-b/`, the demo's tokens
   * and default permissions list. Default `'A'`.
   */
  edition?: 'A' | 'B';
  /**
   * Edition A: serve the panel's screens (`panelScreens`: the shell's home and the resource
   * screens; default true); false leaves them to the caller, which registers its own.
   */
  panelHome?: boolean;
  /**
   * How index pages find `total_count` (the panel's `count` option); default `DEMO_COUNT`, the
   * exact count, reused while the database is unchanged.
   */
  count?: CountStrategyInput;
  /** Edition B: make the demo's tokens at start (default true); a process of a cluster may leave it to another. */
  seedTokens?: boolean;
}

/** The demo app: its Fastify instance, panel and database. */
export interface DemoApp {
  readonly app: FastifyInstance;
  readonly panel: Panel;
  readonly database: PanelDatabase;
  /** Edition B: the demo tokens' secrets by name, made at start (shown only here). */
  readonly tokenSecrets?: ReadonlyMap<string, string>;
  /** Edition B: the token service over the demo's database. */
  readonly tokens?: ApiTokenService;
}

/**
 * Runs the framework's migrations (blobs and attachments) and the demo's, and seeds the rows
 * when there are no users yet; says whether it seeded (then the files are seeded once the
 * panel exists).
 */
export async function prepareDatabase(database: PanelDatabase): Promise<boolean> {
  await runPanelMigrations(database);
  await runMigrations(database, migrations);
  const { count } = await database.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  if (Number(count) !== 0) return false;
  await seed(database.db);
  return true;
}

/** The session secrets of the environment: `PANEL_SESSION_SECRETS` (comma-separated, newest first), else `PANEL_SESSION_SECRET`. */
function secretsFromEnv(env: NodeJS.ProcessEnv = process.env): string | string[] | undefined {
  const list = env.PANEL_SESSION_SECRETS?.split(',').map((s) => s.trim()).filter(Boolean);
  return list && list.length > 0 ? list : env.PANEL_SESSION_SECRET || undefined;
}

/** Whether the options open PGlite in memory from scratch (no server URL, data folder or snapshot of the caller's). */
function inMemoryPglite(options: OpenDatabaseOptions = {}): boolean {
  return !options.url && !options.dataDir && !options.loadDataDir && !options.snapshot;
}

/** Builds the demo: opens, migrates and seeds the database, creates the panel and mounts the API at `/api`. */
export async function buildDemoApp(options: BuildDemoAppOptions = {}): Promise<DemoApp> {
  // The server comes first so that the database reports lost connections in the same logs.
  const app = Fastify({ ...panelServerOptions({ ...options.server, logger: options.logger ?? false }), trustProxy: options.trustProxy ?? false });
  const databaseLogger = options.logger ? { logger: app.log.child({ component: 'database' }) } : {};
  // The demo's own folder, wherever it is started from (an app's default is <current directory>/storage).
  const storage = options.storage ?? diskStorage({ root: fileURLToPath(new URL('../storage', import.meta.url)) });
  const sessionSecret = options.sessionSecret ?? secretsFromEnv() ?? randomBytes(32).toString('hex');
  const panelOptions = (database: PanelDatabase): CreatePanelOptions => ({
    database,
    appRoot: APP_ROOT,
    plugins: [policyAuthorization()],
    authorizationClient: 'policies',
    license: { features: ['api', 'authorization'] },
    sessionSecret,
    ...(options.session ? { session: options.session } : {}),
    count: options.count ?? DEMO_COUNT,
    storage,
  });
  let database: PanelDatabase;
  let seeded = false;
  if (options.database && 'db' in options.database) {
    database = options.database;
    seeded = await prepareDatabase(database);
  } else if (inMemoryPglite(options.database)) {
    // The embedded PGlite starts from a prepared snapshot (migrated, seeded, files attached),
    // made on the first start and again whenever the migrations, seed or resources change.
    database = await openDatabase({
      ...databaseLogger,
      ...options.database,
      snapshot: {
        file: DEMO_SNAPSHOT_FILE,
        key: demoSnapshotKey(),
        prepare: async (fresh) => {
          if (await prepareDatabase(fresh)) await seedFiles(await createPanel(panelOptions(fresh)));
        },
      },
    });
    await restoreSeedFiles(storage);
  } else {
    database = await openDatabase({ ...databaseLogger, ...options.database });
    seeded = await prepareDatabase(database);
  }
  markStartupPhase('database');
  const panel = await createPanel(panelOptions(database));
  markStartupPhase('createPanel');
  if (seeded) await seedFiles(panel);
  markStartupPhase('seedFiles');
  // Every answer under the panel's root (the app's own pages, the screens, the not-found 404) gets the screens' security headers.
  securePanelPages(app, { rootPath: panel.config.rootPath });
  // The server's own answers, outside every Panel scope (no route matched; a body refused before
  // the not-found answer, such as an empty JSON body): JSON that names no internal code.
  app.setErrorHandler(apiErrorHandler({ rootPath: panel.config.rootPath }));
  app.setNotFoundHandler((_request, reply) => reply.code(404).type('application/json; charset=utf-8').send({ error: 'Not Found' }));
  await app.register(fastifyCookie);
  // The API is mounted before the panel's pages and outside their scope: it authenticates itself.
  const editionB = options.edition === 'B';
  const edition = editionB ? { extensions: [panelApi], controllersDir: EDITION_B_CONTROLLERS_DIR } : {};
  await app.register(mountPanelApi, { panel, at: 'api', openapi, rateLimit: DEMO_RATE_LIMIT, ...edition, ...options.api });
  // Attachment URLs are public (Edition A: permanent, unsigned), so they too stay outside the session scope.
  await app.register(mountPanelAttachments, { panel, ...(editionB ? { extensions: [panelApi] } : {}) });
  // The panel's pages around the screens: sign-in, password confirmation, sign-out, security.
  await app.register(panelPages, { panel, home: false });
  if (editionB || (options.panelHome ?? true)) {
    // The panel's screens: the shell's home, the resource screens, and in Edition B the token screens ("API Tokens" for admins).
    const { panelScreens } = await import('@panel/panel-ui');
    await app.register(panelScreens, { panel, ...(editionB ? { extensions: [panelApi] } : {}), home: true });
  }
  markStartupPhase('mount');
  app.addHook('onClose', async () => {
    if (!options.database || !('db' in options.database)) await database.close();
  });
  if (!editionB) return { app, panel, database };
  const tokens = app.panelApiTokens!;
  return { app, panel, database, tokens, tokenSecrets: options.seedTokens === false ? new Map() : await seedDemoTokens(panel, tokens) };
}
