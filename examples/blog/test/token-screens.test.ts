import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { countQueries, openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { configurePanelApi } from '@panel/api-tokens';
import { panelScreens } from '@panel/panel-ui';
import { buildTokenScreensApp, gateMode, type TokenScreensApp } from './token-screens-app.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: [string, string][]) => new URLSearchParams(fields).toString();

for (const kind of testDatabaseKinds()) {
  describe(`the API token and default permissions screens [${kind}]`, () => {
    const clock = { offset: 0 };
    let built: TokenScreensApp | undefined;
    const app = () => built!.app;
    beforeAll(async () => {
      built = await buildTokenScreensApp(await openTestDatabase(kind), { now: () => Date.now() + clock.offset });
    });
    afterAll(async () => {
      await built?.close();
      await built?.database.close();
    });

    const signIn = async (email: string) => {
      const response = await app().inject({ method: 'POST', url: '/panel/login', payload: form([['email', email], ['password', 'demo-password']]), headers: FORM });
      const cookie = `panel_session=${response.cookies.find((c) => c.name === 'panel_session')!.value}`;
      const home = await app().inject({ method: 'GET', url: '/panel', headers: { cookie } });
      const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(home.body)![1]!;
      return { cookie, csrf, home };
    };
    const post = (url: string, cookie: string | undefined, fields: [string, string][]) =>
      app().inject({ method: 'POST', url, payload: form(fields), headers: { ...FORM, ...(cookie ? { cookie } : {}) } });

    it('Ada (admin) sees "API Tokens" in the sidebar; Rita does not', async () => {
      const ada = await signIn('ada@example.com');
      const rita = await signIn('rita@example.com');
      expect(ada.home.body).toContain('>API Tokens</a>');
      expect(ada.home.body).toContain('Signed in as Ada Admin');
      expect(rita.home.body).not.toContain('API Tokens');
      expect(rita.home.body).toContain('Blog posts');
    });

    it('shows the Edition A policy-denial flash in the shell\'s flash area once, as an alert', async () => {
      const ada = await signIn('ada@example.com');
      const flash = 'You are not authorized to perform this action.';
      const page = await app().inject({ method: 'GET', url: '/panel/api_tokens', headers: { cookie: `${ada.cookie}; panel_flash=${encodeURIComponent(flash)}` } });
      expect(page.body).toContain(`<p class="flash alert" role="alert">${flash}</p>`);
      expect(page.cookies.find((c) => c.name === 'panel_flash')).toMatchObject({ value: '', path: '/panel' });
    });

    it('"any result other than true, including a raised exception such as a nil user, denies": every token and settings URL, GET and POST, answers as an unknown URL (404)', async () => {
      const ada = await signIn('ada@example.com');
      const rita = await signIn('rita@example.com');
      const { token, secret } = await built!.tokens.create({ name: 'probe', grants: ['blog_posts:index'] });
      const urls: ['GET' | 'POST', string][] = [
        ['GET', '/panel/api_tokens'], ['GET', '/panel/api_tokens/new'], ['POST', '/panel/api_tokens'],
        ['GET', `/panel/api_tokens/${token.id}/reveal`], ['GET', `/panel/api_tokens/${token.id}/grants`], ['POST', `/panel/api_tokens/${token.id}/grants`],
        ['POST', `/panel/api_tokens/${token.id}/disable`], ['POST', `/panel/api_tokens/${token.id}/enable`],
        ['GET', `/panel/api_tokens/${token.id}/revoke`], ['POST', `/panel/api_tokens/${token.id}/revoke`],
        ['GET', '/panel/panel_api/settings'], ['POST', '/panel/panel_api/settings'],
      ];
      // The very answer of a URL the app does not have (the demo server's own 404): the screens' existence is not disclosed.
      const unknown = await app().inject({ method: 'GET', url: '/panel/no_such_screen' });
      expect(unknown.statusCode).toBe(404);
      const refused = async (label: string, cookie: string | undefined, csrf: string, extra: Record<string, string> = {}) => {
        for (const [method, url] of urls) {
          const response = await app().inject({ method, url, headers: { ...FORM, ...extra, ...(cookie ? { cookie } : {}) }, ...(method === 'POST' ? { payload: form([['csrf_token', csrf], ['grants[]', 'blog_posts:index']]) } : {}) });
          expect(response.statusCode, `${label} ${method} ${url}`).toBe(404);
          expect(response.body, `${label} ${method} ${url}`).toBe(unknown.body);
          expect(response.headers['content-type'], `${label} ${method} ${url}`).toBe(unknown.headers['content-type']);
        }
      };
      await refused('no session', undefined, '');
      // Whatever the body: a JSON or malformed one is not parsed before the gate answers.
      await refused('Rita posting JSON', rita.cookie, rita.csrf, { 'content-type': 'application/json' });
      await refused('Rita', rita.cookie, rita.csrf);
      // A Bearer token is an API actor: the screens read the panel session only.
      await refused('a Bearer token', undefined, '', { authorization: `Bearer ${secret}` });
      gateMode.current = 'throws';
      try {
        await refused('Ada under a throwing gate', ada.cookie, ada.csrf);
        expect((await app().inject({ method: 'GET', url: '/panel', headers: { cookie: ada.cookie } })).body).not.toContain('API Tokens');
      } finally {
        gateMode.current = 'admins';
      }
      expect((await built!.tokens.find(token.id)).status).toBe('Active');
      expect((await app().inject({ method: 'GET', url: '/panel/api_tokens', headers: { cookie: ada.cookie } })).statusCode).toBe(200);
    });

    it('creates a token: POST → 303 to the one-time reveal, which shows the secret once, uncached, to the creating session only', async () => {
      const ada = await signIn('ada@example.com');
      const other = await signIn('ada@example.com');
      const created = await post('/panel/api_tokens', ada.cookie, [['csrf_token', ada.csrf], ['name', 'Reporting job'], ['expires_at', ''], ['grants[]', 'blog_posts:index'], ['grants[]', 'comments:show']]);
      expect(created.statusCode).toBe(303);
      const reveal = created.headers.location as string;
      expect(reveal).toMatch(/^\/panel\/api_tokens\/\d+\/reveal$/);
      expect(created.cookies.map((c) => c.value).join(' ')).not.toMatch(/pat_/);
      // Another session of the same user sees no secret, and does not use up the creator's reveal.
      expect((await app().inject({ method: 'GET', url: reveal, headers: { cookie: other.cookie } })).body).not.toContain('data-token-secret');
      const first = await app().inject({ method: 'GET', url: reveal, headers: { cookie: ada.cookie } });
      expect(first.headers['cache-control']).toBe('no-store');
      const secret = /<code[^>]*data-token-secret>([^<]+)<\/code>/.exec(first.body)?.[1];
      expect(secret).toMatch(/^pat_/);
      const actor = await built!.tokens.authenticate(secret!);
      expect(actor?.allows('blog_posts', 'index')).toBe(true);
      expect(actor?.allows('comments', 'show')).toBe(true);
      expect(actor?.allows('blog_posts', 'create')).toBe(false);
      const second = await app().inject({ method: 'GET', url: reveal, headers: { cookie: ada.cookie } });
      expect(second.body).not.toContain(secret!);
      expect(second.body).toContain('cannot be shown again');
      expect(second.body).toContain('Revoke this token and create a new one');
    });

    it('"every request costs a constant number of SQL statements": the token list names the creators of 2 or 12 tokens by different users in the same 4 (the session\'s two, the tokens, their creators)', async () => {
      const ada = await signIn('ada@example.com');
      const db = built!.database.db;
      const census = async (creators: number) => {
        for (let i = 0; i < creators; i += 1) {
          const { id } = await db.insertInto('users').values({ name: `Token maker ${creators}-${i}`, email: `token-maker-${creators}-${i}@example.com`, password_digest: 'x', admin: false }).returning('id').executeTakeFirstOrThrow();
          await built!.tokens.create({ name: `Made by ${creators}-${i}`, grants: ['blog_posts:index'], createdById: id });
        }
        const { result, count } = await countQueries(built!.database, () => app().inject({ method: 'GET', url: '/panel/api_tokens', headers: { cookie: ada.cookie } }));
        expect(result.statusCode).toBe(200);
        expect(result.body).toContain(`Token maker ${creators}-${creators - 1}`);
        return count;
      };
      expect([await census(2), await census(10)]).toEqual([4, 4]);
    });

    it('re-renders the form with messages (422) and creates nothing on a blank name, a bad expiry or an unknown grant', async () => {
      const ada = await signIn('ada@example.com');
      const before = (await built!.tokens.list()).length;
      const blank = await post('/panel/api_tokens', ada.cookie, [['csrf_token', ada.csrf], ['name', ' '], ['expires_at', 'tomorrow'], ['grants[]', 'blog_posts:index']]);
      expect(blank.statusCode).toBe(422);
      expect(blank.body).toContain("Name can&#x27;t be blank");
      expect(blank.body).toContain('Expiry is not a valid date and time');
      expect(blank.body).toMatch(/value="blog_posts:index" checked/);
      const unknown = await post('/panel/api_tokens', ada.cookie, [['csrf_token', ada.csrf], ['name', 'x'], ['grants[]', 'blog_posts:frobnicate']]);
      expect(unknown.statusCode).toBe(422);
      expect(unknown.body).toContain('A grant must read');
      expect((await built!.tokens.list()).length).toBe(before);
    });

    it('"per token (Edition B: an optional limit on the token record, editable on the token screen)": the grants screen sets, shows and clears a token\'s rate limit', async () => {
      const ada = await signIn('ada@example.com');
      const { token } = await built!.tokens.create({ name: 'limit probe', grants: ['blog_posts:index'] });
      const saved = await post(`/panel/api_tokens/${token.id}/grants`, ada.cookie, [['csrf_token', ada.csrf], ['grants[]', 'blog_posts:index'], ['rate_limit', '30']]);
      expect(saved.statusCode).toBe(303);
      expect(await built!.tokens.rateLimit(token.id)).toBe(30);
      const page = await app().inject({ method: 'GET', url: `/panel/api_tokens/${token.id}/grants`, headers: { cookie: ada.cookie } });
      expect(page.body).toContain('name="rate_limit" value="30"');
      const refused = await post(`/panel/api_tokens/${token.id}/grants`, ada.cookie, [['csrf_token', ada.csrf], ['grants[]', 'blog_posts:index'], ['rate_limit', '-1']]);
      expect(refused.statusCode).toBe(422);
      expect(refused.body).toContain('Rate limit must be a positive whole number, or empty');
      expect(await built!.tokens.rateLimit(token.id)).toBe(30);
      expect((await post(`/panel/api_tokens/${token.id}/grants`, ada.cookie, [['csrf_token', ada.csrf], ['grants[]', 'blog_posts:index'], ['rate_limit', '']])).statusCode).toBe(303);
      expect(await built!.tokens.rateLimit(token.id)).toBeNull();
    });

    it('escapes what users typed: a token named <script> is text', async () => {
      const ada = await signIn('ada@example.com');
      await built!.tokens.create({ name: '<script>alert(1)</script>' });
      const list = await app().inject({ method: 'GET', url: '/panel/api_tokens', headers: { cookie: ada.cookie } });
      expect(list.body).not.toContain('<script>alert(1)</script>');
      expect(list.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    });

    it('refuses a POST without the session\'s CSRF token (403) and changes nothing', async () => {
      const ada = await signIn('ada@example.com');
      const { token } = await built!.tokens.create({ name: 'csrf probe' });
      const forged = await post(`/panel/api_tokens/${token.id}/revoke`, ada.cookie, [['csrf_token', 'forged']]);
      expect(forged.statusCode).toBe(403);
      expect(forged.body).toContain('The form expired');
      expect((await built!.tokens.find(token.id)).status).toBe('Active');
      const done = await post(`/panel/api_tokens/${token.id}/revoke`, ada.cookie, [['csrf_token', ada.csrf]]);
      expect(done.statusCode).toBe(303);
      expect((await built!.tokens.find(token.id)).status).toBe('Revoked');
    });

    it('creating a token, editing grants and the default permissions need a recent password confirmation (sudo mode)', async () => {
      const ada = await signIn('ada@example.com');
      clock.offset = 10 * 60_000;
      try {
        const { token } = await built!.tokens.create({ name: 'sudo probe' });
        for (const url of ['/panel/api_tokens/new', `/panel/api_tokens/${token.id}/grants`, '/panel/panel_api/settings']) {
          const page = await app().inject({ method: 'GET', url, headers: { cookie: ada.cookie, accept: 'text/html' } });
          expect(page.statusCode, url).toBe(303);
          expect(page.headers.location, url).toBe(`/panel/confirm?return_to=${encodeURIComponent(url)}`);
        }
        const create = await app().inject({ method: 'POST', url: '/panel/api_tokens', payload: form([['csrf_token', ada.csrf], ['name', 'late']]), headers: { ...FORM, cookie: ada.cookie, accept: 'text/html' } });
        expect(create.statusCode).toBe(303);
        expect(create.headers.location).toBe('/panel/confirm');
        expect((await built!.tokens.list()).some((t) => t.name === 'late')).toBe(false);
        // Disable and enable are reversible and need no confirmation.
        expect((await post(`/panel/api_tokens/${token.id}/disable`, ada.cookie, [['csrf_token', ada.csrf]])).statusCode).toBe(303);
        expect((await built!.tokens.find(token.id)).status).toBe('Disabled');
      } finally {
        clock.offset = 0;
      }
    });

    it('"The default permissions list may grant only index and show": the settings screen saves those and refuses anything else (422, unchanged)', async () => {
      const ada = await signIn('ada@example.com');
      const page = await app().inject({ method: 'GET', url: '/panel/panel_api/settings', headers: { cookie: ada.cookie } });
      expect(page.body).toContain('value="blog_posts:show"');
      expect(page.body).not.toContain('value="blog_posts:create"');
      const saved = await post('/panel/panel_api/settings', ada.cookie, [['csrf_token', ada.csrf], ['grants[]', 'blog_posts:index'], ['grants[]', 'users:show']]);
      expect(saved.statusCode).toBe(303);
      expect(await built!.tokens.defaultPermissions()).toEqual([{ resource: 'blog_posts', verb: 'index' }, { resource: 'users', verb: 'show' }]);
      const refused = await post('/panel/panel_api/settings', ada.cookie, [['csrf_token', ada.csrf], ['grants[]', 'blog_posts:index'], ['grants[]', 'blog_posts:create']]);
      expect(refused.statusCode).toBe(422);
      expect(refused.body).toContain('may grant only index and show');
      expect(await built!.tokens.defaultPermissions()).toEqual([{ resource: 'blog_posts', verb: 'index' }, { resource: 'users', verb: 'show' }]);
    });

    it('fails at startup naming the fix: cookies not parsed, a bad reveal lifetime, a missing gate', async () => {
      const { panel, tokens } = built!;
      const panelApi = configurePanelApi();
      const attempt = async (withCookies: boolean, options: object) => {
        const probe = Fastify();
        if (withCookies) await probe.register(fastifyCookie);
        try {
          await probe.register(panelScreens, { panel, tokens, panelApi, ...options } as never);
        } finally {
          await probe.close();
        }
      };
      await expect(attempt(false, {})).rejects.toThrow(/cookies are not parsed\. Fix: await app\.register\(fastifyCookie\)/);
      await expect(attempt(true, { revealTtlSeconds: 0 })).rejects.toThrow(/revealTtlSeconds must be a whole number/);
      await expect(attempt(true, { panelApi: {} })).rejects.toThrow(/"panelApi" must be the result of configurePanelApi/);
      await expect(attempt(true, {})).resolves.toBeUndefined();
    });

    it('answers with the security headers: a CSP without inline script, frame-ancestors \'none\'; and its pages hold no inline script', async () => {
      const ada = await signIn('ada@example.com');
      for (const url of ['/panel', '/panel/api_tokens', '/panel/api_tokens/new', '/panel/panel_api/settings']) {
        const response = await app().inject({ method: 'GET', url, headers: { cookie: ada.cookie } });
        const csp = String(response.headers['content-security-policy']);
        expect(csp, url).toContain("frame-ancestors 'none'");
        expect(csp, url).toContain("script-src 'self'");
        expect(csp, url).not.toContain('unsafe-inline');
        expect(response.headers['x-frame-options']).toBe('DENY');
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.body, url).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
        expect(response.body, url).not.toMatch(/\sstyle=|\son[a-z]+=/);
      }
    });
  });
}
