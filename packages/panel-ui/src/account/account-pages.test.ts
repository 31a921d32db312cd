import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPanel, openDatabase, runPanelMigrations, type PanelDatabase } from '@panel/core';
import { securePanelPages } from '../security/secure-panel-pages.js';
import { PANEL_CONTENT_SECURITY_POLICY } from '../security/security-headers.js';
import { accountStylesheetPath, panelAccountPages, securityPath } from './account-pages.js';

// Issue 31, item 8: "sign-in, confirmation and security pages move into @panel/panel-ui, styled
// like the token screens, with the same security headers". One user, ada@example.com, whose
// password is "right password"; a real PGlite database for the sessions and the throttle.

const FORM = { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:80' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

let database: PanelDatabase;
let app: FastifyInstance;
/** The sessions' clock, moved on to make a confirmation old. */
let clock = Date.now();

beforeAll(async () => {
  database = await openDatabase();
  await runPanelMigrations(database);
  const panel = await createPanel({ database, resources: [], sessionSecret: 'an-account-pages-test-secret-of-32-chars-or-more', session: { now: () => clock } });
  app = Fastify();
  await app.register(fastifyCookie);
  securePanelPages(app, { rootPath: '/panel' });
  await app.register(panelAccountPages, {
    panel,
    checkCredentials: async (email, password) => (email === 'ada@example.com' && password === 'right password' ? 1 : null),
    emailOf: async (id) => (id === 1 ? 'ada@example.com' : undefined),
  });
  await app.ready();
}, 60_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
});

/** Signs Ada in; the session cookie. */
async function signIn(): Promise<string> {
  const answer = await app.inject({ method: 'POST', url: '/panel/login', headers: FORM, payload: form({ email: 'ada@example.com', password: 'right password' }) });
  expect(answer.statusCode).toBe(303);
  const cookie = answer.cookies.find((c) => c.name === 'panel_session')!;
  return `${cookie.name}=${cookie.value}`;
}

describe('panelAccountPages', () => {
  it('the sign-in page is the screens\' kind of page: their stylesheet (served, no inline style), labelled fields, their security headers', async () => {
    const page = await app.inject({ url: '/panel/login?return_to=/panel/security' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(PANEL_CONTENT_SECURITY_POLICY);
    expect(page.body).toContain(`<link rel="stylesheet" href="${accountStylesheetPath('/panel')}">`);
    expect(page.body).not.toMatch(/<style|style="/);
    expect(page.body).toContain('<label for="email">Email</label>');
    expect(page.body).toContain('<label for="password">Password</label>');
    expect(page.body).toContain('<input type="hidden" name="return_to" value="/panel/security">');
    const css = await app.inject({ url: accountStylesheetPath('/panel') });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toContain('.card{');
    expect(css.body).toContain('.flash.alert{');
  });

  it('escapes what it shows back: a return_to cannot break out of its attribute', async () => {
    const page = await app.inject({ url: `/panel/login?return_to=${encodeURIComponent('"><script>alert(1)</script>')}` });
    expect(page.body).not.toContain('<script>alert(1)</script>');
    expect(page.body).toContain('value="&quot;&gt;&lt;script&gt;');
  });

  it('signs in with the right password (303 to return_to, a session cookie); a wrong one is 401 with the form and one message for both mistakes', async () => {
    const wrong = await app.inject({ method: 'POST', url: '/panel/login', headers: FORM, payload: form({ email: 'ada@example.com', password: 'wrong' }), remoteAddress: '10.0.0.2' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('<p class="flash alert" role="alert">Wrong email or password.</p>');
    expect(wrong.body).toContain('<form method="post" action="/panel/login">');
    const unknown = await app.inject({ method: 'POST', url: '/panel/login', headers: FORM, payload: form({ email: 'nobody@example.com', password: 'wrong' }), remoteAddress: '10.0.0.3' });
    expect(unknown.body).toBe(wrong.body);
    const right = await app.inject({ method: 'POST', url: '/panel/login', headers: FORM, payload: form({ email: 'ada@example.com', password: 'right password', return_to: '/panel/security' }) });
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe('/panel/security');
    expect(right.cookies.find((c) => c.name === 'panel_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  });

  it('refuses a sign-in posted from another site (login CSRF) and a NUL in a field (400)', async () => {
    const crossSite = await app.inject({ method: 'POST', url: '/panel/login', headers: { ...FORM, origin: 'https://evil.example' }, payload: form({ email: 'ada@example.com', password: 'right password' }) });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.body).toContain('The form expired. Reload the page and try again.');
    expect(crossSite.cookies.find((c) => c.name === 'panel_session')).toBeUndefined();
    const nul = await app.inject({ method: 'POST', url: '/panel/login', headers: FORM, payload: 'email=ada%00&password=x' });
    expect(nul.statusCode).toBe(400);
  });

  it('the security page asks for the password again once the sign-in is older than the confirm window, then offers "sign out everywhere" behind the session\'s CSRF token', async () => {
    const cookie = await signIn();
    // A sign-in is a confirmation: the page is served at once, and asks again 10 minutes later (confirmWindow: 5 minutes).
    expect((await app.inject({ url: securityPath('/panel'), headers: { cookie } })).statusCode).toBe(200);
    clock += 10 * 60_000;
    const guarded = await app.inject({ url: securityPath('/panel'), headers: { cookie, accept: 'text/html' } });
    expect(guarded.statusCode).toBe(303);
    expect(guarded.headers.location).toMatch(/^\/panel\/confirm\?return_to=/);
    const confirmPage = await app.inject({ url: '/panel/confirm?return_to=/panel/security', headers: { cookie } });
    expect(confirmPage.statusCode).toBe(200);
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(confirmPage.body)![1]!;
    const wrong = await app.inject({ method: 'POST', url: '/panel/confirm', headers: { ...FORM, cookie }, payload: form({ password: 'wrong', csrf_token: csrf, return_to: '/panel/security' }) });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('Wrong password.');
    const confirmed = await app.inject({ method: 'POST', url: '/panel/confirm', headers: { ...FORM, cookie }, payload: form({ password: 'right password', csrf_token: csrf, return_to: '/panel/security' }) });
    expect(confirmed.statusCode).toBe(303);
    const fresh = confirmed.cookies.find((c) => c.name === 'panel_session');
    const confirmedCookie = fresh ? `${fresh.name}=${fresh.value}` : cookie;
    const security = await app.inject({ url: securityPath('/panel'), headers: { cookie: confirmedCookie } });
    expect(security.statusCode).toBe(200);
    expect(security.headers['x-frame-options']).toBe('DENY');
    expect(security.body).toContain('<button class="danger">Sign out everywhere</button>');
    expect(security.body).toContain(`<meta name="csrf-token" content="${csrf}">`);
    const forged = await app.inject({ method: 'POST', url: `${securityPath('/panel')}/sign-out-everywhere`, headers: { ...FORM, cookie: confirmedCookie }, payload: form({ csrf_token: 'forged' }) });
    expect(forged.statusCode).toBe(403);
    const out = await app.inject({ method: 'POST', url: `${securityPath('/panel')}/sign-out-everywhere`, headers: { ...FORM, cookie: confirmedCookie }, payload: form({ csrf_token: csrf }) });
    expect(out.statusCode).toBe(303);
    expect((await app.inject({ url: '/panel/confirm', headers: { cookie: confirmedCookie } })).headers.location).toBe('/panel/login');
  });
});
