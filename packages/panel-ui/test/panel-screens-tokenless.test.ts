// Edition A serves the panel's shell and home without the token service: `panelScreens` without
// `tokens` and `panelApi` mounts the home screen and its assets, never the token screens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { createPanel, isPanelError, type Panel, type PanelDatabase } from '@panel/core';
import { configurePanelApi } from '@panel/api-tokens';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { panelScreens, type PanelScreensOptions } from '../src/index.js';
import { BlogPostResource, PEPPER, ProductCategoryResource, SESSION_SECRET, prepareScreensDatabase } from './screens-app.js';

for (const kind of testDatabaseKinds()) {
  describe(`panelScreens without tokens (Edition A) [${kind}]`, () => {
    let database: PanelDatabase;
    let panel: Panel;
    let app: FastifyInstance;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareScreensDatabase(database);
      panel = await createPanel({ database, resources: [BlogPostResource, ProductCategoryResource], sessionSecret: SESSION_SECRET });
      app = Fastify();
      await app.register(fastifyCookie);
      await app.register(panelScreens, { panel, home: true });
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    const signedIn = async (userId: number) => `${panel.config.sessionCookie}=${await panel.sessions!.start(userId)}`;

    it('serves the home screen inside the shell, with the security headers, to a visitor and to a signed-in admin', async () => {
      const visitor = await app.inject({ method: 'GET', url: '/panel' });
      expect(visitor.statusCode).toBe(200);
      expect(visitor.body).toContain('<h1>Panel</h1>');
      expect(visitor.body).toContain('<a href="/panel/login">Sign in</a> to manage the panel.');
      expect(visitor.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(visitor.headers['cache-control']).toBe('no-store');
      const admin = await app.inject({ method: 'GET', url: '/panel', headers: { cookie: await signedIn(1) } });
      expect(admin.statusCode).toBe(200);
      expect(admin.body).toContain('Signed in as Ada Admin.');
      expect(admin.body).toContain('<li>Blog posts — <code>/api/resources/v1/blog_posts</code></li>');
    });

    it('shows no "API Tokens" entry, even to an admin, and the token and settings URLs do not exist', async () => {
      const cookie = await signedIn(1);
      const home = await app.inject({ method: 'GET', url: '/panel', headers: { cookie } });
      expect(home.body).not.toContain('API Tokens');
      expect(home.body).not.toContain('Default permissions');
      for (const url of ['/panel/api_tokens', '/panel/api_tokens/new', '/panel/panel_api/settings']) {
        expect((await app.inject({ method: 'GET', url, headers: { cookie } })).statusCode, url).toBe(404);
      }
      expect((await app.inject({ method: 'POST', url: '/panel/api_tokens', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=x' })).statusCode).toBe(404);
    });

    it('serves the shell\'s stylesheet', async () => {
      const css = await app.inject({ method: 'GET', url: '/panel/panel_ui/assets/panel.css' });
      expect(css.statusCode).toBe(200);
      expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    });

    /** Registers the screens with `options` and returns the startup error's message, or undefined when the app started. */
    const startupError = async (options: Partial<PanelScreensOptions>, cookies = true): Promise<string | undefined> => {
      const other = Fastify();
      if (cookies) await other.register(fastifyCookie);
      try {
        await other.register(panelScreens, { panel, ...options } as PanelScreensOptions);
        await other.ready();
        return undefined;
      } catch (error) {
        expect(isPanelError(error, 'PANEL_ERR_CONFIG'), String(error)).toBe(true);
        return (error as Error).message;
      } finally {
        await other.close();
      }
    };

    it('without tokens and without home: true fails at startup, naming both fixes (nothing would be served)', async () => {
      expect(await startupError({})).toBe(
        'panelScreens: without tokens there is nothing to serve but the home screen. Fix: pass home: true (Edition A), or tokens and panelApi for the API token screens (Edition B).',
      );
      expect(await startupError({ home: true }, false)).toMatch(/cookies are not parsed\. Fix: await app\.register\(fastifyCookie\)/);
    });

    it('tokens and panelApi go together: one without the other fails at startup naming the missing one', async () => {
      const panelApi = configurePanelApi({ pepper: PEPPER, manageTokensIf: () => true });
      expect(await startupError({ home: true, panelApi })).toMatch(/^panelScreens: the option "tokens" must be an ApiTokenService\./);
    });
  });
}
