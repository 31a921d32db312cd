import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPanel, openDatabase, runPanelMigrations, type PanelDatabase } from '@panel/core';
import { panelAccountPages, securePanelPages } from '../src/index.js';

// The account pages' redirects and sign-out, through HTTP on a real PGlite: "return_to" never
// leaves the site (an open redirect would send a signed-in user to a look-alike page), and
// "sign-out checks the CSRF token or Origin" (docs/security.md, issue 22 item 9): another site
// cannot sign the user out, and a sign-out ends the session everywhere it was copied.

const ORIGIN = 'http://localhost:80';
const FORM = { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

let database: PanelDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  database = await openDatabase();
  await runPanelMigrations(database);
  const panel = await createPanel({ database, resources: [], sessionSecret: 'a-sign-out-test-secret-of-32-chars-or-more!' });
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

async function signIn(returnTo?: string): Promise<{ location: string | undefined; cookie: string }> {
  const answer = await app.inject({ method: 'POST', url: '/panel/login', headers: FORM, payload: form({ email: 'ada@example.com', password: 'right password', ...(returnTo === undefined ? {} : { return_to: returnTo }) }) });
  expect(answer.statusCode).toBe(303);
  const cookie = answer.cookies.find((c) => c.name === 'panel_session')!;
  return { location: answer.headers.location as string | undefined, cookie: `${cookie.name}=${cookie.value}` };
}

describe('return_to after a sign-in', () => {
  it('goes back to a path of this site, and nowhere else (another host, a scheme-relative or backslash path, a control character: the panel root)', async () => {
    expect((await signIn('/panel/api_tokens?page=2')).location).toBe('/panel/api_tokens?page=2');
    for (const outside of ['https://evil.example/panel', '//evil.example/panel', '/\\evil.example', 'javascript:alert(1)', '/panel\r\nSet-Cookie: x=1', '']) {
      expect((await signIn(outside)).location, JSON.stringify(outside)).toBe('/panel');
    }
    expect((await signIn()).location).toBe('/panel');
  });

  it('percent-encodes what a Location header cannot carry as it is', async () => {
    expect((await signIn('/panel/ünïcode path')).location).toBe('/panel/%C3%BCn%C3%AFcode%20path');
  });
});

describe('sign-out', () => {
  it('is refused from another site (403, the session still works) and allowed from this site\'s own Origin (303 to the panel root, the session ended)', async () => {
    const { cookie } = await signIn();
    const crossSite = await app.inject({ method: 'POST', url: '/panel/logout', headers: { ...FORM, origin: 'https://evil.example', cookie }, payload: '' });
    expect(crossSite.statusCode).toBe(403);
    expect((await app.inject({ url: '/panel/security', headers: { cookie } })).statusCode).toBe(200);

    const out = await app.inject({ method: 'POST', url: '/panel/logout', headers: { ...FORM, cookie }, payload: '' });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/panel');
    // The cookie is cleared in the browser, and a copy of it kept elsewhere no longer signs anyone in.
    expect(out.cookies.find((c) => c.name === 'panel_session')?.value ?? '').toBe('');
    const copied = await app.inject({ url: '/panel/security', headers: { cookie, accept: 'text/html' } });
    expect(copied.statusCode).toBe(303);
    expect(copied.headers.location).toMatch(/^\/panel\/login/);
  });

  it('without a session answers the same redirect and sets no session', async () => {
    const out = await app.inject({ method: 'POST', url: '/panel/logout', headers: FORM, payload: '' });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/panel');
  });
});
