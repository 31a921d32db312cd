// The screens' registration point (issue 41, item 2: "a screens-registration point in
// @panel/panel-ui"): an extension that is not Edition B adds a screen inside the shell and a
// sidebar section through `panelScreens({ extensions })`; the section shows to the viewers its rule
// allows, the screen is the app's 404 for anyone else, and the shell renders it like its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { createPanel, isPanelError, type Panel, type PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { guardScreen, panelScreens, sendPage, type ScreensExtension } from '../src/index.js';
import { BlogPostResource, SESSION_SECRET, prepareScreensDatabase } from './screens-app.js';

/** Reports for admins: one screen at <root>/reports, an "Insights" section with its link. */
function reports(asked: unknown[]): ScreensExtension {
  return {
    name: 'reports',
    registerScreens({ app, shell, addScreens, addSidebarSection }) {
      const may = async (viewer: { user: { record: Readonly<Record<string, unknown>> } | null }) => {
        asked.push(viewer.user?.record.email ?? null);
        return viewer.user?.record.admin === true;
      };
      addScreens({ reports: '<h1>Reports</h1><p>{{count}} posts</p>' });
      addSidebarSection({ id: 'reports', heading: 'Insights', links: [{ label: 'Reports', href: `${shell.paths.root}/reports`, section: 'reports' }], shows: may });
      app.get(`${shell.paths.root}/reports`, async (request, reply) => {
        const viewer = await guardScreen(shell, request, reply, { may });
        if (!viewer) return reply;
        return sendPage(shell, request, reply, viewer, 200, 'reports', { title: 'Reports', section: 'reports' }, { count: 2 });
      });
    },
  };
}

for (const kind of testDatabaseKinds()) {
  describe(`panelScreens extensions [${kind}]`, () => {
    let database: PanelDatabase;
    let panel: Panel;
    let app: FastifyInstance;
    const asked: unknown[] = [];
    const cookieOf = async (userId: number) => `${panel.config.sessionCookie}=${await panel.sessions!.start(userId)}`;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareScreensDatabase(database);
      panel = await createPanel({ database, resources: [BlogPostResource], sessionSecret: SESSION_SECRET });
      app = Fastify();
      await app.register(fastifyCookie);
      await app.register(panelScreens, { panel, home: true, extensions: [reports(asked)] });
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    it('the extension\'s screen renders inside the shell, its sidebar link the current page; its section shows on the shell\'s own screens too', async () => {
      asked.length = 0;
      const page = await app.inject({ url: '/panel/reports', headers: { cookie: await cookieOf(1) } });
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.body).toContain('<main id="main">');
      expect(page.body).toContain('<h1>Reports</h1><p>2 posts</p>');
      expect(page.body).toContain('<h2 id="reports-heading">Insights</h2>\n    <ul aria-labelledby="reports-heading">\n      <li><a href="/panel/reports" aria-current="page">Reports</a></li>\n    </ul>');
      // The rule is asked of the session's user (the guard, then the sidebar).
      expect(new Set(asked)).toEqual(new Set(['ada@example.com']));
      const home = await app.inject({ url: '/panel', headers: { cookie: await cookieOf(1) } });
      expect(home.body).toContain('<li><a href="/panel/reports" >Reports</a></li>');
    });

    it('"answered exactly as a URL the app does not have" for a viewer the rule refuses (or no session); no section on their pages', async () => {
      for (const cookie of [await cookieOf(2), undefined]) {
        const page = await app.inject({ url: '/panel/reports', headers: cookie ? { cookie } : {} });
        expect(page.statusCode).toBe(404);
        expect(page.json()).toEqual({ message: 'Route GET:/panel/reports not found', error: 'Not Found', statusCode: 404 });
      }
      expect((await app.inject({ url: '/panel', headers: { cookie: await cookieOf(2) } })).body).not.toContain('Insights');
    });

    it('refuses an extensions value that is not a list of screens extensions, naming the fix', async () => {
      for (const extensions of [[{ name: 'x' }], {}]) {
        const bad = Fastify();
        await bad.register(fastifyCookie);
        const error = await bad.register(panelScreens, { panel, home: true, extensions: extensions as never }).ready().then(() => undefined, (caught: unknown) => caught);
        expect(isPanelError(error, 'PANEL_ERR_CONFIG'), String(error)).toBe(true);
        expect((error as Error).message).toMatch(/^panelScreens: extensions must be a list of screens extensions \(each with a name and registerScreens\(\)\)/);
        await bad.close();
      }
    });
  });
}
