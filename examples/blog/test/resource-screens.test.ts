// The panel's resource screens through HTTP (app.inject), on the demo, on both databases: the
// Contract of the screens' design ("URLs", "What each screen shows") and issue 43's "Done when"
// inject tests — constant statements, CSRF and same-origin on every POST, no-store, 404 for
// unknown keys, ids and associations, the API's 400 and 422 messages.
import { readdir } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { countQueries } from '@panel/test-support';
import { describeOnEachDatabase } from './demo-app-support.js';
import { API_KEYS, PEOPLE, listedIds, mainText, signInAs } from './resource-screens-support.js';

const V1 = '/api/resources/v1';
/** A 1 × 1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A multipart/form-data body of `parts` in order (a part with `filename` is a file). */
function multipart(parts: readonly { name: string; value: string | Buffer; filename?: string; type?: string }[]): { payload: Buffer; contentType: string } {
  const boundary = '----panel-screens-test';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

describeOnEachDatabase('the resource screens', (demo) => {
  const api = (url: string, who: keyof typeof API_KEYS = 'ada') => demo().app.inject({ method: 'GET', url: `${V1}${url}`, headers: { authorization: API_KEYS[who] } });

  it('"an index screen sends a constant number of SQL statements whatever the page size": per_page 5 and 100 cost the same (the session\'s two, the page and the count)', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const five = await countQueries(demo().database, () => ada.get('/panel/resources/blog_posts?per_page=5'));
    const hundred = await countQueries(demo().database, () => ada.get('/panel/resources/blog_posts?per_page=100'));
    expect(listedIds((await five.result).body)).toHaveLength(5);
    expect(listedIds((await hundred.result).body)).toHaveLength(60);
    expect(five.count).toBe(hundred.count);
    expect(five.count).toBe(4);
    // Comments: two association columns (a post's title, a user's name) cost nothing more.
    expect((await countQueries(demo().database, () => ada.get('/panel/resources/comments?per_page=100'))).count).toBe(4);
  });

  it('"a show with k association panels a constant 3 + 2k": a post (comments, tags) costs 7, a category (products) 5', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const post = await countQueries(demo().database, () => ada.get('/panel/resources/blog_posts/2'));
    expect((await post.result).statusCode).toBe(200);
    expect(post.count).toBe(3 + 2 * 2);
    expect((await countQueries(demo().database, () => ada.get('/panel/resources/product_categories/1'))).count).toBe(3 + 2 * 1);
  });

  it('"The rows are the rows GET /api/resources/v1/<route_key>?<same query> answers for the same actor, in the same order"', async () => {
    for (const who of ['ada', 'rita'] as const) {
      const browser = await signInAs(demo(), PEOPLE[who]);
      for (const query of ['', '?sort_by=title&sort_direction=desc', '?q=Gardens', '?filter[published][eq]=false', '?page=2&per_page=10&sort_by=rating', '?filter[author_id][eq]=2&sort_by=published_on']) {
        const screen = await browser.get(`/panel/resources/blog_posts${query}`);
        expect(screen.statusCode, `${who} ${query}`).toBe(200);
        const answered = (await api(`/blog_posts${query}`, who)).json().records.map((record: { id: number }) => record.id);
        expect(listedIds(screen.body), `${who} ${query}`).toEqual(answered);
      }
    }
  });

  it('"400 page inside the shell with the API\'s 400 message for the same query"', async () => {
    const rita = await signInAs(demo(), PEOPLE.rita);
    for (const query of ['?sort_by=nope&sort_direction=sideways', '?filter[view_count][gte]=1', '?sort_by=view_count', '?page=0', '?filter[rating][gte]=high']) {
      const screen = await rita.get(`/panel/resources/blog_posts${query}`);
      const answer = await api(`/blog_posts${query}`, 'rita');
      expect([screen.statusCode, answer.statusCode], query).toEqual([400, 400]);
      expect(mainText(screen.body), query).toContain(answer.json().error.replaceAll('"', '&quot;'));
      expect(screen.body).toContain('<nav class="sidebar"');
    }
  });

  it('"Per-page: the default is the API\'s configured per-page value, the choices add 10/25/50/100, and the choice is remembered in a cookie"; the result line reads "1–24 of 60 blog posts"', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const first = await ada.get('/panel/resources/blog_posts');
    expect(mainText(first.body)).toContain('1–24 of 60 blog posts');
    expect([...first.body.matchAll(/<option value="(\d+)"(?: selected)?>\d+<\/option>/g)].map((m) => m[1])).toEqual(['10', '24', '25', '50', '100']);
    const chosen = await ada.get('/panel/resources/blog_posts?per_page=10');
    const kept = chosen.cookies.find((c) => c.name === 'per_page')!;
    expect(kept).toMatchObject({ value: '10', path: '/panel/resources', httpOnly: true });
    const later = await demo().app.inject({ method: 'GET', url: '/panel/resources/comments', headers: { cookie: `${ada.cookie}; per_page=10` } });
    expect(listedIds(later.body)).toHaveLength(10);
  });

  it('every screen answers Cache-Control: no-store, inside the shell, with the sidebar linking the resources the user may list (aria-current on the current one)', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    for (const url of ['/panel/resources/blog_posts', '/panel/resources/blog_posts/1', '/panel/resources/blog_posts/new', '/panel/resources/blog_posts/1/edit', '/panel/resources/blog_posts/1/delete', '/panel/resources/blog_posts/1/comments']) {
      const page = await ada.get(url);
      expect(page.headers['cache-control'], url).toBe('no-store');
      expect(page.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(page.body, url).toContain('<a href="/panel/resources/blog_posts" aria-current="page">Blog posts</a>');
    }
  });

  it('"A record outside the actor\'s scope and a missing one answer the same 404 page"; so do an unknown resource, a malformed id and an unknown association', async () => {
    const rita = await signInAs(demo(), PEOPLE.rita);
    // Post 5 is Carl's and unpublished: outside Rita's scope.
    expect((await api('/blog_posts/5', 'rita')).statusCode).toBe(404);
    const outside = await rita.get('/panel/resources/blog_posts/5');
    const missing = await rita.get('/panel/resources/blog_posts/99999');
    expect([outside.statusCode, missing.statusCode]).toEqual([404, 404]);
    expect(mainText(outside.body)).toBe(mainText(missing.body));
    for (const url of ['/panel/resources/nope', '/panel/resources/blog_posts/abc', '/panel/resources/blog_posts/1/nope', '/panel/resources/blog_posts/1/title', '/panel/resources/blog_posts/5/edit', '/panel/resources/blog_posts/5/delete', '/panel/resources/blog_posts/5/comments', '/panel/resources/blog_posts/1/edit/more']) {
      const page = await rita.get(url);
      expect(page.statusCode, url).toBe(404);
      expect(mainText(page.body), url).toBe(mainText(missing.body));
    }
  });

  it('a visitor without a session is sent to sign in and back (GET), and a POST without one writes nothing (403)', async () => {
    const visit = await demo().app.inject({ method: 'GET', url: '/panel/resources/blog_posts?page=2' });
    expect(visit.statusCode).toBe(303);
    expect(visit.headers.location).toBe('/panel/login?return_to=%2Fpanel%2Fresources%2Fblog_posts%3Fpage%3D2');
    const before = (await api('/blog_posts/1')).json().record.title;
    const post = await demo().app.inject({ method: 'POST', url: '/panel/resources/blog_posts/1', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'record%5Btitle%5D=Hijacked' });
    expect(post.statusCode).toBe(403);
    expect((await api('/blog_posts/1')).json().record.title).toBe(before);
  });

  it('"CSRF token and same-origin check on every POST": without the token, with another one, or from another site, each POST is the "form expired" page (403) and nothing is written', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const count = async () => (await api('/comments?per_page=1')).json().pagination.total_count as number;
    const comments = await count();
    const title = (await api('/blog_posts/2')).json().record.title;
    const posts: [string, [string, string][]][] = [
      ['/panel/resources/comments', [['record[body]', 'Forged'], ['record[blog_post_id]', '2']]],
      ['/panel/resources/blog_posts/2', [['record[title]', 'Forged']]],
      ['/panel/resources/comments/1/delete', []],
    ];
    for (const [url, fields] of posts) {
      const attempts: { csrf?: boolean; headers?: Record<string, string>; extra?: [string, string][] }[] = [
        { csrf: false },
        { csrf: false, extra: [['csrf_token', 'not-the-token']] },
        { headers: { origin: 'https://evil.example' } },
        { headers: { origin: 'null' } },
        { headers: { 'sec-fetch-site': 'cross-site' } },
      ];
      for (const attempt of attempts) {
        const answer = await ada.post(url, [...(attempt.extra ?? []), ...fields], attempt);
        expect(answer.statusCode, `${url} ${JSON.stringify(attempt)}`).toBe(403);
        expect(answer.body).toContain('The form expired');
      }
    }
    expect(await count()).toBe(comments);
    expect((await api('/blog_posts/2')).json().record.title).toBe(title);
    expect((await api('/comments/1')).statusCode).toBe(200);
  });

  it('edit with two errors → 422 with the API\'s exact messages, the summary linking each field, each message tied to its control, typed values kept; then fixed → 303 to show with a notice', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const failed = await ada.post('/panel/resources/blog_posts/2', [['record[title]', ''], ['record[rating]', 'lots'], ['record[summary]', 'Kept as typed']]);
    expect(failed.statusCode).toBe(422);
    const viaApi = await demo().app.inject({ method: 'PATCH', url: `${V1}/blog_posts/2`, headers: { authorization: API_KEYS.ada, 'content-type': 'application/json' }, payload: { blog_post: { title: '', rating: 'lots' } } });
    expect(viaApi.json().errors).toEqual({ title: ["can't be blank"], rating: ['is not a number'] });
    expect(failed.body).toContain('<title>Error: Edit “Post 02: Kitchens” · Panel</title>');
    expect(failed.body).toMatch(/<div class="error-summary" role="alert"[^>]*>\s*<h2 id="error-summary-title">There is a problem<\/h2>\s*<ul><li><a href="#record-title">Title can&#x27;t be blank<\/a><\/li><li><a href="#record-rating">Rating is not a number<\/a><\/li><\/ul>/);
    expect(failed.body).toContain('id="record-rating" name="record[rating]" value="lots" inputmode="decimal" spellcheck="false" aria-describedby="record-rating-error" aria-invalid="true"');
    expect(failed.body).toContain('<textarea id="record-summary" name="record[summary]" rows="5">Kept as typed</textarea>');
    expect((await api('/blog_posts/2')).json().record.title).toBe('Post 02: Kitchens');
    const fixed = await ada.post('/panel/resources/blog_posts/2', [['record[title]', 'Kitchens, revisited'], ['record[rating]', '4.5']]);
    expect(fixed.statusCode).toBe(303);
    expect(fixed.headers.location).toBe('/panel/resources/blog_posts/2');
    const notice = fixed.cookies.find((c) => c.name === 'panel_notice')!;
    const shown = await demo().app.inject({ method: 'GET', url: '/panel/resources/blog_posts/2', headers: { cookie: `${ada.cookie}; panel_notice=${notice.value}` } });
    expect(shown.body).toContain('<p class="flash" role="status">Blog post saved.</p>');
    expect((await api('/blog_posts/2')).json().record).toMatchObject({ title: 'Kitchens, revisited', rating: 4.5 });
  });

  it('a rating with more decimal places than numeric(4, 2) keeps → 422 "Rating must have at most 2 decimal places" as the API says, the typed value kept, nothing rounded and written', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const before = (await api('/blog_posts/3')).json().record.rating;
    const failed = await ada.post('/panel/resources/blog_posts/3', [['record[rating]', '4.567']]);
    expect(failed.statusCode).toBe(422);
    const viaApi = await demo().app.inject({ method: 'PATCH', url: `${V1}/blog_posts/3`, headers: { authorization: API_KEYS.ada, 'content-type': 'application/json' }, payload: { blog_post: { rating: 4.567 } } });
    expect(viaApi.json().errors).toEqual({ rating: ['must have at most 2 decimal places'] });
    expect(failed.body).toContain('<li><a href="#record-rating">Rating must have at most 2 decimal places</a></li>');
    expect(failed.body).toContain('id="record-rating" name="record[rating]" value="4.567"');
    expect((await api('/blog_posts/3')).json().record.rating).toBe(before);
  });

  it('a new comment from the post\'s panel ("New comment" prefilled with the foreign key), then deleted through the confirmation page', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const post = await ada.get('/panel/resources/blog_posts/3');
    const newHref = /<a class="button" href="([^"]+)">New comment<\/a>/.exec(post.body)![1]!.replaceAll('&#x3D;', '=');
    expect(newHref).toBe('/panel/resources/comments/new?record%5Bblog_post_id%5D=3');
    const form = await ada.get(newHref);
    expect(form.body).toMatch(/<option value="3" selected>Post 03: Trains<\/option>/);
    const created = await ada.post('/panel/resources/comments', [['record[body]', 'From the panel'], ['record[blog_post_id]', '3'], ['record[user_id]', '2']]);
    expect(created.statusCode).toBe(303);
    const id = Number(/\/panel\/resources\/comments\/(\d+)$/.exec(created.headers.location as string)![1]);
    expect((await api(`/comments/${id}`)).json().record).toMatchObject({ body: 'From the panel', blog_post: { id: 3 }, user: { id: 2 } });
    const confirm = await ada.get(`/panel/resources/comments/${id}/delete`);
    expect(mainText(confirm.body)).toContain(`Delete “Comment #${id}”?`);
    const deleted = await ada.post(`/panel/resources/comments/${id}/delete`, []);
    expect([deleted.statusCode, deleted.headers.location]).toEqual([303, '/panel/resources/comments']);
    expect((await api(`/comments/${id}`)).statusCode).toBe(404);
  });

  it('a refused delete shows its message (beforeDestroy: "Cannot delete an admin user") with 422, and the user is kept', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const refused = await ada.post('/panel/resources/users/1/delete', []);
    expect(refused.statusCode).toBe(422);
    expect(mainText(refused.body)).toContain('It was not deleted Cannot delete an admin user');
    expect((await api('/users/1')).statusCode).toBe(200);
  });

  it('a title "<script>…" renders as text on every screen (Handlebars escaping)', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const created = await ada.post('/panel/resources/product_categories', [['record[name]', '<script>alert(1)</script>']]);
    expect(created.statusCode).toBe(303);
    const location = created.headers.location as string;
    for (const url of [location, `${location}/edit`, `${location}/delete`, '/panel/resources/product_categories']) {
      const page = await ada.get(url);
      expect(page.body, url).not.toContain('<script>alert(1)</script>');
      expect(page.body, url).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    }
  });

  it('"a file chosen before a 422 is kept as a pending upload and shown", then attached when the form is saved; the CSRF token is checked before any file part is read', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const post = (body: ReturnType<typeof multipart>) => demo().app.inject({ method: 'POST', url: '/panel/resources/blog_posts/6', headers: { cookie: ada.cookie, origin: 'http://localhost:80', 'content-type': body.contentType }, payload: body.payload });
    const pending = async () => Number((await demo().database.db.selectFrom('panel_uploads').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await pending();
    // The file before the token: refused before the file is read, and nothing is stored.
    const early = await post(multipart([{ name: 'record[cover]', value: PNG, filename: 'early.png', type: 'image/png' }, { name: 'csrf_token', value: ada.csrf }]));
    expect(early.statusCode).toBe(403);
    expect(await pending()).toBe(before);
    const form = await ada.get('/panel/resources/blog_posts/6/edit');
    expect(form.body).toContain('enctype="multipart/form-data"');
    expect(form.body).toMatch(/<input type="file" id="record-cover" name="record\[cover\]" aria-describedby="record-cover-hint">/);
    const failed = await post(multipart([{ name: 'csrf_token', value: ada.csrf }, { name: 'record[title]', value: '' }, { name: 'record[cover]', value: PNG, filename: 'cover.png', type: 'image/png' }]));
    expect(failed.statusCode).toBe(422);
    expect(mainText(failed.body)).toContain('cover.png will be attached when you save');
    const id = /name="record\[cover\]" value="(up_[A-Za-z0-9_-]{43})" checked>/.exec(failed.body)![1]!;
    expect(await pending()).toBe(before + 1);
    const saved = await ada.post('/panel/resources/blog_posts/6', [['record[title]', 'With a cover'], ['record[cover]', id]]);
    expect(saved.statusCode).toBe(303);
    expect((await api('/blog_posts/6')).json().record).toMatchObject({ title: 'With a cover', cover: { filename: 'cover.png', content_type: 'image/png' } });
    const shown = await ada.get('/panel/resources/blog_posts/6');
    expect(shown.body).toMatch(/<img src="[^"]+" alt="" class="thumb"> <a href="[^"]+">cover\.png<\/a>/);
  });

  it('"every request costs a constant number of SQL statements", whatever the number of files: a form with 1 or 10 files costs 15 saved and 9 refused (422), and sent again with its 1 or 10 pending uploads 5', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const send = (parts: Parameters<typeof multipart>[0]) => {
      const body = multipart([{ name: 'csrf_token', value: ada.csrf }, ...parts]);
      return countQueries(demo().database, () => demo().app.inject({ method: 'POST', url: '/panel/resources/blog_posts', headers: { cookie: ada.cookie, origin: 'http://localhost:80', 'content-type': body.contentType }, payload: body.payload }));
    };
    const files = (count: number) => Array.from({ length: count }, (_, i) => ({ name: 'record[attachments][]', value: PNG, filename: `page-${i}.png`, type: 'image/png' }));
    const census: number[][] = [];
    for (const count of [1, 10]) {
      const saved = await send([{ name: 'record[title]', value: `With ${count} files` }, ...files(count)]);
      expect(saved.result.statusCode).toBe(303);
      const id = String(saved.result.headers.location).split('/').pop();
      expect((await api(`/blog_posts/${id}`)).json().record.attachments).toHaveLength(count);
      const refused = await send([{ name: 'record[title]', value: '' }, ...files(count)]);
      expect(refused.result.statusCode).toBe(422);
      const pending = [...refused.result.body.matchAll(/name="record\[attachments\]" value="(up_[A-Za-z0-9_-]{43})" checked>/g)].map((match) => match[1]!);
      expect(pending).toHaveLength(count);
      const again = await send([{ name: 'record[title]', value: '' }, ...pending.map((upload) => ({ name: 'record[attachments][]', value: upload }))]);
      expect(again.result.statusCode).toBe(422);
      expect(mainText(again.result.body)).toContain(`page-${count - 1}.png will be attached when you save`);
      census.push([saved.count, refused.count, again.count]);
      // The other tests count the demo's 60 posts.
      expect((await demo().app.inject({ method: 'DELETE', url: `${V1}/blog_posts/${id}`, headers: { authorization: API_KEYS.ada } })).statusCode).toBe(200);
    }
    expect(census).toEqual([
      [15, 9, 5],
      [15, 9, 5],
    ]);
  });

  it('"a policy refusal is a 403 page inside the shell, and on a POST nothing is written": a refused or missing record\'s update and a refused create with a file part store no upload, no blob and no bytes', async () => {
    const rita = await signInAs(demo(), PEOPLE.rita);
    const root = (demo().panel.attachments.storage as { root?: string }).root!;
    const stored = async () => {
      const count = async (table: string) => Number((await demo().database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const files = (await readdir(root, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).length;
      return { uploads: await count('panel_uploads'), blobs: await count('panel_blobs'), files };
    };
    const before = await stored();
    const title = (await api('/blog_posts/57')).json().record.title;
    // Post 57 is Ada's (Rita reads it, may not update it); 999999 does not exist; only admins create profiles.
    const attempts: [string, string, number][] = [
      ['/panel/resources/blog_posts/57', 'cover', 403],
      ['/panel/resources/blog_posts/999999', 'cover', 404],
      ['/panel/resources/profiles', 'avatar', 403],
    ];
    for (const [url, field, status] of attempts) {
      const body = multipart([{ name: 'csrf_token', value: rita.csrf }, { name: 'record[title]', value: 'Taken over' }, { name: `record[${field}]`, value: PNG, filename: 'refused.png', type: 'image/png' }]);
      const answer = await demo().app.inject({ method: 'POST', url, headers: { cookie: rita.cookie, origin: 'http://localhost:80', 'content-type': body.contentType }, payload: body.payload });
      expect(answer.statusCode, url).toBe(status);
      expect(answer.body, url).toContain('<nav class="sidebar"');
      expect(await stored(), url).toEqual(before);
    }
    expect((await api('/blog_posts/57')).json().record.title).toBe(title);
  });

  it('a multipart form refused before it is read to its end (a wrong token, the policy\'s no) answers Connection: close, so the unread bytes are never taken for the next request', async () => {
    const rita = await signInAs(demo(), PEOPLE.rita);
    const address = demo().app.server.listening ? `http://127.0.0.1:${(demo().app.server.address() as { port: number }).port}` : await demo().app.listen({ port: 0, host: '127.0.0.1' });
    for (const csrf of ['not-the-token', rita.csrf, 'not-the-token']) {
      const form = new FormData();
      form.append('csrf_token', csrf);
      form.append('record[cover]', new Blob([Buffer.alloc(1_500_000, 7)], { type: 'image/png' }), 'big.png');
      const refused = await fetch(`${address}/panel/resources/blog_posts/57`, { method: 'POST', body: form, headers: { cookie: rita.cookie, origin: address }, signal: AbortSignal.timeout(5000) });
      expect([refused.status, refused.headers.get('connection')]).toEqual([403, 'close']);
      await refused.text();
      const next = await fetch(`${address}/panel/resources/blog_posts`, { headers: { cookie: rita.cookie }, signal: AbortSignal.timeout(5000) });
      expect(next.status).toBe(200);
      await next.text();
    }
  });

  it('a page past the end is not an empty list: "an empty state with \'New …\'" only for an empty list; past the end the screen says so, links the last page and keeps the pagination nav', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const get = (url: string) => demo().app.inject({ method: 'GET', url, headers: { cookie: `${ada.cookie}; per_page=100` } });
    const hrefs = (html: string) => [...html.matchAll(/<a href="([^"]+)"[^>]*>([^<]*(?:<span[^>]*>[^<]*<\/span>)?[^<]*)<\/a>/g)].map((m) => [m[1]!.replaceAll('&#x3D;', '=').replaceAll('&amp;', '&'), m[2]!.replace(/<[^>]+>/g, '')]);
    const past = await get('/panel/resources/blog_posts?page=2');
    expect(past.statusCode).toBe(200);
    expect(mainText(past.body)).toContain('Page 2 is past the end of 60 blog posts.');
    expect(mainText(past.body)).not.toContain('Nothing here yet');
    expect(hrefs(past.body)).toContainEqual(['/panel/resources/blog_posts?page=1', 'Go to the last page (page 1)']);
    const nav = /<nav class="pagination" aria-label="Pagination">[\s\S]*?<\/nav>/.exec(past.body)?.[0] ?? '';
    expect(hrefs(nav)).toEqual([['/panel/resources/blog_posts?page=1', 'Previous page'], ['/panel/resources/blog_posts?page=1', 'Page 1']]);
    // Far past the end with 10 a page: the way back is the last page (6), never another empty one.
    const far = await ada.get('/panel/resources/blog_posts?page=9&per_page=10');
    expect(mainText(far.body)).toContain('Page 9 is past the end of 60 blog posts.');
    const farNav = /<nav class="pagination" aria-label="Pagination">[\s\S]*?<\/nav>/.exec(far.body)?.[0] ?? '';
    expect(hrefs(farNav)[0]).toEqual(['/panel/resources/blog_posts?per_page=10&page=6', 'Previous page']);
    expect(farNav).not.toContain('aria-current');
    expect(hrefs(far.body)).toContainEqual(['/panel/resources/blog_posts?per_page=10&page=6', 'Go to the last page (page 6)']);
    // An empty list keeps its empty state, on any page.
    const empty = await get('/panel/resources/blog_posts?q=nothing-like-this&page=2');
    expect(mainText(empty.body)).toContain('0 of 0 blog posts Nothing matches.');
  });
  it('"bad input gets a clear answer and loses nothing" (413, an HTML page inside the shell): a delete form over its 32 KB limit, a multipart form with more than 20 files or 400 fields; nothing is written or kept', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const pending = async () => Number((await demo().database.db.selectFrom('panel_uploads').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await pending();
    const expectFormTooLarge = (response: { statusCode: number; headers: Record<string, unknown>; body: string }, what: string) => {
      expect(response.statusCode, what).toBe(413);
      expect(response.headers['content-type'], what).toContain('text/html');
      expect(response.body, what).toContain('<nav class="sidebar"');
      expect(mainText(response.body), what).toContain('The form is too large');
    };
    expectFormTooLarge(await ada.post('/panel/resources/tags/2/delete', [['padding', 'x'.repeat(33 * 1024)]]), 'delete');
    expect((await api('/tags/2')).statusCode).toBe(200);
    const post = (body: ReturnType<typeof multipart>) => demo().app.inject({ method: 'POST', url: '/panel/resources/blog_posts/14', headers: { cookie: ada.cookie, origin: 'http://localhost:80', 'content-type': body.contentType }, payload: body.payload });
    const files = Array.from({ length: 21 }, (_, i) => ({ name: 'record[attachments]', value: PNG, filename: `page-${i}.png`, type: 'image/png' }));
    expectFormTooLarge(await post(multipart([{ name: 'csrf_token', value: ada.csrf }, { name: 'record[title]', value: 'Many files' }, ...files])), '21 files');
    const fields = Array.from({ length: 401 }, (_, i) => ({ name: `extra_${i}`, value: 'x' }));
    expectFormTooLarge(await post(multipart([{ name: 'csrf_token', value: ada.csrf }, { name: 'record[title]', value: 'Many fields' }, ...fields])), '401 fields');
    expect((await api('/blog_posts/14')).json().record).toMatchObject({ title: 'Post 14: Rivers', attachments: [] });
    expect(await pending()).toBe(before);
  });

  it('"bad input gets a clear answer" (415, an HTML page inside the shell): a POST of JSON, text or XML, or a compressed form, says what to send; nothing is written', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const form = new URLSearchParams([['csrf_token', ada.csrf], ['record[name]', 'Sent as the wrong type']]).toString();
    const sent = [
      { 'content-type': 'application/json', payload: JSON.stringify({ csrf_token: ada.csrf, record: { name: 'Sent as the wrong type' } }) },
      { 'content-type': 'text/plain', payload: form },
      { 'content-type': 'application/xml', payload: '<record><name>Sent as the wrong type</name></record>' },
      { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip', payload: gzipSync(form) },
    ];
    for (const { payload, ...headers } of sent) {
      const what = `${headers['content-type']} ${headers['content-encoding'] ?? ''}`;
      const response = await demo().app.inject({ method: 'POST', url: '/panel/resources/tags', headers: { cookie: ada.cookie, origin: 'http://localhost:80', ...headers }, payload });
      expect(response.statusCode, what).toBe(415);
      expect(response.headers['content-type'], what).toContain('text/html');
      expect(response.body, what).toContain('<nav class="sidebar"');
      expect(mainText(response.body), what).toContain('application/x-www-form-urlencoded or multipart/form-data');
    }
    expect((await api('/tags?filter[name][contains]=wrong%20type')).json().records).toEqual([]);
    // Without a session, or from another site, the answer is the one any such POST gets (the gate first).
    const anonymous = await demo().app.inject({ method: 'POST', url: '/panel/resources/tags', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(anonymous.statusCode).toBe(403);
  });
});
