import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { createPanel, type Panel, type PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { loadPanelSession, mountPanelApi, requireRecentConfirmation } from '../src/index.js';
import { prepareLibrary } from './library-app.js';

const SUDO_ROOT = fileURLToPath(new URL('./fixtures/sudo/', import.meta.url));
const SECRET = 'a-test-session-secret-of-32-chars-or-more';
const MINUTE = 60 * 1000;

for (const kind of testDatabaseKinds()) {
  describe(`"Re-authentication for sensitive actions (as GitHub's sudo mode does)" [${kind}]`, () => {
    const clock = { now: Date.parse('2026-11-22T08:00:00Z') };
    let database: PanelDatabase;
    let panel: Panel;
    let app: FastifyInstance;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareLibrary(database);
      panel = await createPanel({ database, appRoot: SUDO_ROOT, sessionSecret: SECRET, session: { now: () => clock.now } });
      app = Fastify();
      await app.register(fastifyCookie);
      await app.register(mountPanelApi, { panel });
      app.get('/panel/tokens/new', async (request, reply) => {
        if (!(await requireRecentConfirmation(panel, request, reply))) return reply;
        return { form: 'new token' };
      });
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    const cookieFor = (value: string) => `panel_session=${value}`;
    const createBook = (cookie: string, csrfToken: string) =>
      app.inject({ method: 'POST', url: '/api/resources/v1/books', headers: { cookie, 'x-csrf-token': csrfToken }, payload: { book: { title: 'Sudo', owner_id: 1 } } });

    it('lets a sensitive write through within 5 minutes of typing the password (sign-in counts)', async () => {
      const cookie = cookieFor(await panel.sessions!.start(1));
      const { csrfToken } = panel.sessions!.open(cookie.slice('panel_session='.length))! as { csrfToken: string };
      expect((await createBook(cookie, csrfToken)).statusCode).toBe(201);
    });

    it('"ask for the password again when the last confirmation is older than a few minutes": 403 with the confirm page, nothing written; a confirmation opens it again', async () => {
      const started = await panel.sessions!.start(1);
      const { csrfToken } = panel.sessions!.open(started)! as { csrfToken: string };
      const count = async () => (await app.inject({ method: 'GET', url: '/api/resources/v1/books?per_page=100', headers: { cookie: cookieFor(started) } })).json().pagination.total_count as number;
      clock.now += 5 * MINUTE;
      const before = await count();
      const refused = await createBook(cookieFor(started), csrfToken);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: 'Password confirmation required', confirm_path: '/panel/confirm' });
      expect(await count()).toBe(before);
      const reads = await app.inject({ method: 'GET', url: '/api/resources/v1/authors', headers: { cookie: cookieFor(started) } });
      expect(reads.statusCode).toBe(200);
      const confirmed = panel.sessions!.confirm(panel.sessions!.read(started)!);
      expect((await createBook(cookieFor(confirmed), csrfToken)).statusCode).toBe(201);
    });

    it('refuses a session that never confirmed, and one whose CSRF token is missing (the null session), without saying more than 401', async () => {
      const unconfirmed = panel.sessions!.seal({ userId: 1, csrfToken: 'token-1' });
      expect((await createBook(cookieFor(unconfirmed), 'token-1')).statusCode).toBe(403);
      const fresh = await panel.sessions!.start(1);
      const withoutToken = await app.inject({ method: 'POST', url: '/api/resources/v1/books', headers: { cookie: cookieFor(fresh) }, payload: { book: { title: 'No token' } } });
      expect(withoutToken.statusCode).toBe(401);
    });

    it('the route helper answers a script 403 JSON, a browser a redirect to the confirm page, and no session 401 or the sign-in page', async () => {
      const started = await panel.sessions!.start(2);
      expect((await app.inject({ method: 'GET', url: '/panel/tokens/new', headers: { cookie: cookieFor(started) } })).json()).toEqual({ form: 'new token' });
      clock.now += 6 * MINUTE;
      const script = await app.inject({ method: 'GET', url: '/panel/tokens/new', headers: { cookie: cookieFor(started) } });
      expect([script.statusCode, script.json()]).toEqual([403, { error: 'Password confirmation required', confirm_path: '/panel/confirm' }]);
      const browser = await app.inject({ method: 'GET', url: '/panel/tokens/new?x=1', headers: { cookie: cookieFor(started), accept: 'text/html,application/xhtml+xml' } });
      expect([browser.statusCode, browser.headers.location]).toEqual([303, '/panel/confirm?return_to=%2Fpanel%2Ftokens%2Fnew%3Fx%3D1']);
      const anonymous = await app.inject({ method: 'GET', url: '/panel/tokens/new' });
      expect([anonymous.statusCode, anonymous.json()]).toEqual([401, { error: 'Unauthorized' }]);
      const anonymousBrowser = await app.inject({ method: 'GET', url: '/panel/tokens/new', headers: { accept: 'text/html' } });
      expect(anonymousBrowser.headers.location).toBe('/panel/login?return_to=%2Fpanel%2Ftokens%2Fnew');
    });

    it('seals an API session again (Set-Cookie) once its activity stamp is over a minute old, keeping its sign-in time', async () => {
      const started = await panel.sessions!.start(1);
      const quick = await app.inject({ method: 'GET', url: '/api/resources/v1/authors', headers: { cookie: cookieFor(started) } });
      expect(quick.cookies.find((c) => c.name === 'panel_session')).toBeUndefined();
      clock.now += 2 * MINUTE;
      const later = await app.inject({ method: 'GET', url: '/api/resources/v1/authors', headers: { cookie: cookieFor(started) } });
      const refreshed = later.cookies.find((c) => c.name === 'panel_session')!;
      expect(refreshed).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(panel.sessions!.read(refreshed.value)).toMatchObject({ issuedAt: panel.sessions!.read(started)!.issuedAt, seenAt: Math.floor(clock.now / 1000) });
    });

    it('says how to fix a route that cannot read cookies, rather than answering as if signed out', async () => {
      const bare = Fastify();
      bare.get('/x', async (request, reply) => loadPanelSession(panel, request, reply).then(() => ({ error: null }), (error: Error) => ({ error: error.message })));
      const answer = await bare.inject({ method: 'GET', url: '/x' });
      expect(answer.json().error).toMatch(/^loadPanelSession: this route cannot read cookies\. Fix: await app\.register\(fastifyCookie\)/);
      await bare.close();
    });

    it('loads a session once per request, however many times it is asked for', async () => {
      const started = await panel.sessions!.start(1);
      const probe = Fastify();
      probe.register(async (scope) => {
        await scope.register(fastifyCookie);
        scope.get('/twice', async (request, reply) => {
          const [a, b] = await Promise.all([loadPanelSession(panel, request, reply), loadPanelSession(panel, request, reply)]);
          return { same: a === b, userId: a?.data.userId };
        });
      });
      const statements: string[] = [];
      const stop = database.onQuery((q) => statements.push(q.sql));
      const answer = await probe.inject({ method: 'GET', url: '/twice', headers: { cookie: cookieFor(started) } });
      stop();
      expect(answer.json()).toEqual({ same: true, userId: 1 });
      expect(statements).toHaveLength(1);
      await probe.close();
    });
  });
}
