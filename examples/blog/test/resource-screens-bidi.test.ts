// A record's value may hold bidi controls: the screens isolate it from the panel's own text. The
// rule (docs/decisions.md, screens): "every record-derived value printed in HTML text is isolated
// (`<bdi>…</bdi>`) so that its bidi controls cannot affect the surrounding text; in the `<title>`
// (no markup allowed) the value is wrapped in U+2068 FIRST STRONG ISOLATE … U+2069 POP
// DIRECTIONAL ISOLATE". A form control's value is its own run and needs nothing. A value of
// left-to-right and neutral characters only is printed as before (the other screens' tests).
import { expect, it } from 'vitest';
import { describeOnEachDatabase } from './demo-app-support.js';
import { PEOPLE, signInAs, type ScreenBrowser } from './resource-screens-support.js';

/** U+202E RIGHT-TO-LEFT OVERRIDE: shown as is, "Invoice ?exe.pdf"; run on, it reverses what follows. */
const TITLE = 'Invoice \u202Efdp.exe';
const IN_HTML = `<bdi>${TITLE}</bdi>`;
const IN_TITLE = `\u2068${TITLE}\u2069`;

/** The page's `<title>`. */
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

/** Where the title is printed bare: not inside `<bdi>`, not between isolates, not a control's value or an option. */
function bareOccurrences(html: string): number {
  const withoutControls = html.replace(/ value="[^"]*"/g, '').replace(/<option[^>]*>[^<]*<\/option>/g, '');
  return withoutControls.split(IN_HTML).join('').split(IN_TITLE).join('').split(TITLE).length - 1;
}

describeOnEachDatabase('a record\'s bidi controls stay inside the record\'s value on the screens', (demo) => {
  /** Ada, with post 4 titled `TITLE`. */
  const withTitle = async (): Promise<ScreenBrowser> => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const saved = await ada.post('/panel/resources/blog_posts/4', [['record[title]', TITLE]]);
    expect(saved.statusCode).toBe(303);
    return ada;
  };

  it('"Delete: a confirmation page naming the record": the name is isolated in the heading, the warning, the breadcrumbs and the <title>', async () => {
    const ada = await withTitle();
    const page = await ada.get('/panel/resources/blog_posts/4/delete');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<h1>Delete “${IN_HTML}”?</h1>`);
    expect(page.body).toContain(`<p>This deletes the blog post “${IN_HTML}”. It cannot be undone.</p>`);
    expect(page.body).toContain(`<a href="/panel/resources/blog_posts/4">${IN_HTML}</a>`);
    expect(titleOf(page.body)).toContain(`Delete “${IN_TITLE}”`);
    expect(bareOccurrences(page.body)).toBe(0);
  });

  it('the show page isolates the name in its heading, the Edit and Delete buttons\' hidden labels and the <title>', async () => {
    const ada = await withTitle();
    const page = await ada.get('/panel/resources/blog_posts/4');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<h1>${IN_HTML}</h1>`);
    expect(page.body).toContain(`Edit<span class="visually-hidden"> ${IN_HTML}</span>`);
    expect(page.body).toContain(`Delete<span class="visually-hidden"> ${IN_HTML}</span>`);
    expect(titleOf(page.body)).toMatch(new RegExp(`^${IN_TITLE} · `));
    expect(bareOccurrences(page.body)).toBe(0);
  });

  it('the index\'s title cell, the edit form and an association\'s list isolate the name wherever they print it', async () => {
    const ada = await withTitle();
    const index = await ada.get('/panel/resources/blog_posts?q=Invoice');
    expect(index.body).toContain(`<th scope="row"><a href="/panel/resources/blog_posts/4">${IN_HTML}</a></th>`);
    for (const url of ['/panel/resources/blog_posts?q=Invoice', '/panel/resources/blog_posts/4/edit', '/panel/resources/blog_posts/4/comments', '/panel/resources/comments?per_page=100']) {
      const page = await ada.get(url);
      expect(page.statusCode, url).toBe(200);
      expect(bareOccurrences(page.body), url).toBe(0);
    }
  });

  it('"Handlebars escaping (a title `<script>…` renders as text everywhere)" holds inside the isolation', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    expect((await ada.post('/panel/resources/blog_posts/4', [['record[title]', '<script>alert(1)</script>\u202E']])).statusCode).toBe(303);
    for (const url of ['/panel/resources/blog_posts/4', '/panel/resources/blog_posts/4/delete', '/panel/resources/blog_posts/4/edit']) {
      const page = await ada.get(url);
      expect(page.body, url).not.toContain('<script>alert(1)');
      expect(page.body, url).toContain('<bdi>&lt;script&gt;alert(1)&lt;/script&gt;\u202E</bdi>');
    }
  });
});
