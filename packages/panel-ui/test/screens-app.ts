import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { createPanel, field, Resource, runMigrations, runPanelMigrations, type Panel, type PanelDatabase } from '@panel/core';
import { ApiTokenService, apiTokensSchemaV1, configurePanelApi, type ManageTokensIf } from '@panel/api-tokens';
import { panelScreens, type PanelScreensOptions } from '../src/index.js';

/** The screens' test pepper (32+ characters, as the token service requires). */
export const PEPPER = 'panel-ui-test-pepper-0123456789abcdef';
/** The session secret of the screens' test panel. */
export const SESSION_SECRET = 'panel-ui-test-session-secret-0123456789';

/** A post: the sidebar labels it "Blog posts" from its route key. */
export class BlogPostResource extends Resource {
  fields() {
    return [field.id(), field.text('title')];
  }
}

/** A category: two words in its route key, "Product categories". */
export class ProductCategoryResource extends Resource {
  fields() {
    return [field.id(), field.text('name')];
  }
}

/** Creates the screens' tables once per database: users (with credential columns), posts, categories, the panel's and the tokens' tables. */
export async function prepareScreensDatabase(database: PanelDatabase): Promise<void> {
  const { db } = database;
  await db.schema.createTable('users').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('name', 'text').addColumn('email', 'text')
    .addColumn('admin', 'boolean', (c) => c.notNull().defaultTo(false)).addColumn('password_digest', 'text').addColumn('api_secret', 'text').execute();
  for (const table of ['blog_posts', 'product_categories']) {
    await db.schema.createTable(table).addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity()).addColumn(table === 'blog_posts' ? 'title' : 'name', 'text').execute();
  }
  await db.insertInto('users').values([
    { id: 1, name: 'Ada Admin', email: 'ada@example.com', admin: true, password_digest: 'scrypt$digest', api_secret: 'top-secret' },
    { id: 2, name: 'Rita Reader', email: 'rita@example.com', admin: false },
    { id: 3, name: '', email: 'nameless@example.com', admin: true },
    { id: 4, name: null, email: null, admin: true },
  ]).execute();
  await runPanelMigrations(database);
  await runMigrations(database, { '20261122000000-create-panel-api-tokens': apiTokensSchemaV1 });
}

/** What a screens test drives: the app, its panel and token service, and a way to sign a user in. */
export interface ScreensApp {
  readonly app: FastifyInstance;
  readonly panel: Panel;
  readonly tokens: ApiTokenService;
  /** A session cookie for `userId`, with its CSRF token; `confirmed: false` makes it older than the sudo window. */
  signIn(userId: number, options?: { confirmed?: boolean }): Promise<{ cookie: string; csrf: string }>;
  close(): Promise<void>;
}

/** The admins-only gate most tests use. */
export const adminsOnly: ManageTokensIf = (user) => (user as { admin?: boolean } | null)?.admin === true;

/**
 * A Fastify app with cookies and `panelScreens` over a two-resource panel, on `database`
 * (prepared by `prepareScreensDatabase`). `clock.offset` moves the sessions' clock.
 */
export async function buildScreensApp(
  database: PanelDatabase,
  options: { rootPath?: string; gate?: ManageTokensIf; screens?: Partial<PanelScreensOptions>; clock?: { offset: number } } = {},
): Promise<ScreensApp> {
  const clock = options.clock ?? { offset: 0 };
  const panel = await createPanel({
    database,
    resources: [BlogPostResource, ProductCategoryResource],
    sessionSecret: SESSION_SECRET,
    session: { now: () => Date.now() + clock.offset },
    ...(options.rootPath ? { rootPath: options.rootPath } : {}),
  });
  const tokens = new ApiTokenService({ database, pepper: PEPPER, resources: ['blog_posts', 'product_categories'], env: {} });
  const panelApi = configurePanelApi({ pepper: PEPPER, manageTokensIf: options.gate ?? adminsOnly });
  const app = Fastify();
  await app.register(fastifyCookie);
  await app.register(panelScreens, { panel, tokens, panelApi, ...options.screens });
  await app.ready();
  return {
    app,
    panel,
    tokens,
    async signIn(userId, { confirmed = true } = {}) {
      const sessions = panel.sessions!;
      let value = await sessions.start(userId);
      if (!confirmed) {
        const opened = sessions.read(value)!;
        value = sessions.reseal(opened, { confirmedAt: opened.confirmedAt! - sessions.options.confirmWindow - 1 });
      }
      const csrf = (sessions.open(value) as { csrfToken: string }).csrfToken;
      return { cookie: `${panel.config.sessionCookie}=${value}`, csrf };
    },
    close: () => app.close(),
  };
}

/** An `application/x-www-form-urlencoded` body. */
export const form = (fields: readonly (readonly [string, string])[]) => new URLSearchParams(fields as [string, string][]).toString();

/** The content type of a posted form. */
export const FORM = { 'content-type': 'application/x-www-form-urlencoded' } as const;
