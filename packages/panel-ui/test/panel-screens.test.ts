import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { NOTICE_COOKIE, PANEL_CONTENT_SECURITY_POLICY } from '../src/index.js';
import { FORM, buildScreensApp, form, prepareScreensDatabase, type ScreensApp } from './screens-app.js';

const htmlText = (html: string) => html.replace(/&#x3D;/g, '=').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

for (const kind of testDatabaseKinds()) {
  describe(`panelScreens under the root path "/" [${kind}]`, () => {
    let database: PanelDatabase;
    let screens: ScreensApp;
    const seen: unknown[] = [];
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareScreensDatabase(database);
      screens = await buildScreensApp(database, {
        rootPath: '/',
        gate: (user) => {
          seen.push(user);
          return (user as { admin?: boolean }).admin === true;
        },
        screens: { home: true },
      });
    });
    afterAll(async () => {
      await screens?.close();
      await database?.close();
    });

    const get = (url: string, cookie?: string) => screens.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
    const post = (url: string, cookie: string, fields: [string, string][]) => screens.app.inject({ method: 'POST', url, headers: { ...FORM, cookie }, payload: form(fields) });
    const noticeOf = (response: { cookies: { name: string; value: string }[] }) => decodeURIComponent(response.cookies.find((c) => c.name === NOTICE_COOKIE)?.value ?? '');

    it('serves the home screen at the root with the resources labelled from their route keys and their API paths', async () => {
      const home = await get('/');
      expect(home.statusCode).toBe(200);
      expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(home.headers['cache-control']).toBe('no-store');
      expect(home.body).toContain('<li>Blog posts — <code>/api/resources/v1/blog_posts</code></li>');
      expect(home.body).toContain('<li>Product categories — <code>/api/resources/v1/product_categories</code></li>');
      // Signed out: a sign-in link, no token screens in the sidebar.
      expect(home.body).toContain('<a href="/login">Sign in</a>');
      expect(home.body).not.toContain('API Tokens');
    });

    it('serves its stylesheet and script as files (the CSP allows no inline ones), cached for an hour', async () => {
      const css = await get('/panel_ui/assets/panel.css');
      expect(css.statusCode).toBe(200);
      expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
      expect(css.headers['cache-control']).toBe('public, max-age=3600');
      expect(css.body).toContain('.sidebar');
      const script = await get('/panel_ui/assets/copy-secret.js');
      expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(script.body).toContain('navigator.clipboard');
      expect(script.headers['content-security-policy']).toBe(PANEL_CONTENT_SECURITY_POLICY);
      expect((await get('/panel_ui/assets/other.js')).statusCode).toBe(404);
    });

    it('links the stylesheet from the shell, and names the user: name, else e-mail, else "User <id>"', async () => {
      const byName = await get('/', (await screens.signIn(1)).cookie);
      expect(byName.body).toContain('<link rel="stylesheet" href="/panel_ui/assets/panel.css">');
      expect(byName.body).toContain('Signed in as Ada Admin');
      expect((await get('/', (await screens.signIn(3)).cookie)).body).toContain('Signed in as nameless@example.com');
      expect((await get('/', (await screens.signIn(4)).cookie)).body).toContain('Signed in as User 4');
    });

    it('"When the gate allows, an API Tokens entry appears in the panel sidebar", with the current screen marked', async () => {
      const { cookie } = await screens.signIn(1);
      const list = await get('/api_tokens', cookie);
      expect(list.statusCode).toBe(200);
      expect(list.body).toContain('<a href="/api_tokens" aria-current="page">API Tokens</a>');
      expect(list.body).toContain('<a href="/panel_api/settings" >Default permissions</a>');
      expect(list.body).toContain('<p>No API tokens yet.</p>');
    });

    it('hands the gate the user\'s row without its credential columns (a password digest goes no further than sign-in)', async () => {
      seen.length = 0;
      await get('/api_tokens', (await screens.signIn(1)).cookie);
      expect(seen).toEqual([{ id: 1, name: 'Ada Admin', email: 'ada@example.com', admin: true }]);
    });

    it('a session whose user no longer exists is no user: the gate is not asked and the screens are unknown URLs', async () => {
      const { cookie } = await screens.signIn(99);
      seen.length = 0;
      expect((await get('/api_tokens', cookie)).statusCode).toBe(404);
      expect(seen).toEqual([]);
      expect((await get('/', cookie)).body).toContain('<a href="/login">Sign in</a>');
    });

    it('answers an id that is not a token\'s as an unknown URL: unknown, zero, leading zero, not a number, too big', async () => {
      const { cookie } = await screens.signIn(1);
      const { token } = await screens.tokens.create({ name: 'ids' });
      expect((await get(`/api_tokens/${token.id}/revoke`, cookie)).statusCode).toBe(200);
      for (const id of ['999999', '0', `0${token.id}`, 'abc', '1e3', '-1', '99999999999999999']) {
        const response = await get(`/api_tokens/${id}/revoke`, cookie);
        expect(response.statusCode, id).toBe(404);
        expect(response.json(), id).toEqual({ message: `Route GET:/api_tokens/${id}/revoke not found`, error: 'Not Found', statusCode: 404 });
      }
    });

    it('lists tokens newest first with status, expiry, creator and a grants summary, and offers only the actions each status allows', async () => {
      const { cookie } = await screens.signIn(1);
      const active = (await screens.tokens.create({ name: 'list-active', createdById: 1, expiresAt: new Date('2031-05-06T07:08:00Z'), grants: ['blog_posts:index', 'blog_posts:show', 'blog_posts:create', 'blog_posts:update', 'blog_posts:destroy', 'product_categories:index'] })).token;
      const disabled = (await screens.tokens.create({ name: 'list-disabled', createdById: 2 })).token;
      await screens.tokens.disable(disabled.id);
      const revoked = (await screens.tokens.create({ name: 'list-revoked' })).token;
      await screens.tokens.revoke(revoked.id);
      const body = (await get('/api_tokens', cookie)).body;
      const row = (id: number) => body.slice(body.indexOf(`<tr data-token-id="${id}">`), body.indexOf('</tr>', body.indexOf(`<tr data-token-id="${id}">`)));
      expect(body.indexOf(`data-token-id="${revoked.id}"`)).toBeLessThan(body.indexOf(`data-token-id="${active.id}"`));
      expect(row(active.id)).toContain('<td>2031-05-06 07:08 UTC</td>');
      expect(row(active.id)).toContain('<td>Ada Admin</td>');
      expect(row(active.id)).toContain('<td>blog_posts: all verbs; product_categories: index</td>');
      expect(row(active.id)).toContain(`action="/api_tokens/${active.id}/disable"`);
      expect(row(active.id)).not.toContain('/enable"');
      expect(row(disabled.id)).toContain('status-Disabled');
      expect(row(disabled.id)).toContain('<td>Rita Reader</td>');
      expect(row(disabled.id)).toContain('<td>none</td>');
      expect(row(disabled.id)).toContain(`action="/api_tokens/${disabled.id}/enable"`);
      expect(row(disabled.id)).not.toContain('/disable"');
      expect(row(revoked.id)).toContain('status-Revoked');
      expect(row(revoked.id)).toContain('<td>never</td>');
      expect(row(revoked.id)).not.toMatch(/grants"|disable"|enable"|revoke"/);
    });

    it('"Active → disable → Disabled → enable → Active": each post answers 303 to the list with a notice shown once', async () => {
      const { cookie, csrf } = await screens.signIn(1);
      const { token } = await screens.tokens.create({ name: 'cycle' });
      const disabled = await post(`/api_tokens/${token.id}/disable`, cookie, [['csrf_token', csrf]]);
      expect(disabled.statusCode).toBe(303);
      expect(disabled.headers.location).toBe('/api_tokens');
      expect(noticeOf(disabled)).toBe('Token “cycle” disabled.');
      expect((await screens.tokens.find(token.id)).status).toBe('Disabled');
      const shown = await get('/api_tokens', `${cookie}; ${NOTICE_COOKIE}=${encodeURIComponent('Token “cycle” disabled.')}`);
      expect(shown.body).toContain('<p class="flash" role="status">Token “cycle” disabled.</p>');
      expect(shown.cookies.find((c) => c.name === NOTICE_COOKIE)).toMatchObject({ value: '', path: '/' });
      const enabled = await post(`/api_tokens/${token.id}/enable`, cookie, [['csrf_token', csrf]]);
      expect(noticeOf(enabled)).toBe('Token “cycle” enabled.');
      expect((await screens.tokens.find(token.id)).status).toBe('Active');
    });

    it('"a Revoked token cannot be re-enabled": enabling it answers with the reason as the notice and changes nothing', async () => {
      const { cookie, csrf } = await screens.signIn(1);
      const { token } = await screens.tokens.create({ name: 'gone' });
      await screens.tokens.revoke(token.id);
      const refused = await post(`/api_tokens/${token.id}/enable`, cookie, [['csrf_token', csrf]]);
      expect(refused.statusCode).toBe(303);
      expect(noticeOf(refused)).toBe(`API token ${token.id} is Revoked; it cannot be enabled. Revocation is permanent: create a new token.`);
      expect((await screens.tokens.find(token.id)).status).toBe('Revoked');
    });

    it('revokes after a confirmation screen; "then=new" leads to the new-token form ("the token is revoked and a new one created")', async () => {
      const { cookie, csrf } = await screens.signIn(1);
      const { token } = await screens.tokens.create({ name: 'lost' });
      const confirm = await get(`/api_tokens/${token.id}/revoke?then=new`, cookie);
      expect(confirm.statusCode).toBe(200);
      expect(confirm.body).toContain('<h1>Revoke “lost”?</h1>');
      expect(confirm.body).toContain('<input type="hidden" name="then" value="new">');
      expect((await screens.tokens.find(token.id)).status).toBe('Active');
      const revoked = await post(`/api_tokens/${token.id}/revoke`, cookie, [['csrf_token', csrf], ['then', 'new']]);
      expect(revoked.statusCode).toBe(303);
      expect(revoked.headers.location).toBe('/api_tokens/new');
      expect(noticeOf(revoked)).toBe('Token “lost” revoked.');
      expect((await screens.tokens.find(token.id)).status).toBe('Revoked');
      // Its confirmation screen is gone with it.
      const again = await get(`/api_tokens/${token.id}/revoke`, cookie);
      expect(again.statusCode).toBe(303);
      expect(again.headers.location).toBe('/api_tokens');
    });

    it('reveals a new secret to the creating session only, once; later visits say it cannot be shown again and offer revoke-and-recreate', async () => {
      const ada = await screens.signIn(1);
      const created = await post('/api_tokens', ada.cookie, [['csrf_token', ada.csrf], ['name', 'deploy'], ['grants[]', 'blog_posts:index']]);
      expect(created.statusCode).toBe(303);
      const reveal = created.headers.location as string;
      expect(reveal).toMatch(/^\/api_tokens\/\d+\/reveal$/);
      const id = Number(reveal.split('/')[2]);
      // Another session of the same user does not get it (the secret is held for the creating session's CSRF token).
      const other = await screens.signIn(1);
      const elsewhere = await get(reveal, other.cookie);
      expect(elsewhere.body).toContain('data-secret-gone');
      const first = await get(reveal, ada.cookie);
      const secret = /data-token-secret>([^<]+)<\/code>/.exec(first.body)?.[1];
      expect(secret).toBeDefined();
      expect(first.body).toContain('<script src="/panel_ui/assets/copy-secret.js" defer></script>');
      expect((await screens.tokens.authenticate(secret!))?.id).toBe(id);
      const second = await get(reveal, ada.cookie);
      expect(second.body).not.toContain(secret!);
      expect(second.body).toContain('data-secret-gone');
      expect(htmlText(second.body)).toContain(`<a href="/api_tokens/${id}/revoke?then=new">Revoke this token and create a new one</a>`);
    });

    it('stores a future expiry typed as UTC and refuses one in the past (422, nothing created)', async () => {
      const { cookie, csrf } = await screens.signIn(1);
      const before = (await screens.tokens.list()).length;
      const past = await post('/api_tokens', cookie, [['csrf_token', csrf], ['name', 'late'], ['expires_at', '2001-01-01T00:00']]);
      expect(past.statusCode).toBe(422);
      expect(past.body).toContain('<p class="error" id="token-expires-error">Expiry must be in the future</p>');
      expect(past.body).toContain('value="late"');
      expect((await screens.tokens.list()).length).toBe(before);
      const future = await post('/api_tokens', cookie, [['csrf_token', csrf], ['name', 'timed'], ['expires_at', '2040-02-29T23:15']]);
      expect(future.statusCode).toBe(303);
      const id = Number((future.headers.location as string).split('/')[2]);
      expect((await screens.tokens.find(id)).expiresAt?.toISOString()).toBe('2040-02-29T23:15:00.000Z');
    });

    it('refuses a name longer than the service allows with the service\'s message beside the field', async () => {
      const { cookie, csrf } = await screens.signIn(1);
      const response = await post('/api_tokens', cookie, [['csrf_token', csrf], ['name', 'n'.repeat(121)]]);
      expect(response.statusCode).toBe(422);
      expect(response.body).toMatch(/<p class="error" id="token-name-error">Name [^<]+<\/p>/);
      expect(response.body).toContain('aria-invalid="true" aria-describedby="token-name-error"');
    });

    it('keeps the ticked grants when the form comes back with an error', async () => {
      const { cookie, csrf } = await screens.signIn(1);
      const response = await post('/api_tokens', cookie, [['csrf_token', csrf], ['name', ' '], ['grants[]', 'product_categories:update']]);
      expect(response.statusCode).toBe(422);
      expect(response.body).toContain('<input type="checkbox" id="grant-product_categories-update" name="grants[]" value="product_categories:update" checked>');
      expect(response.body).toContain('<input type="checkbox" id="grant-blog_posts-update" name="grants[]" value="blog_posts:update">');
    });

    it('the grants screen refuses a rate limit that is not a positive whole number, keeping the ticked grants and changing nothing', async () => {
      const { cookie, csrf } = await screens.signIn(1);
      const { token } = await screens.tokens.create({ name: 'limited', grants: ['blog_posts:index'] });
      for (const bad of ['0', '-5', '1.5', '1e3', 'ten', '1234567890']) {
        const response = await post(`/api_tokens/${token.id}/grants`, cookie, [['csrf_token', csrf], ['grants[]', 'blog_posts:show'], ['rate_limit', bad]]);
        expect(response.statusCode, bad).toBe(422);
        expect(response.body, bad).toContain('Rate limit must be a positive whole number, or empty');
        expect(response.body, bad).toContain('value="blog_posts:show" checked');
      }
      expect((await screens.tokens.find(token.id)).grants).toEqual([{ resource: 'blog_posts', verb: 'index' }]);
      expect(await screens.tokens.rateLimit(token.id)).toBeNull();
      const saved = await post(`/api_tokens/${token.id}/grants`, cookie, [['csrf_token', csrf], ['grants[]', 'blog_posts:show'], ['rate_limit', ' 120 ']]);
      expect(saved.statusCode).toBe(303);
      expect(noticeOf(saved)).toBe('Grants of “limited” saved.');
      expect(await screens.tokens.rateLimit(token.id)).toBe(120);
    });

    it('a revoked token\'s grants cannot change: 422 with the reason', async () => {
      const { cookie, csrf } = await screens.signIn(1);
      const { token } = await screens.tokens.create({ name: 'frozen', grants: ['blog_posts:index'] });
      await screens.tokens.revoke(token.id);
      const response = await post(`/api_tokens/${token.id}/grants`, cookie, [['csrf_token', csrf], ['grants[]', 'blog_posts:destroy']]);
      expect(response.statusCode).toBe(422);
      expect(response.body).toContain(`API token ${token.id} is revoked; its grants can no longer change.`);
      expect((await screens.tokens.find(token.id)).grants).toEqual([{ resource: 'blog_posts', verb: 'index' }]);
    });

    it('refuses a NUL character in a form field with a 400 once the gate has let the user through, and writes nothing', async () => {
      const { cookie, csrf } = await screens.signIn(1);
      const before = (await screens.tokens.list()).length;
      const response = await post('/api_tokens', cookie, [['csrf_token', csrf], ['name', 'bad\u0000name']]);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'Form field "name" must not contain a NUL character' });
      expect(response.body).not.toContain('PANEL_API_ERR');
      expect((await screens.tokens.list()).length).toBe(before);
      // Rita is refused first: the same input is an unknown URL for her.
      const rita = await screens.signIn(2);
      expect((await post('/api_tokens', rita.cookie, [['csrf_token', rita.csrf], ['name', 'bad\u0000name']])).statusCode).toBe(404);
    });

    it('refuses a form over 32 KiB before any handler runs (413)', async () => {
      const { cookie, csrf } = await screens.signIn(1);
      const response = await post('/api_tokens', cookie, [['csrf_token', csrf], ['name', 'x'.repeat(33 * 1024)]]);
      expect(response.statusCode).toBe(413);
    });

    it('"bad input gets a clear answer … with an HTML page in the panel": a token form over 32 KiB is the 413 page inside the shell, saying the limit; nothing is created', async () => {
      const { cookie, csrf } = await screens.signIn(1);
      const before = (await screens.tokens.list()).length;
      const response = await post('/api_tokens', cookie, [['csrf_token', csrf], ['name', 'x'.repeat(33 * 1024)]]);
      expect(response.statusCode).toBe(413);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['content-security-policy']).toBe(PANEL_CONTENT_SECURITY_POLICY);
      expect(response.body).toContain('<nav class="sidebar"');
      expect(response.body).toContain('The form is larger than the 32 KiB the panel accepts, so nothing was saved.');
      expect((await screens.tokens.list()).length).toBe(before);
    });

    it('sends a browser without a recent password confirmation to the confirm page, back to where it was', async () => {
      const { cookie } = await screens.signIn(1, { confirmed: false });
      const response = await screens.app.inject({ method: 'GET', url: '/panel_api/settings', headers: { cookie, accept: 'text/html' } });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe('/confirm?return_to=%2Fpanel_api%2Fsettings');
      // Disabling is not a sudo action.
      expect((await get('/api_tokens', cookie)).statusCode).toBe(200);
    });

    it('the settings screen shows only the index and show columns, ticked from the default permissions list', async () => {
      const { cookie, csrf } = await screens.signIn(1);
      await screens.tokens.setDefaultPermissions(['product_categories:show']);
      const page = await get('/panel_api/settings', cookie);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<a href="/panel_api/settings" aria-current="page">Default permissions</a>');
      expect(page.body).toContain('value="product_categories:show" checked');
      expect(page.body).toContain('value="blog_posts:index">');
      expect(page.body).not.toContain(':create"');
      const saved = await post('/panel_api/settings', cookie, [['csrf_token', csrf], ['grants[]', 'blog_posts:index']]);
      expect(saved.statusCode).toBe(303);
      expect(saved.headers.location).toBe('/panel_api/settings');
      expect(noticeOf(saved)).toBe('Default permissions saved.');
      expect(await screens.tokens.defaultPermissions()).toEqual([{ resource: 'blog_posts', verb: 'index' }]);
      // An empty post clears the list.
      await post('/panel_api/settings', cookie, [['csrf_token', csrf]]);
      expect(await screens.tokens.defaultPermissions()).toEqual([]);
    });

    it('summarises grants per resource in key order, naming the verbs unless the resource has all five', async () => {
      const { cookie } = await screens.signIn(1);
      const { token } = await screens.tokens.create({ name: 'summary', grants: ['product_categories:update', 'blog_posts:show', 'blog_posts:index'] });
      const body = (await get('/api_tokens', cookie)).body;
      const start = body.indexOf(`<tr data-token-id="${token.id}">`);
      expect(body.slice(start, body.indexOf('</tr>', start))).toContain('<td>blog_posts: index, show; product_categories: update</td>');
    });

    it('the reveal screen of a revoked token offers no way to revoke it again, and is never cached', async () => {
      const { cookie } = await screens.signIn(1);
      const { token } = await screens.tokens.create({ name: 'spent' });
      await screens.tokens.revoke(token.id);
      const reveal = await get(`/api_tokens/${token.id}/reveal`, cookie);
      expect(reveal.statusCode).toBe(200);
      expect(reveal.headers['cache-control']).toBe('no-store');
      expect(reveal.body).toContain('data-secret-gone');
      expect(reveal.body).not.toContain('Revoke this token');
    });

    it('the shell\'s sign-out is a form posting the session\'s CSRF token, and the page tells scripts the token in a meta tag', async () => {
      const { cookie, csrf } = await screens.signIn(1);
      const body = (await get('/api_tokens', cookie)).body;
      expect(body).toContain(`<form method="post" action="/logout"><input type="hidden" name="csrf_token" value="${csrf}"><button>Sign out</button></form>`);
      expect(body).toContain(`<meta name="csrf-token" content="${csrf}">`);
      // Signed out: no token in the page at all.
      expect((await get('/', '')).body).not.toContain('csrf');
    });

    it('the grants screen opens with the token\'s grants ticked and its own rate limit filled in', async () => {
      const { cookie } = await screens.signIn(1);
      const { token } = await screens.tokens.create({ name: 'prefilled', grants: ['product_categories:destroy', 'blog_posts:index'] });
      await screens.tokens.setRateLimit(token.id, 42);
      const page = await get(`/api_tokens/${token.id}/grants`, cookie);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<h1>Grants of “prefilled”</h1>');
      const ticked = [...page.body.matchAll(/value="([^"]+)" checked>/g)].map((m) => m[1]);
      expect(ticked).toEqual(['blog_posts:index', 'product_categories:destroy']);
      expect(page.body).toContain('name="rate_limit" value="42"');
      expect(page.body).toContain(`<form method="post" action="/api_tokens/${token.id}/grants">`);
    });

    it('an empty rate limit removes the token\'s own limit; unticking every grant leaves it none', async () => {
      const { cookie, csrf } = await screens.signIn(1);
      const { token } = await screens.tokens.create({ name: 'cleared', grants: ['blog_posts:index'] });
      await screens.tokens.setRateLimit(token.id, 7);
      const saved = await post(`/api_tokens/${token.id}/grants`, cookie, [['csrf_token', csrf], ['rate_limit', '']]);
      expect(saved.statusCode).toBe(303);
      expect(await screens.tokens.rateLimit(token.id)).toBeNull();
      expect((await screens.tokens.find(token.id)).grants).toEqual([]);
    });
  });
}

// The rule: "A failing dependency gets a clean 503 and the service recovers by itself … never an
// internal code or message in a body." A person at the panel during a database outage got the
// API's JSON (`{"error":"Service Unavailable"}`) as the page: a browser page gets a page, 503
// with `Retry-After`, the screens' security headers, and nothing internal; a client that asks for
// JSON still gets the JSON.
for (const kind of testDatabaseKinds()) {
  describe(`panelScreens while the database is unavailable [${kind}]`, () => {
    let database: PanelDatabase;
    let screens: ScreensApp;
    let session: { cookie: string; csrf: string };
    const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareScreensDatabase(database);
      screens = await buildScreensApp(database, { screens: { home: true } });
      session = await screens.signIn(1);
      // The outage: every statement now fails as unavailable (reason `closed`).
      await database.close();
    });
    afterAll(async () => {
      await screens?.close();
    });

    it('"a clean 503": a screen asked for by a browser is an HTML page, 503 with Retry-After, no stack, no code; JSON for a client that asks for JSON', async () => {
      for (const url of ['/panel/resources/blog_posts', '/panel/resources/blog_posts/1', '/panel/resources/blog_posts/1/edit', '/panel']) {
        const page = await screens.app.inject({ method: 'GET', url, headers: { ...BROWSER, cookie: session.cookie } });
        expect(page.statusCode, url).toBe(503);
        expect(page.headers['content-type'], url).toBe('text/html; charset=utf-8');
        expect(page.headers['retry-after'], url).toBe('5');
        expect(page.headers['cache-control'], url).toBe('no-store');
        expect(page.headers['content-security-policy'], url).toBe(PANEL_CONTENT_SECURITY_POLICY);
        expect(page.body, url).toMatch(/^<!doctype html>/);
        expect(page.body, url).toContain('<title>Service unavailable · Panel</title>');
        expect(page.body, url).toContain('Try again in a few seconds.');
        expect(page.body, url).not.toMatch(/PANEL_|closed|Error|at \//);
      }
      const posted = await screens.app.inject({ method: 'POST', url: '/panel/resources/blog_posts', headers: { ...BROWSER, ...FORM, cookie: session.cookie, origin: 'http://localhost:80' }, payload: form([['csrf_token', session.csrf], ['record[title]', 'During the outage']]) });
      expect(posted.statusCode).toBe(503);
      expect(posted.headers['content-type']).toBe('text/html; charset=utf-8');
      const json = await screens.app.inject({ method: 'GET', url: '/panel/resources/blog_posts', headers: { accept: 'application/json', cookie: session.cookie } });
      expect(json.statusCode).toBe(503);
      expect(json.json()).toEqual({ error: 'Service Unavailable' });
    });
  });
}
