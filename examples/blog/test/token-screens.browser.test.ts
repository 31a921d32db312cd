import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { diskStorage } from '@panel/core';
import { openTestDatabase } from '@panel/test-support';
import { buildDemoApp, type DemoApp } from '../src/build-app.js';
import { browserTestsEnabled, launchChromium, screenshot, watchConsole } from './browser-support.js';

// Run in the page (as strings: the suite's TypeScript has no DOM library).
const FOCUSED_ID = `document.activeElement ? document.activeElement.id : ''`;
const UNLABELLED_CONTROLS = `[...document.querySelectorAll('input:not([type=hidden]), button')]
  .filter((e) => (!e.labels || e.labels.length === 0) && !e.textContent.trim() && !e.getAttribute('aria-label')).length`;

const V1 = '/api/resources/v1';

// The token screens in a real browser: Chromium, headless, against the Edition B demo
// (`buildDemoApp({ edition: 'B' })`, what `npm run demo:tokens` serves) on 127.0.0.1, on PGlite.
describe.runIf(browserTestsEnabled)('the API token screens in Chromium, on the Edition B demo', () => {
  let demo: DemoApp;
  let storageRoot = '';
  let browser: Browser;
  let base = '';
  const consoleErrors: string[] = [];
  // The sessions' clock: moved forward to make the last password confirmation old.
  const clock = { offset: 0 };

  beforeAll(async () => {
    storageRoot = await mkdtemp(join(tmpdir(), 'panel-browser-storage-'));
    const database = await openTestDatabase('pglite');
    demo = await buildDemoApp({ edition: 'B', database, storage: diskStorage({ root: storageRoot }), session: { now: () => Date.now() + clock.offset } });
    await demo.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(demo.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.app.close();
    await demo?.database.close();
    if (storageRoot) await rm(storageRoot, { recursive: true, force: true });
  });

  const signIn = async (email: string): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ baseURL: base, viewport: { width: 1200, height: 760 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    const errors = watchConsole(page);
    page.on('close', () => consoleErrors.push(...errors));
    await page.goto('/panel/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('demo-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/panel`);
    return { context, page };
  };
  // The API over real HTTP: a Bearer token, or the code-hook path's demo key.
  const api = async (path: string, authorization: string, method = 'GET', body?: object) =>
    (await fetch(`${base}${V1}${path}`, { method, headers: { authorization, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) })).status;
  const row = (page: Page, name: string) => page.locator('tr', { has: page.getByRole('cell', { name, exact: true }) });

  it('Ada creates a token with two grants by keyboard, copies its secret once, edits its grants, disables, enables and revokes it', async () => {
    const { context, page } = await signIn('ada@example.com');
    await screenshot(page, '01-home-ada');
    await page.getByRole('link', { name: 'API Tokens' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('API Tokens');
    await screenshot(page, '02-token-list');
    await page.getByRole('link', { name: 'New API token' }).click();

    // Keyboard only: the name field, Tab to the expiry, Tab to the first grant, Space ticks it.
    await page.getByLabel('Name').focus();
    await page.keyboard.type('Reporting job');
    // Chromium tabs through the date-time field's parts (day, month, …), so the order is read as distinct fields.
    const order: string[] = ['token-name'];
    for (let presses = 0; presses < 12 && order.length < 3; presses++) {
      await page.keyboard.press('Tab');
      const id = await page.evaluate<string>(FOCUSED_ID);
      if (id !== order.at(-1)) order.push(id);
    }
    expect(order).toEqual(['token-name', 'token-expires', 'grant-blog_posts-index']);
    await page.keyboard.press('Space');
    await page.getByLabel('Comments show').check();
    // Every visible form control has a label.
    const unlabelled = await page.evaluate<number>(UNLABELLED_CONTROLS);
    expect(unlabelled).toBe(0);
    await screenshot(page, '03-token-new');
    await page.getByRole('button', { name: 'Create token' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/panel\/api_tokens\/\d+\/reveal$/);

    const secret = (await page.locator('[data-token-secret]').textContent())!.trim();
    expect(secret).toMatch(/^pat_[0-9A-Za-z]{16}_[0-9A-Za-z]{43}_[0-9A-Za-z]{6}$/);
    const copy = page.getByRole('button', { name: 'Copy token' });
    await copy.click();
    await expect.poll(() => page.locator('#copy-status').textContent()).toBe('Copied to the clipboard.');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(secret);
    await screenshot(page, '04-token-reveal');
    // The API with the copied token: 200 on a granted verb, 403 on another.
    const bearer = `Bearer ${secret}`;
    expect(await api('/blog_posts?per_page=1', bearer)).toBe(200);
    expect(await api('/comments/1', bearer)).toBe(200);
    expect(await api('/blog_posts/1', bearer)).toBe(403);
    expect(await api('/blog_posts', bearer, 'POST', { blog_post: { title: 'Not granted' } })).toBe(403);

    await page.reload();
    expect(await page.locator('[data-token-secret]').count()).toBe(0);
    expect(await page.getByText("This token's secret was shown once").count()).toBe(1);
    expect(await page.content()).not.toContain(secret);
    await screenshot(page, '05-token-reveal-second-visit');

    await page.getByRole('link', { name: 'Back to API tokens' }).click();
    const token = row(page, 'Reporting job');
    expect(await token.getByRole('cell').nth(5).textContent()).toBe('blog_posts: index; comments: show');
    await token.getByRole('link', { name: 'Edit grants of Reporting job' }).click();
    await page.getByLabel('Blog posts show').check();
    await screenshot(page, '06-token-grants');
    await page.getByRole('button', { name: 'Save grants' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Grants of “Reporting job” saved.');
    expect(await api('/blog_posts/1', bearer)).toBe(200);
    await screenshot(page, '07-token-list-active');

    await token.getByRole('button', { name: 'Disable Reporting job' }).click();
    await expect.poll(() => token.locator('.status').textContent()).toBe('Disabled');
    expect(await api('/blog_posts?per_page=1', bearer)).toBe(401);
    await token.getByRole('button', { name: 'Enable Reporting job' }).click();
    await expect.poll(() => token.locator('.status').textContent()).toBe('Active');
    expect(await api('/blog_posts?per_page=1', bearer)).toBe(200);
    await token.getByRole('link', { name: 'Revoke Reporting job' }).click();
    await screenshot(page, '08-token-revoke-confirm');
    await page.getByRole('button', { name: 'Revoke token' }).click();
    await expect.poll(() => token.locator('.status').textContent()).toBe('Revoked');
    expect(await token.getByRole('button', { name: /Enable/ }).count()).toBe(0);
    expect(await token.getByRole('button').count()).toBe(0);
    expect(await api('/blog_posts?per_page=1', bearer)).toBe(401);
    await screenshot(page, '09-token-list-revoked');
    await context.close();
  });

  it('the default permissions screen asks for the password again when the last confirmation is old, saves index and show (changing what the code-hook path may read), and refuses any other verb', async () => {
    const { context, page } = await signIn('ada@example.com');
    // The code-hook path (Rita's demo API key) reads what the default permissions list grants: the demo's has products.
    const READER = 'ApiKey demo-reader-key';
    expect(await api('/products?per_page=1', READER)).toBe(200);
    expect(await api('/users/2', READER)).toBe(403);
    // Ten minutes later (clocks only move forward: the sessions refuse stamps from the future).
    clock.offset += 10 * 60_000;
    await page.getByRole('link', { name: 'Default permissions' }).click();
    await page.waitForURL(/\/panel\/confirm\?return_to=/);
    await screenshot(page, '10-confirm-password');
    await page.getByLabel('Password').fill('demo-password');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.url()).toBe(`${base}/panel/panel_api/settings`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Default permissions');
    const verbs = new Set<string>();
    for (const box of await page.locator('input[type=checkbox]').all()) verbs.add(String(String(await box.getAttribute('value')).split(':')[1]));
    expect([...verbs]).toEqual(['index', 'show']);
    await page.getByLabel('Blog posts index').check();
    await page.getByLabel('Products index').uncheck();
    await page.getByLabel('Products show').uncheck();
    await page.getByLabel('Users show').check();
    await page.getByRole('button', { name: 'Save default permissions' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Default permissions saved.');
    await screenshot(page, '11-default-permissions');
    expect(await demo.tokens!.defaultPermissions()).toEqual([{ resource: 'blog_posts', verb: 'index' }, { resource: 'users', verb: 'show' }]);
    // "The settings screen changes what the code-hook path may read."
    expect(await api('/products?per_page=1', READER)).toBe(403);
    expect(await api('/users/2', READER)).toBe(200);
    expect(await api('/blog_posts?per_page=1', READER)).toBe(200);
    // A tampered form (a write verb) is refused and changes nothing.
    await page.evaluate(`(() => { const box = document.getElementById('grant-comments-show'); box.value = 'comments:destroy'; box.checked = true; })()`);
    await page.getByRole('button', { name: 'Save default permissions' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('may grant only index and show');
    await screenshot(page, '12-default-permissions-refused');
    expect(await demo.tokens!.defaultPermissions()).toEqual([{ resource: 'blog_posts', verb: 'index' }, { resource: 'users', verb: 'show' }]);
    await context.close();
  });

  it('Rita (not allowed by manageTokensIf) sees no sidebar entry, and every token and settings URL answers 404, GET and POST', async () => {
    const { token } = await demo.tokens!.create({ name: 'Rita probe' });
    const { context, page } = await signIn('rita@example.com');
    expect(await page.getByRole('link', { name: 'API Tokens' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Default permissions' }).count()).toBe(0);
    await screenshot(page, '13-home-rita');
    const csrf = (await page.locator('meta[name=csrf-token]').getAttribute('content'))!;
    for (const path of ['/panel/api_tokens', '/panel/api_tokens/new', `/panel/api_tokens/${token.id}/reveal`, `/panel/api_tokens/${token.id}/grants`, `/panel/api_tokens/${token.id}/revoke`, '/panel/panel_api/settings']) {
      expect((await page.goto(path))?.status(), path).toBe(404);
    }
    await screenshot(page, '14-refused-rita');
    for (const path of ['/panel/api_tokens', `/panel/api_tokens/${token.id}/grants`, `/panel/api_tokens/${token.id}/disable`, `/panel/api_tokens/${token.id}/enable`, `/panel/api_tokens/${token.id}/revoke`, '/panel/panel_api/settings']) {
      const response = await context.request.post(path, { form: { csrf_token: csrf, name: 'x', 'grants[]': 'blog_posts:index' } });
      expect(response.status(), path).toBe(404);
    }
    expect((await demo.tokens!.find(token.id)).status).toBe('Active');
    // Sign out from the shell's top bar: back at the home screen, signed out.
    await page.goto('/panel');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Sign in' }).count()).toBeGreaterThan(0);
    expect(await page.getByText('Signed in as').count()).toBe(0);
    await context.close();
  });

  it('at 320 px wide no screen scrolls sideways (WCAG 1.4.10 Reflow): the sidebar stacks above the screen, wide tables scroll in their own region', async () => {
    const { context, page } = await signIn('ada@example.com');
    await page.setViewportSize({ width: 320, height: 700 });
    const overflow: Record<string, number> = {};
    for (const path of ['/panel', '/panel/api_tokens', '/panel/api_tokens/new', '/panel/panel_api/settings', '/panel/security', '/panel/confirm']) {
      await page.goto(path);
      overflow[path] = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    }
    expect(overflow).toEqual({ '/panel': 0, '/panel/api_tokens': 0, '/panel/api_tokens/new': 0, '/panel/panel_api/settings': 0, '/panel/security': 0, '/panel/confirm': 0 });
    await context.close();
  });

  it('no page logged a console error or threw (the CSP blocked nothing the screens need)', () => {
    expect(consoleErrors).toEqual([]);
  });
});
