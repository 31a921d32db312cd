// The resource screens in a real browser (issue 43, "Done when"): headless Chromium through
// playwright-core, against both editions' demos (what `npm start` and `npm run demo:tokens`
// serve) on 127.0.0.1, on PGlite. One browser for the file, one server per edition.
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { diskStorage } from '@panel/core';
import { openTestDatabase } from '@panel/test-support';
import { buildDemoApp, type DemoApp } from '../src/build-app.js';
import { SCREENSHOTS_DIR, browserTestsEnabled, launchChromium, screenshot, watchConsole } from './browser-support.js';

const AXE_SOURCE: string = (createRequire(import.meta.url)('axe-core') as { source: string }).source;
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/**
 * The README's picture and the docs' picture of the edit form with its error summary: taken
 * with the other screenshots on every run, and written over the docs' own files only when
 * `PANEL_DOCS_PICTURES=update` (a run of the suite leaves the working tree as it was).
 */
const DOCS_PICTURES = process.env.PANEL_DOCS_PICTURES === 'update';
const README_PICTURE = DOCS_PICTURES ? fileURLToPath(new URL('../../../docs/images/panel-screens-index.png', import.meta.url)) : `${SCREENSHOTS_DIR}docs-panel-screens-index.png`;
const EDIT_ERRORS_PICTURE = DOCS_PICTURES ? fileURLToPath(new URL('../../../docs/images/panel-screens-edit-errors.png', import.meta.url)) : `${SCREENSHOTS_DIR}docs-panel-screens-edit-errors.png`;

/** axe-core's violations on the page (WCAG 2.2 A and AA, `target-size` included), as "rule: target" lines. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate<{ violations: { id: string; nodes: { target: string[] }[] }[] }>(`axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(AXE_TAGS)} } })`);
  return result.violations.flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
}

/** A 1 × 1 PNG, chosen in a file control. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

const SIDEWAYS = 'document.documentElement.scrollWidth - document.documentElement.clientWidth';
const FOCUSED_ID = `document.activeElement ? document.activeElement.id : ''`;

for (const edition of ['A', 'B'] as const) {
  describe.runIf(browserTestsEnabled)(`the resource screens in Chromium, on the Edition ${edition} demo`, { timeout: 240_000 }, () => {
    let demo: DemoApp;
    let storageRoot = '';
    let browser: Browser;
    let base = '';
    const consoleErrors: string[] = [];
    /** The sessions' clock: moved past the confirm window (5 minutes) to make a sign-in's confirmation old. */
    const clock = { offset: 0 };

    beforeAll(async () => {
      storageRoot = await mkdtemp(join(tmpdir(), 'panel-browser-storage-'));
      const database = await openTestDatabase('pglite');
      demo = await buildDemoApp({ edition, database, storage: diskStorage({ root: storageRoot }), session: { now: () => Date.now() + clock.offset } });
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

    const signIn = async (email: string, options: { javaScript?: boolean; width?: number } = {}): Promise<{ context: BrowserContext; page: Page }> => {
      const context = await browser.newContext({ baseURL: base, viewport: { width: options.width ?? 1280, height: 800 }, javaScriptEnabled: options.javaScript ?? true });
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
    /** The ids the API answers for a list query, as the page's own signed-in user (its session cookie). */
    const apiIds = async (page: Page, query: string) => ((await (await page.request.get(`/api/resources/v1/blog_posts${query}`)).json()) as { records: { id: number }[] }).records.map((r) => r.id);
    const shownIds = async (page: Page) => (await page.locator('tbody th[scope=row] a').evaluateAll((links) => links.map((a) => (a as unknown as { href: string }).href))).map((href) => Number(href.split('/').pop()));
    const listQuery = (page: Page) => new URL(page.url()).search;
    /**
     * A record as stored, to check what a screen did: through the page's session in Edition A; in
     * Edition B, whose code-hook path reads only what the default permissions list grants, with
     * the demo's token that holds every grant.
     */
    const stored = async (page: Page, path: string) => {
      const headers: Record<string, string> = edition === 'B' ? { authorization: `Bearer ${demo.tokenSecrets!.get('all')}` } : {};
      return ((await (await page.request.get(`/api/resources/v1${path}`, { headers })).json()) as { record: Record<string, any> }).record;
    };

    it('Ada opens Blog posts from the sidebar, sorts by keyboard, searches, filters, and the rows are the API\'s for the same query; the per-page choice is kept', async () => {
      const { context, page } = await signIn('ada@example.com');
      await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Blog posts' }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Blog posts');
      expect(await page.getByRole('link', { name: 'Blog posts', exact: true }).getAttribute('aria-current')).toBe('page');
      // Sort by title, by keyboard.
      await page.getByRole('link', { name: /^Title\W+sort ascending$/ }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/sort_by=title/);
      expect(await page.locator('th[aria-sort]').textContent()).toContain('Title');
      expect(await page.locator('th[aria-sort]').getAttribute('aria-sort')).toBe('ascending');
      // Search.
      await page.getByLabel('Search blog posts').focus();
      await page.keyboard.type('Gardens');
      await page.keyboard.press('Enter');
      await page.waitForURL(/q=Gardens/);
      // Filter: open the panel, choose "Published: No", apply — all by keyboard.
      // The panel is open once a search or filter applies; Enter on its summary opens it otherwise.
      if ((await page.locator('details.filters').getAttribute('open')) === null) {
        await page.locator('details.filters > summary').focus();
        await page.keyboard.press('Enter');
      }
      await page.getByLabel('Published', { exact: true }).focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await page.getByRole('button', { name: 'Apply filters' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/filter%5Bpublished%5D%5Beq%5D=false/);
      expect(await page.locator('.applied li').textContent()).toContain('Published is false');
      expect(await shownIds(page)).toEqual(await apiIds(page, listQuery(page)));
      expect((await shownIds(page)).length).toBeGreaterThan(0);
      // Rows per page: 10, kept when she comes back from another screen.
      await page.goto('/panel/resources/blog_posts');
      await page.getByLabel('Rows per page').selectOption('10');
      await page.getByRole('button', { name: 'Show' }).click();
      await expect.poll(() => shownIds(page).then((ids) => ids.length)).toBe(10);
      await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Comments' }).click();
      await page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name: 'Blog posts' }).click();
      expect(await shownIds(page)).toHaveLength(10);
      await page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Next page' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/page=2/);
      expect(await shownIds(page)).toEqual(await apiIds(page, '?per_page=10&page=2'));
      await context.close();
    });

    it('show: panels whose counts are the API\'s; edit with two errors and a file → 422 with the summary, its link focuses the field, typed values and the file kept; fixed → a notice and the file shown; a new comment from the panel; delete through the confirmation', async () => {
      const { context, page } = await signIn('ada@example.com');
      await page.goto('/panel/resources/blog_posts/4');
      const record = (await stored(page, '/blog_posts/4')) as { comments: { count: number }; tag_list: { count: number } };
      expect(await page.locator('#panel-comments').textContent()).toBe(`Comments (${record.comments.count})`);
      expect(await page.locator('#panel-tag_list').textContent()).toBe(`Tag list (${record.tag_list.count})`);
      await page.getByRole('link', { name: /^Edit/ }).click();
      await page.getByLabel('Title (required)').fill('');
      await page.getByLabel('Rating').fill('lots');
      await page.getByLabel('Summary').fill('Typed, then kept');
      await page.locator('#record-cover').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
      const failed = page.waitForResponse((response) => response.request().method() === 'POST');
      await page.getByRole('button', { name: 'Save changes' }).click();
      expect((await failed).status()).toBe(422);
      await expect.poll(() => page.title()).toMatch(/^Error: Edit/);
      expect(await page.getByRole('alert').first().textContent()).toContain("Title can't be blank");
      expect(await page.getByLabel('Summary').inputValue()).toBe('Typed, then kept');
      expect(await page.getByLabel('Rating').getAttribute('aria-invalid')).toBe('true');
      // The file chosen before the 422 is kept, pending: it is not chosen twice.
      expect(await page.getByLabel('cover.png will be attached when you save (untick to leave it out)').isChecked()).toBe(true);
      await page.setViewportSize({ width: 1280, height: 800 });
      if (edition === 'A') await page.screenshot({ path: EDIT_ERRORS_PICTURE });
      await page.getByRole('link', { name: "Title can't be blank" }).click();
      await expect.poll(() => page.evaluate<string>(FOCUSED_ID)).toBe('record-title');
      await page.keyboard.type('Trains, fixed');
      await page.getByLabel('Rating').fill('4');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.waitForURL(/\/blog_posts\/4$/);
      expect(await page.getByRole('status').textContent()).toBe('Blog post saved.');
      expect(await page.locator('dl.record').getByRole('link', { name: 'cover.png' }).count()).toBe(1);
      expect((await stored(page, '/blog_posts/4')).cover).toMatchObject({ filename: 'cover.png', content_type: 'image/png' });
      // A new comment from the post's panel, prefilled with the post.
      await page.getByRole('link', { name: 'New comment' }).click();
      expect(await page.getByLabel('Blog post (required)').inputValue()).toBe('4');
      await page.getByLabel('Body (required)').fill('Written in the browser');
      await page.getByRole('button', { name: 'Create comment' }).click();
      await page.waitForURL(/\/comments\/\d+$/);
      expect(await page.getByRole('status').textContent()).toBe('Comment created.');
      const id = Number(page.url().split('/').pop());
      // Delete it, through the confirmation page, by keyboard.
      await page.getByRole('link', { name: /^Delete/ }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/delete$/);
      await page.getByRole('button', { name: 'Delete comment' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/comments$/);
      expect(await page.getByRole('status').textContent()).toBe('Comment deleted.');
      expect((await page.request.get(`/api/resources/v1/comments/${id}`, { headers: edition === 'B' ? { authorization: `Bearer ${demo.tokenSecrets!.get('all')}` } : {} })).status()).toBe(404);
      await context.close();
    });

    it('Rita sees only her scope, no Edit or Delete on Ada\'s post, 403 on its edit URL and on a forged POST; admin is read-only to her and a forged record[admin]=true changes nothing', async () => {
      const { context, page } = await signIn('rita@example.com');
      await page.goto('/panel/resources/blog_posts?per_page=100');
      expect(await shownIds(page)).toEqual(await apiIds(page, '?per_page=100'));
      await page.goto('/panel/resources/blog_posts/3');
      expect(await page.getByRole('link', { name: /^Edit/ }).count()).toBe(0);
      expect(await page.getByRole('link', { name: /^Delete/ }).count()).toBe(0);
      expect((await page.goto('/panel/resources/blog_posts/3/edit'))?.status()).toBe(403);
      const csrf = (await page.locator('meta[name=csrf-token]').getAttribute('content'))!;
      const forged = await page.request.post('/panel/resources/blog_posts/3', { form: { csrf_token: csrf, 'record[title]': 'Forged' }, headers: { origin: base } });
      expect(forged.status()).toBe(403);
      expect((await stored(page, '/blog_posts/3')).title).toBe('Post 03: Trains');
      await page.goto('/panel/resources/users/2/edit');
      expect(await page.locator('[name="record[admin]"]').count()).toBe(0);
      expect(await page.locator('dl.record').textContent()).toContain('Admin');
      const admin = await page.request.post('/panel/resources/users/2', { form: { csrf_token: csrf, 'record[admin]': 'true' }, headers: { origin: base }, maxRedirects: 0 });
      expect(admin.status()).toBe(303);
      expect((await stored(page, '/users/2')).admin).toBe(false);
      await context.close();
    });

    it('the whole create, edit and delete flow with JavaScript disabled', async () => {
      const { context, page } = await signIn('ada@example.com', { javaScript: false });
      await page.goto('/panel/resources/product_categories');
      await page.getByRole('link', { name: 'New product category' }).click();
      await page.getByLabel('Name (required)').fill('Without scripts');
      await page.getByRole('button', { name: 'Create product category' }).click();
      await page.waitForURL(/\/product_categories\/\d+$/);
      expect(await page.getByRole('status').textContent()).toBe('Product category created.');
      await page.getByRole('link', { name: /^Edit/ }).click();
      await page.getByLabel('Name (required)').fill('Still without scripts');
      await page.getByRole('button', { name: 'Save changes' }).click();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Still without scripts');
      await page.getByRole('link', { name: /^Delete/ }).click();
      await page.getByRole('button', { name: 'Delete product category' }).click();
      await page.waitForURL(/\/product_categories$/);
      expect(await page.getByRole('status').textContent()).toBe('Product category deleted.');
      await context.close();
    });

    it('"Confirm your password" on a form keeps what was typed ("a link to confirm, keeping what was typed"), with JavaScript disabled and by keyboard; with it, 0 axe violations on the form, the confirm page and the form back at 1280 and 320 px, nothing scrolls sideways; Enter still saves', async () => {
      const found: Record<string, string[]> = {};
      // axe runs as a page script: it is checked where scripts run; the flow is the same either way.
      const runs = [{ width: 1280, javaScript: false }, { width: 1280, javaScript: true }, { width: 320, javaScript: true }];
      for (const { width, javaScript } of runs) {
        const check = async (page: Page, what: string) => {
          if (!javaScript) return;
          const problems = [...(await axeViolations(page)), ...((await page.evaluate<number>(SIDEWAYS)) > 0 ? ['scrolls sideways'] : [])];
          if (problems.length > 0) found[what] = problems;
        };
        clock.offset = 0;
        const { context, page } = await signIn('ada@example.com', { javaScript, width });
        clock.offset = 10 * 60 * 1000;
        try {
          await page.goto('/panel/resources/users/1/edit');
          const name = await page.getByLabel('Name (required)').inputValue();
          expect(await page.locator('[name="record[password]"]').count()).toBe(0);
          await check(page, `${width}px form`);
          await page.getByLabel('Name (required)').fill(`${name} (typed at ${width} px${javaScript ? '' : ', no script'})`);
          await page.getByRole('button', { name: 'Confirm your password' }).focus();
          await page.keyboard.press('Enter');
          await page.waitForURL(/\/panel\/confirm\?return_to=/);
          expect(page.url()).not.toContain('typed');
          await check(page, `${width}px confirm page`);
          await page.getByLabel('Password').fill('demo-password');
          await page.keyboard.press('Enter');
          await page.waitForURL(/\/panel\/resources\/users\/1\/edit\?draft=/);
          expect(await page.getByLabel('Name (required)').inputValue()).toBe(`${name} (typed at ${width} px${javaScript ? '' : ', no script'})`);
          expect(await page.locator('input[type=password][name="record[password]"]').inputValue()).toBe('');
          await check(page, `${width}px form back`);
          // Save stays the form's default button: Enter in a field saves (the name put back as it was).
          await page.getByLabel('Name (required)').fill(name);
          await page.getByLabel('Name (required)').press('Enter');
          await page.waitForURL(/\/panel\/resources\/users\/1$/);
          expect(await page.getByRole('status').textContent()).toBe('User saved.');
        } finally {
          clock.offset = 0;
          await context.close();
        }
      }
      expect(found).toEqual({});
    }, 120_000);

    it('every screen, as Ada and as Rita, at 1280 and 320 px: 0 axe violations (WCAG 2.2 AA), nothing scrolls sideways', async () => {
      const screens = {
        'ada@example.com': ['/panel', '/panel/resources/blog_posts?sort_by=title&q=Post&filter%5Bpublished%5D%5Beq%5D=true', '/panel/resources/blog_posts/2', '/panel/resources/blog_posts/new', '/panel/resources/blog_posts/2/edit', '/panel/resources/blog_posts/2/delete', '/panel/resources/blog_posts/2/comments', '/panel/resources/products/1', '/panel/resources/users/1', '/panel/resources/tags', '/panel/resources/nope', '/panel/resources/blog_posts?sort_by=nope'],
        'rita@example.com': ['/panel/resources/blog_posts', '/panel/resources/blog_posts/3', '/panel/resources/blog_posts/3/edit', '/panel/resources/users/2/edit', '/panel/resources/comments/new'],
      };
      const found: Record<string, string[]> = {};
      for (const [email, urls] of Object.entries(screens)) {
        for (const width of [1280, 320]) {
          const { context, page } = await signIn(email, { width });
          for (const url of urls) {
            await page.goto(url);
            const problems = [...(await axeViolations(page)), ...((await page.evaluate<number>(SIDEWAYS)) > 0 ? ['scrolls sideways'] : [])];
            if (problems.length > 0) found[`${email} ${width}px ${url}`] = problems;
          }
          // A 422 form too.
          if (email === 'ada@example.com') {
            await page.goto('/panel/resources/blog_posts/2/edit');
            await page.getByLabel('Title (required)').fill('');
            await page.getByRole('button', { name: 'Save changes' }).click();
            const problems = await axeViolations(page);
            if (problems.length > 0) found[`${email} ${width}px 422 form`] = problems;
          }
          await context.close();
        }
      }
      expect(found).toEqual({});
    });

    it('a page past the end says so and links the last page, followed by keyboard; 0 axe violations at 1280 and 320 px, nothing scrolls sideways', async () => {
      const found: Record<string, string[]> = {};
      for (const width of [1280, 320]) {
        const { context, page } = await signIn('ada@example.com', { width });
        await page.goto('/panel/resources/blog_posts?per_page=100&page=2');
        expect(await page.locator('.result-line').textContent()).toBe('Page 2 is past the end of 60 blog posts.');
        expect(await page.getByRole('navigation', { name: 'Pagination' }).getByRole('link').allTextContents()).toEqual(['Previous page', 'Page 1']);
        const problems = [...(await axeViolations(page)), ...((await page.evaluate<number>(SIDEWAYS)) > 0 ? ['scrolls sideways'] : [])];
        if (problems.length > 0) found[`${width}px`] = problems;
        const back = page.getByRole('link', { name: 'Go to the last page (page 1)' });
        await back.focus();
        await page.keyboard.press('Enter');
        await page.waitForURL(/page=1$/);
        expect(await page.locator('.result-line').textContent()).toBe('1–60 of 60 blog posts');
        await context.close();
      }
      expect(found).toEqual({});
    }, 60_000);

    it('a title with a right-to-left override (U+202E) stays inside its <bdi>: the delete page\'s warning after it reads left to right; 0 axe violations on the screens that name it at 1280 and 320 px', async () => {
      const { context, page } = await signIn('ada@example.com');
      await page.goto('/panel/resources/blog_posts/4/edit');
      const title = page.getByLabel('Title (required)');
      const original = await title.inputValue();
      const save = async (value: string) => {
        await page.goto('/panel/resources/blog_posts/4/edit');
        await title.fill(value);
        await page.getByRole('button', { name: 'Save changes' }).click();
        await page.waitForURL(/\/blog_posts\/4$/);
      };
      await save('Invoice \u202Efdp.exe');
      const found: Record<string, string[]> = {};
      try {
        await page.goto('/panel/resources/blog_posts/4/delete');
        // The text after the name: with the override running on, its last character would be drawn left of its first.
        const order = await page.evaluate<{ first: number; last: number }>(`(() => {
          const text = [...document.querySelector('main p:not(.breadcrumbs)').childNodes].find((node) => node.nodeType === 3 && node.textContent.includes('It cannot be undone'));
          const at = (index) => { const range = document.createRange(); range.setStart(text, index); range.setEnd(text, index + 1); return range.getBoundingClientRect().left; };
          return { first: at(text.textContent.indexOf('It')), last: at(text.textContent.length - 1) };
        })()`);
        expect(order.first).toBeLessThan(order.last);
        for (const width of [1280, 320]) {
          await page.setViewportSize({ width, height: 800 });
          for (const url of ['/panel/resources/blog_posts/4', '/panel/resources/blog_posts/4/edit', '/panel/resources/blog_posts/4/delete', '/panel/resources/blog_posts/4/comments', '/panel/resources/blog_posts?q=Invoice']) {
            await page.goto(url);
            const problems = [...(await axeViolations(page)), ...((await page.evaluate<number>(SIDEWAYS)) > 0 ? ['scrolls sideways'] : [])];
            if (problems.length > 0) found[`${width}px ${url}`] = problems;
          }
        }
      } finally {
        await page.setViewportSize({ width: 1280, height: 800 });
        await save(original);
        await context.close();
      }
      expect(found).toEqual({});
    }, 60_000);

    it.runIf(edition === 'A')('takes the README\'s picture: Ada on the Blog posts index (search, a filter, sorted, a notice), 1280 × 800', async () => {
      const { context, page } = await signIn('ada@example.com');
      await context.addCookies([{ name: 'panel_notice', value: encodeURIComponent('Blog post saved.'), url: `${base}/panel` }]);
      await page.goto('/panel/resources/blog_posts?sort_by=rating&sort_direction=desc&q=Post&filter%5Bpublished%5D%5Beq%5D=true&per_page=10');
      expect(await page.getByRole('status').textContent()).toBe('Blog post saved.');
      await page.screenshot({ path: README_PICTURE, fullPage: true });
      await screenshot(page, 'resource-index');
      await context.close();
    });

    it('no page logged a console error or threw (the CSP blocked nothing the screens need)', () => {
      expect(consoleErrors).toEqual([]);
    });
  });
}
