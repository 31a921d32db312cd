import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { Current, createPanel, isPanelError, type Panel, type PanelDatabase } from '@panel/core';
import { ApiTokenService, configurePanelApi } from '@panel/api-tokens';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { panelScreens, type PanelScreensOptions } from '../src/index.js';
import { BlogPostResource, FORM, PEPPER, ProductCategoryResource, SESSION_SECRET, buildScreensApp, form, prepareScreensDatabase } from './screens-app.js';

for (const kind of testDatabaseKinds()) {
  describe(`panelScreens options [${kind}]`, () => {
    let database: PanelDatabase;
    let panel: Panel;
    let tokens: ApiTokenService;
    const panelApi = configurePanelApi({ pepper: PEPPER, manageTokensIf: () => true });
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareScreensDatabase(database);
      panel = await createPanel({ database, resources: [BlogPostResource, ProductCategoryResource], sessionSecret: SESSION_SECRET });
      tokens = new ApiTokenService({ database, pepper: PEPPER, env: {} });
    });
    afterAll(async () => {
      await database?.close();
    });

    /** Registers the screens with `options` and returns the startup error's message, or undefined when the app started. */
    const startupError = async (options: Partial<PanelScreensOptions>, cookies = true): Promise<string | undefined> => {
      const app = Fastify();
      if (cookies) await app.register(fastifyCookie);
      try {
        await app.register(panelScreens, { panel, tokens, panelApi, ...options } as PanelScreensOptions);
        await app.ready();
        return undefined;
      } catch (error) {
        expect(isPanelError(error, 'PANEL_ERR_CONFIG'), String(error)).toBe(true);
        return (error as Error).message;
      } finally {
        await app.close();
      }
    };

    it('fails at startup naming the missing panel, tokens or gate and how to pass them', async () => {
      expect(await startupError({ panel: undefined as never })).toBe('panelScreens: the option "panel" is missing. Fix: app.register(panelScreens, { panel, tokens, panelApi }).');
      expect(await startupError({ tokens: {} as never })).toMatch(/^panelScreens: the option "tokens" must be an ApiTokenService\. Fix: tokens: new ApiTokenService/);
      expect(await startupError({ panelApi: {} as never })).toMatch(/^panelScreens: the option "panelApi" must be the result of configurePanelApi/);
      expect(await startupError({ panelApi: { manageTokensIf: true } as never })).toMatch(/"panelApi" must be the result of configurePanelApi/);
    });

    it('fails at startup on a panel without sessions: the screens sign users in with the panel session', async () => {
      const sessionless = await createPanel({ database, resources: [BlogPostResource] });
      expect(await startupError({ panel: sessionless })).toBe('panelScreens: the panel has no sessions. Fix: pass sessionSecret to createPanel; the screens sign users in with the panel session.');
    });

    it('takes a reveal lifetime of 10 to 3600 whole seconds and names the value it refuses', async () => {
      expect(await startupError({ revealTtlSeconds: 10 })).toBeUndefined();
      expect(await startupError({ revealTtlSeconds: 3600 })).toBeUndefined();
      for (const bad of [9, 3601, 10.5, Number.NaN]) {
        expect(await startupError({ revealTtlSeconds: bad }), String(bad)).toBe(`panelScreens: revealTtlSeconds must be a whole number of seconds from 10 to 3600, instead got ${String(bad)}. Fix: leave it out for 300.`);
      }
    });

    it('takes a formBodyLimit of whole bytes (the API mount\'s bodyLimit) and names the value it refuses', async () => {
      expect(await startupError({ formBodyLimit: 4 * 1024 * 1024 })).toBeUndefined();
      for (const bad of [0, -1, 1.5, Number.NaN, '1mb' as never]) {
        expect(await startupError({ formBodyLimit: bad }), String(bad)).toBe(`panelScreens: the option "formBodyLimit" must be a positive whole number of bytes, instead got ${String(bad)}. Fix: pass the API mount's bodyLimit, or leave it out for 1048576 (1 MiB).`);
      }
    });

    it('checks the options before the cookies, so the first fix named is the first one needed', async () => {
      expect(await startupError({ panel: undefined as never }, false)).toMatch(/the option "panel" is missing/);
      expect(await startupError({}, false)).toMatch(/cookies are not parsed\. Fix: await app\.register\(fastifyCookie\)/);
    });

    it('a custom loadUser decides who the user is; its row is what the gate is given and the shell names', async () => {
      const given: unknown[] = [];
      const screens = await buildScreensApp(database, {
        rootPath: '/admin',
        gate: (user) => {
          given.push(user);
          return (user as { role?: string }).role === 'owner';
        },
        screens: { loadUser: async (id) => (id === 7 ? { role: 'owner', email: 'owner@example.com' } : id === 8 ? { role: 'guest', name: 'Guest' } : undefined) },
      });
      try {
        const owner = await screens.signIn(7);
        const page = await screens.app.inject({ method: 'GET', url: '/admin/api_tokens', headers: { cookie: owner.cookie } });
        expect(page.statusCode).toBe(200);
        expect(page.body).toContain('Signed in as owner@example.com');
        expect(given).toEqual([{ role: 'owner', email: 'owner@example.com' }]);
        // Users 8 (the gate says no) and 1 (loadUser does not know it, though the users table does) see unknown URLs.
        for (const id of [8, 1]) {
          const { cookie } = await screens.signIn(id);
          expect((await screens.app.inject({ method: 'GET', url: '/admin/api_tokens', headers: { cookie } })).statusCode, String(id)).toBe(404);
        }
      } finally {
        await screens.close();
      }
    });

    it('"a zero-argument block evaluated with current_user available": the gate reads Current.user', async () => {
      const screens = await buildScreensApp(database, { gate: () => (Current.user as { admin?: boolean } | null)?.admin === true });
      try {
        const ada = await screens.signIn(1);
        const rita = await screens.signIn(2);
        expect((await screens.app.inject({ method: 'GET', url: '/panel/api_tokens', headers: { cookie: ada.cookie } })).statusCode).toBe(200);
        expect((await screens.app.inject({ method: 'GET', url: '/panel/api_tokens', headers: { cookie: rita.cookie } })).statusCode).toBe(404);
      } finally {
        await screens.close();
      }
    });

    it('"any result other than true … denies": a gate answering 1, "true" or an object hides the screens and the sidebar entry', async () => {
      for (const answer of [1, 'true', { admin: true }, Promise.resolve('yes')]) {
        const screens = await buildScreensApp(database, { gate: () => answer, screens: { home: true } });
        try {
          const { cookie } = await screens.signIn(1);
          expect((await screens.app.inject({ method: 'GET', url: '/panel/api_tokens', headers: { cookie } })).statusCode, String(answer)).toBe(404);
          const home = await screens.app.inject({ method: 'GET', url: '/panel', headers: { cookie } });
          expect(home.statusCode).toBe(200);
          expect(home.body, String(answer)).not.toContain('API Tokens');
        } finally {
          await screens.close();
        }
      }
    });

    it('without home: true the root path is left to the app', async () => {
      const screens = await buildScreensApp(database);
      try {
        const { cookie } = await screens.signIn(1);
        expect((await screens.app.inject({ method: 'GET', url: '/panel', headers: { cookie } })).statusCode).toBe(404);
        expect((await screens.app.inject({ method: 'GET', url: '/panel/api_tokens', headers: { cookie } })).statusCode).toBe(200);
      } finally {
        await screens.close();
      }
    });

    it('renders the grant matrix under the root path with one labelled checkbox per resource and verb', async () => {
      const screens = await buildScreensApp(database);
      try {
        const { cookie } = await screens.signIn(1);
        const page = await screens.app.inject({ method: 'GET', url: '/panel/api_tokens/new', headers: { cookie } });
        expect(page.statusCode).toBe(200);
        expect(page.body).toContain('<form method="post" action="/panel/api_tokens" novalidate>');
        const boxes = [...page.body.matchAll(/<input type="checkbox" id="([^"]+)" name="grants\[\]" value="([^"]+)">/g)].map((m) => m[2]);
        const verbs = ['index', 'show', 'create', 'update', 'destroy'];
        expect(boxes).toEqual(['blog_posts', 'product_categories'].flatMap((resource) => verbs.map((verb) => `${resource}:${verb}`)));
        expect(page.body).toContain('<label for="grant-product_categories-destroy"><span class="visually-hidden">Product categories destroy</span></label>');
        expect(page.body).toContain('<th scope="row">Blog posts</th>');
      } finally {
        await screens.close();
      }
    });

    it('a form posted with another session\'s CSRF token is refused (403 "The form expired") and creates nothing', async () => {
      const screens = await buildScreensApp(database);
      try {
        const ada = await screens.signIn(1);
        const other = await screens.signIn(1);
        const before = (await screens.tokens.list()).length;
        const response = await screens.app.inject({ method: 'POST', url: '/panel/api_tokens', headers: { ...FORM, cookie: ada.cookie }, payload: form([['csrf_token', other.csrf], ['name', 'forged']]) });
        expect(response.statusCode).toBe(403);
        expect(response.body).toContain('<h1>The form expired</h1>');
        expect((await screens.tokens.list()).length).toBe(before);
      } finally {
        await screens.close();
      }
    });

    it('an error inside a screen answers 500 with no internal message: { "error": "Internal Server Error" }', async () => {
      const screens = await buildScreensApp(database, {
        screens: {
          loadUser: async () => {
            throw new Error('connection to users-db.internal:5432 failed for user "panel_admin"');
          },
        },
      });
      try {
        const { cookie } = await screens.signIn(1);
        const response = await screens.app.inject({ method: 'GET', url: '/panel/api_tokens', headers: { cookie } });
        expect(response.statusCode).toBe(500);
        expect(response.json()).toEqual({ error: 'Internal Server Error' });
        expect(response.body).not.toContain('users-db');
      } finally {
        await screens.close();
      }
    });

    it('takes forms only: a JSON body carrying the CSRF token is not read, so the post is refused as an expired form', async () => {
      const screens = await buildScreensApp(database);
      try {
        const { cookie, csrf } = await screens.signIn(1);
        const before = (await screens.tokens.list()).length;
        const response = await screens.app.inject({
          method: 'POST',
          url: '/panel/api_tokens',
          headers: { cookie, 'content-type': 'application/json' },
          payload: JSON.stringify({ csrf_token: csrf, name: 'json' }),
        });
        expect(response.statusCode).toBe(403);
        expect(response.body).toContain('The form expired');
        expect((await screens.tokens.list()).length).toBe(before);
      } finally {
        await screens.close();
      }
    });

    it('a created token belongs to the signed-in user and holds exactly the ticked grants', async () => {
      const screens = await buildScreensApp(database);
      try {
        const { cookie, csrf } = await screens.signIn(1);
        const response = await screens.app.inject({
          method: 'POST',
          url: '/panel/api_tokens',
          headers: { ...FORM, cookie },
          payload: form([['csrf_token', csrf], ['name', 'owned'], ['grants[]', 'product_categories:show'], ['grants[]', 'blog_posts:create'], ['createdById', '2']]),
        });
        expect(response.statusCode).toBe(303);
        const token = await screens.tokens.find(Number((response.headers.location as string).split('/')[3]));
        expect(token).toMatchObject({ name: 'owned', createdById: 1, expiresAt: null, status: 'Active' });
        expect(token.grants).toEqual([{ resource: 'blog_posts', verb: 'create' }, { resource: 'product_categories', verb: 'show' }]);
      } finally {
        await screens.close();
      }
    });

    it('the settings screen refuses a resource the panel does not have (422, the list unchanged)', async () => {
      const screens = await buildScreensApp(database);
      try {
        const { cookie, csrf } = await screens.signIn(1);
        await screens.tokens.setDefaultPermissions(['blog_posts:show']);
        const response = await screens.app.inject({
          method: 'POST',
          url: '/panel/panel_api/settings',
          headers: { ...FORM, cookie },
          payload: form([['csrf_token', csrf], ['grants[]', 'blog_posts:index'], ['grants[]', 'users:index']]),
        });
        expect(response.statusCode).toBe(422);
        expect(response.body).toMatch(/<p class="error" id="grants-error" role="alert">[^<]*users[^<]*<\/p>/);
        expect(response.body).toContain('value="blog_posts:show" checked');
        expect(await screens.tokens.defaultPermissions()).toEqual([{ resource: 'blog_posts', verb: 'show' }]);
      } finally {
        await screens.close();
      }
    });

    it('reads the panel session in full: a signed-out, revoked or idle session is no user, and the screens are unknown URLs', async () => {
      const clock = { offset: 0 };
      const screens = await buildScreensApp(database, { clock });
      const list = (cookie: string) => screens.app.inject({ method: 'GET', url: '/panel/api_tokens', headers: { cookie } });
      try {
        const signedOut = await screens.signIn(1);
        expect((await list(signedOut.cookie)).statusCode).toBe(200);
        await screens.panel.sessions!.revoke(screens.panel.sessions!.read(signedOut.cookie.split('=')[1])!);
        expect((await list(signedOut.cookie)).statusCode).toBe(404);

        const everywhere = await screens.signIn(1);
        await screens.panel.sessions!.revokeAll(1);
        expect((await list(everywhere.cookie)).statusCode).toBe(404);

        const idle = await screens.signIn(1);
        // Seen again within the idle timeout: the answer carries the cookie sealed again.
        clock.offset = 2 * 60 * 1000;
        const refreshed = await list(idle.cookie);
        expect(refreshed.statusCode).toBe(200);
        expect(refreshed.cookies.find((c) => c.name === screens.panel.config.sessionCookie)?.value).toBeTruthy();
        clock.offset += (screens.panel.sessions!.options.idleTimeout + 1) * 1000;
        expect((await list(idle.cookie)).statusCode).toBe(404);
      } finally {
        await screens.close();
      }
    });
  });
}
