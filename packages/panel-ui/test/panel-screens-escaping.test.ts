import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PanelDatabase } from '@panel/core';
import { FLASH_COOKIE } from '@panel/api';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { NOTICE_COOKIE } from '../src/index.js';
import { FORM, buildScreensApp, form, prepareScreensDatabase, type ScreensApp } from './screens-app.js';

// What users type reaches the page only as text: every screen escapes it (Handlebars' {{ }}).
const HOSTILE = '<script>alert(1)</script>" onmouseover="x';
const ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;&quot; onmouseover&#x3D;&quot;x';

for (const kind of testDatabaseKinds()) {
  describe(`the screens show what users typed as text [${kind}]`, () => {
    let database: PanelDatabase;
    let screens: ScreensApp;
    let tokenId = 0;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareScreensDatabase(database);
      await database.db.updateTable('users').set({ name: HOSTILE }).where('id', '=', 3).execute();
      screens = await buildScreensApp(database);
      tokenId = (await screens.tokens.create({ name: HOSTILE, createdById: 3, grants: ['blog_posts:index'] })).token.id;
    });
    afterAll(async () => {
      await screens?.close();
      await database?.close();
    });

    const get = (url: string, cookie: string) => screens.app.inject({ method: 'GET', url, headers: { cookie } });
    const expectEscaped = (body: string, where: string) => {
      expect(body, where).toContain(ESCAPED);
      expect(body, where).not.toContain('<script>alert(1)</script>');
      expect(body, where).not.toContain('" onmouseover="x');
    };

    it('a token name on the list, the grants, the revoke and the reveal screens', async () => {
      const { cookie } = await screens.signIn(1);
      for (const url of ['/panel/api_tokens', `/panel/api_tokens/${tokenId}/grants`, `/panel/api_tokens/${tokenId}/revoke`, `/panel/api_tokens/${tokenId}/reveal`]) {
        const response = await get(url, cookie);
        expect(response.statusCode, url).toBe(200);
        expectEscaped(response.body, url);
      }
    });

    it('a user\'s name in the top bar and as a token\'s creator', async () => {
      const { cookie } = await screens.signIn(3);
      const list = await get('/panel/api_tokens', cookie);
      expect(list.body).toContain(`<span>Signed in as ${ESCAPED}</span>`);
      expect(list.body).toContain(`<td>${ESCAPED}</td>`);
    });

    it('a name typed into the new-token form when it comes back with an error stays inside its value attribute', async () => {
      const { cookie, csrf } = await screens.signIn(1);
      const response = await screens.app.inject({
        method: 'POST',
        url: '/panel/api_tokens',
        headers: { ...FORM, cookie },
        payload: form([['csrf_token', csrf], ['name', HOSTILE], ['expires_at', '<b>soon</b>']]),
      });
      expect(response.statusCode).toBe(422);
      expect(response.body).toContain(`name="name" value="${ESCAPED}"`);
      expect(response.body).toContain('name="expires_at" value="&lt;b&gt;soon&lt;/b&gt;"');
      expect(response.body).toContain('Expiry is not a valid date and time');
    });

    it('a notice and the policy-denial flash, read from cookies the browser sends back', async () => {
      const { cookie } = await screens.signIn(1);
      const notice = await get('/panel/api_tokens', `${cookie}; ${NOTICE_COOKIE}=${encodeURIComponent(HOSTILE)}`);
      expect(notice.body).toContain(`<p class="flash" role="status">${ESCAPED}</p>`);
      const alert = await get('/panel/api_tokens', `${cookie}; ${FLASH_COOKIE}=${encodeURIComponent(HOSTILE)}`);
      expect(alert.body).toContain(`<p class="flash alert" role="alert">${ESCAPED}</p>`);
    });

    it('the alert wins over a notice when both are set, and both are cleared', async () => {
      const { cookie } = await screens.signIn(1);
      const page = await get('/panel/api_tokens', `${cookie}; ${NOTICE_COOKIE}=saved; ${FLASH_COOKIE}=denied`);
      expect(page.body).toContain('<p class="flash alert" role="alert">denied</p>');
      expect(page.body).not.toContain('>saved</p>');
      const cleared = page.cookies.filter((c) => c.value === '').map((c) => c.name).sort();
      expect(cleared).toEqual([FLASH_COOKIE, NOTICE_COOKIE].sort());
    });
  });

  describe(`an expired token on the screens [${kind}]`, () => {
    let database: PanelDatabase;
    let screens: ScreensApp;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareScreensDatabase(database);
      screens = await buildScreensApp(database);
    });
    afterAll(async () => {
      await screens?.close();
      await database?.close();
    });

    it('shows as Expired, offers no disable or enable, and a disable post answers with the reason and changes nothing', async () => {
      const { token } = await screens.tokens.create({ name: 'old', expiresAt: new Date(Date.now() + 200) });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const { cookie, csrf } = await screens.signIn(1);
      const list = await screens.app.inject({ method: 'GET', url: '/panel/api_tokens', headers: { cookie } });
      const start = list.body.indexOf(`<tr data-token-id="${token.id}">`);
      const row = list.body.slice(start, list.body.indexOf('</tr>', start));
      expect(row).toContain('<span class="status status-Expired">Expired</span>');
      expect(row).not.toMatch(/\/disable"|\/enable"/);
      expect(row).toContain(`/panel/api_tokens/${token.id}/revoke`);
      const refused = await screens.app.inject({ method: 'POST', url: `/panel/api_tokens/${token.id}/disable`, headers: { ...FORM, cookie }, payload: form([['csrf_token', csrf]]) });
      expect(refused.statusCode).toBe(303);
      expect(decodeURIComponent(refused.cookies.find((c) => c.name === NOTICE_COOKIE)!.value)).toBe(`API token ${token.id} is Expired; it cannot be disabled.`);
      expect((await screens.tokens.find(token.id)).status).toBe('Expired');
    });

    const postExpiry = async (expiresAt: string) => {
      const { cookie, csrf } = await screens.signIn(1);
      return screens.app.inject({ method: 'POST', url: '/panel/api_tokens', headers: { ...FORM, cookie }, payload: form([['csrf_token', csrf], ['name', 'calendar'], ['expires_at', expiresAt]]) });
    };

    it('an expiry outside the calendar\'s months and hours, or not in the field\'s format, is "not a valid date and time"', async () => {
      for (const bad of ['2040-13-01T10:00', '2040-01-01T25:00', '2040-01-01 10:00', '2040-01-32T10:00']) {
        const response = await postExpiry(bad);
        expect(response.statusCode, bad).toBe(422);
        expect(response.body, bad).toContain('Expiry is not a valid date and time');
      }
    });

    // A day past the month's end is not rolled over (2040-02-30 would become 2040-03-01): the
    // token is never created with an expiry the user did not type.
    it('refuses a day the month does not have (30 February) instead of rolling it over to March', async () => {
      const response = await postExpiry('2040-02-30T10:00');
      expect(response.statusCode).toBe(422);
    });
  });
}
