// Issue 43: "the parity property — screens allow exactly what the API allows, hidden fields never
// in the HTML, never sortable/filterable through the URL, never written by a forged control".
// The API is asked with the same person's panel session (the demo's code-hook path), so both
// see the same actor: a policy refusal is the API's 302 (Edition A's flash redirect) and the
// screens' 403, a record outside the scope a 404 on both.
import { expect, it } from 'vitest';
import fc from 'fast-check';
import { humanize } from '@panel/core';
import { describeOnEachDatabase } from './demo-app-support.js';
import { PEOPLE, mainText, signInAs, type ScreenBrowser } from './resource-screens-support.js';

const V1 = '/api/resources/v1';
const ROUTE_KEYS = ['blog_posts', 'comments', 'users', 'profiles', 'products', 'product_categories', 'tags'] as const;
const SINGULAR: Record<string, string> = { blog_posts: 'blog_post', comments: 'comment', users: 'user', profiles: 'profile', products: 'product', product_categories: 'product_category', tags: 'tag' };

/** What an answer says of permission: allowed, refused by the policy, or not found (outside the scope or missing). */
const verdict = (status: number): string => (status === 302 || status === 403 ? 'refused' : status === 404 ? 'not found' : status < 300 || status === 422 ? 'allowed' : `status ${status}`);

/** The labels of a show screen's fields and association panels: each field it shows, by name. */
const shownLabels = (html: string): string[] => [
  ...[...html.matchAll(/<dt>([^<]+)<\/dt>/g)].map((match) => match[1]!),
  ...[...html.matchAll(/<h2 id="panel-[a-z_]+">([^<(]+?)(?: \(|<)/g)].map((match) => match[1]!.trim()),
];

describeOnEachDatabase('the screens and the API decide alike', (demo) => {
  const people = new Map<string, ScreenBrowser>();
  const as = async (who: keyof typeof PEOPLE) => {
    if (!people.has(who)) people.set(who, await signInAs(demo(), PEOPLE[who]));
    return people.get(who)!;
  };
  const viaApi = (browser: ScreenBrowser, method: string, url: string, body?: object) =>
    demo().app.inject({ method: method as 'GET', url: `${V1}${url}`, headers: { cookie: browser.cookie, 'x-csrf-token': browser.csrf, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { payload: body } : {}) });

  it('for random people × resources × records: show, edit and new are allowed, refused or not found exactly as the API answers them; a shown record shows exactly the fields the API answers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('ada', 'rita', 'carl'), fc.constantFrom(...ROUTE_KEYS), fc.integer({ min: 1, max: 8 }), async (who, routeKey, id) => {
        const browser = await as(who);
        const show = await browser.get(`/panel/resources/${routeKey}/${id}`);
        const read = await viaApi(browser, 'GET', `/${routeKey}/${id}`);
        expect(verdict(show.statusCode), `${who} show ${routeKey}/${id}`).toBe(verdict(read.statusCode));
        if (read.statusCode === 200) {
          // A field the API leaves out for this person (a `visible` rule) is nowhere on the screen.
          expect(shownLabels(show.body).sort(), `${who} ${routeKey}/${id}`).toEqual(Object.keys(read.json().record).map(humanize).sort());
        }
        // PATCH with nothing to change: the policy and the scope answer, nothing is written.
        const edit = await browser.get(`/panel/resources/${routeKey}/${id}/edit`);
        const update = await viaApi(browser, 'PATCH', `/${routeKey}/${id}`, { [SINGULAR[routeKey]!]: {} });
        expect(verdict(edit.statusCode), `${who} edit ${routeKey}/${id}`).toBe(verdict(update.statusCode));
        // POST with an empty body: refused by the policy, or 422 (nothing written) when allowed.
        const fresh = await browser.get(`/panel/resources/${routeKey}/new`);
        const create = await viaApi(browser, 'POST', `/${routeKey}`, { [SINGULAR[routeKey]!]: {} });
        expect(verdict(fresh.statusCode), `${who} new ${routeKey}`).toBe(verdict(create.statusCode));
      }),
      { numRuns: 30, seed: 43 },
    );
  });

  it('Rita sees no Edit or Delete on Ada\'s post, gets 403 on its edit and delete URLs and on forged POSTs, and nothing is written', async () => {
    const rita = await as('rita');
    const ada = await as('ada');
    // Post 3 is Ada's and published: Rita reads it, may not change it.
    const show = await rita.get('/panel/resources/blog_posts/3');
    expect(show.statusCode).toBe(200);
    expect(show.body).not.toContain('/panel/resources/blog_posts/3/edit');
    expect(show.body).not.toContain('/panel/resources/blog_posts/3/delete');
    expect((await rita.get('/panel/resources/blog_posts/3/edit')).statusCode).toBe(403);
    expect((await rita.get('/panel/resources/blog_posts/3/delete')).statusCode).toBe(403);
    const update = await rita.post('/panel/resources/blog_posts/3', [['record[title]', 'Rita was here']]);
    const destroy = await rita.post('/panel/resources/blog_posts/3/delete', []);
    expect([update.statusCode, destroy.statusCode]).toEqual([403, 403]);
    expect(mainText(update.body)).toContain('You are not authorized to update this Blog post.');
    expect((await viaApi(ada, 'GET', '/blog_posts/3')).json().record.title).toBe('Post 03: Trains');
  });

  it('"a forged control for a field the actor may not write changes nothing": record[admin]=true and record[email] on Rita\'s own user, record[author_id] on her own post', async () => {
    const rita = await as('rita');
    const form = await rita.get('/panel/resources/users/2/edit');
    expect(form.statusCode).toBe(200);
    // admin and email are shown read-only to her, never as controls.
    expect(form.body).not.toContain('name="record[admin]"');
    expect(form.body).not.toContain('name="record[email]"');
    const saved = await rita.post('/panel/resources/users/2', [['record[name]', 'Rita R.'], ['record[admin]', 'true'], ['record[email]', 'rita@evil.example']]);
    expect(saved.statusCode).toBe(303);
    const ada = await as('ada');
    expect((await viaApi(ada, 'GET', '/users/2')).json().record).toMatchObject({ name: 'Rita R.', admin: false, email: 'rita@example.com' });
    // Post 1 is Rita's: she edits it, but its author is not hers to change.
    expect((await rita.post('/panel/resources/blog_posts/1', [['record[author_id]', '1'], ['record[title]', 'Mine still']])).statusCode).toBe(303);
    expect((await viaApi(ada, 'GET', '/blog_posts/1')).json().record).toMatchObject({ title: 'Mine still', author: { id: 2 } });
  });

  it('"never sortable/filterable through the URL": a field hidden from the person (view_count on others\' posts, created_at of users) is refused like an unknown one, with the API\'s 400', async () => {
    const rita = await as('rita');
    for (const url of ['/blog_posts?sort_by=view_count', '/blog_posts?filter[view_count][gte]=0', '/users?sort_by=created_at', '/users?filter[created_at][gte]=2020-01-01T00:00Z', '/users?filter[email][eq]=ada@example.com']) {
      const screen = await rita.get(`/panel/resources${url}`);
      const answer = await viaApi(rita, 'GET', url);
      expect([screen.statusCode, answer.statusCode], url).toEqual([400, 400]);
      expect(mainText(screen.body), url).toContain(answer.json().error.replaceAll('"', '&quot;'));
    }
    // The index shows no value of view_count on a post that is not hers, and no "Created at" anywhere.
    const posts = await rita.get('/panel/resources/blog_posts?per_page=100');
    expect(posts.body).not.toMatch(/Created at/);
    const users = await rita.get('/panel/resources/users/2');
    expect(users.body).not.toContain('Created at');
  });
});
