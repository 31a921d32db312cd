// Findings of a hostile pass over the panel's pages (the demo's sign-in pages and the Edition B screens), through real HTTP.
import { describe, expect, it } from 'vitest';
import { PANEL_SECURITY_HEADERS } from '@panel/panel-ui/security';
import { describeOnEachDatabase } from './demo-app-support.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const ORIGIN = 'http://localhost:80';
const cookieOf = (response: { cookies: { name: string; value: string }[] }) => {
  const value = response.cookies.find((c) => c.name === 'panel_session')?.value;
  return value ? `panel_session=${value}` : undefined;
};

describeOnEachDatabase('the panel under attack', (demo) => {
  const post = (url: string, payload: string, headers: Record<string, string> = {}, remoteAddress = '10.9.0.1') =>
    demo().app.inject({ method: 'POST', url, payload, headers: { ...FORM, ...headers }, remoteAddress });
  const signIn = async () => {
    const response = await post('/panel/login', 'email=ada%40example.com&password=demo-password', {}, '10.9.0.2');
    const cookie = cookieOf(response)!;
    const home = await demo().app.inject({ method: 'GET', url: '/panel', headers: { cookie } });
    const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(home.body)![1]!;
    return { cookie, csrf };
  };
  const signedIn = async (cookie: string) => (await demo().app.inject({ method: 'GET', url: '/api/resources/v1/products', headers: { cookie } })).statusCode === 200;

  describe('text the database cannot store', () => {
    it('a NUL byte in the sign-in form is 400 naming the field, never a 500 with the database\'s message', async () => {
      const response = await post('/panel/login', 'email=rita%40example.com%00&password=x');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'Form field "email" must not contain a NUL character' });
      expect(response.body).not.toContain('22021');
    });

    it('a token named with a NUL byte is 400 naming the field (after the gate: a refused user still gets the 404)', async () => {
      const { cookie, csrf } = await signIn();
      const response = await post('/panel/api_tokens', `name=%00abc&csrf_token=${csrf}`, { cookie });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'Form field "name" must not contain a NUL character' });
      const anonymous = await post('/panel/api_tokens', 'name=%00abc');
      expect(anonymous.statusCode).toBe(404);
    });
  });

  it('a non-Latin-1 return_to after a correct sign-in is percent-encoded (a path of this site), never a 500', async () => {
    for (const target of ['/。/evil.example', '/∕∕evil.example', '/／/evil.example']) {
      const response = await post('/panel/login', `email=ada%40example.com&password=demo-password&return_to=${encodeURIComponent(target)}`, {}, '10.9.0.3');
      expect(response.statusCode, target).toBe(303);
      expect(response.headers.location, target).toBe(target.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c)));
      expect(cookieOf(response), target).toBeDefined();
    }
  });

  it('"the refusal looks exactly like a URL the app does not have": a refused token URL and an unknown panel URL carry the same headers', async () => {
    const refused = await demo().app.inject({ method: 'GET', url: '/panel/api_tokens' });
    const unknown = await demo().app.inject({ method: 'GET', url: '/panel/no-such-page' });
    expect(refused.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    const names = (headers: Record<string, unknown>) => Object.keys(headers).filter((name) => !['date', 'x-request-id'].includes(name)).sort();
    expect(names(refused.headers)).toEqual(names(unknown.headers));
    expect(refused.body.replace('/panel/api_tokens', '<url>')).toBe(unknown.body.replace('/panel/no-such-page', '<url>'));
    for (const [name, value] of Object.entries(PANEL_SECURITY_HEADERS)) expect(unknown.headers[name], name).toBe(value);
  });

  it('the demo\'s own sign-in, confirmation and security pages cannot be framed: they carry the screens\' security headers', async () => {
    const { cookie } = await signIn();
    for (const url of ['/panel/login', '/panel/confirm', '/panel/security']) {
      const response = await demo().app.inject({ method: 'GET', url, headers: { cookie, accept: 'text/html' } });
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(String(response.headers['content-security-policy']), url).toContain("frame-ancestors 'none'");
    }
  });

  describe('sign-out checks CSRF', () => {
    it('a sign-out posted from another site (foreign Origin, no token) is 403 and the session lives on', async () => {
      const { cookie } = await signIn();
      const forged = await post('/panel/logout', '', { cookie, origin: 'https://evil.example' });
      expect(forged.statusCode).toBe(403);
      expect(await signedIn(cookie)).toBe(true);
    });

    it('a sign-out with the page\'s CSRF token, or from this site\'s own Origin, ends the session', async () => {
      const first = await signIn();
      expect((await post('/panel/logout', `csrf_token=${first.csrf}`, { cookie: first.cookie, origin: 'https://evil.example' })).statusCode).toBe(303);
      expect(await signedIn(first.cookie)).toBe(false);
      const second = await signIn();
      expect((await post('/panel/logout', '', { cookie: second.cookie, origin: ORIGIN })).statusCode).toBe(303);
      expect(await signedIn(second.cookie)).toBe(false);
    });
  });
}, { edition: 'B' });
