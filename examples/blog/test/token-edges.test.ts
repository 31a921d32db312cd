// Edges of Edition B found by probing the demo over HTTP (docs/decisions.md, "Edges of uploads,
// batches and includes found by probing the demo"): what a token's answers must never disclose.
import { expect, it } from 'vitest';
import { describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';

describeOnEachDatabase('Edition B token edges', (demo) => {
  const bearer = (name: string) => ({ authorization: `Bearer ${demo().tokenSecrets!.get(name)!}` });
  const get = (url: string, headers: Record<string, string> = {}) => demo().app.inject({ method: 'GET', url, headers });
  const send = (method: 'POST' | 'PATCH', url: string, headers: Record<string, string>, payload: unknown) =>
    demo().app.inject({ method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

  it('"The blob key is sealed … so the signed URL does not disclose the permanent one": a signed URL, its sealed path or a forged/expired one in `_remove` never brings the permanent URL into an answer', async () => {
    const cover = (await get(`${V1}/blog_posts/60?fields=cover`, bearer('writer'))).json().record.cover as { url: string };
    const [path, query] = cover.url.split('?') as [string, string];
    const blobKey = (await get(`${V1}/blog_posts?filter[id]=60&fields=cover`, { authorization: 'ApiKey demo-admin-key' })).json().records[0].cover.url.split('/').at(-2) as string;
    expect(blobKey).toMatch(/^[a-z0-9]{16,64}$/);
    const avatar = (await get(`${V1}/profiles?per_page=1&fields=avatar`, bearer('all'))).json().records.map((r: { avatar: { url: string } | null }) => r.avatar).find(Boolean) as { url: string } | undefined;
    const names = [cover.url, path, `${path}?expires=1&signature=x`, `${path}?expires=1000&${query.split('&')[1]}`, ...(avatar ? [avatar.url, avatar.url.split('?')[0]!] : [])];
    for (const name of names) {
      const refused = await send('PATCH', `${V1}/blog_posts/59`, bearer('writer'), { blog_post: { attachments_remove: [name] } });
      expect(refused.statusCode, name).toBe(422);
      expect(refused.json().errors.attachments, name).toEqual([`has no attached file named ${JSON.stringify(name)}`]);
      expect(refused.body).not.toContain(blobKey);
      expect(refused.body).not.toMatch(/\/panel\/attachments\/(?!signed\/)[a-z0-9]{16,64}\//);
      const batch = await send('POST', `${V1}/blog_posts/batch`, bearer('writer'), { atomic: false, operations: [{ op: 'update', id: 59, data: { attachments_remove: [name] } }] });
      expect(batch.body, name).toContain('has no attached file named');
      expect(batch.body).not.toContain(blobKey);
      expect(batch.body).not.toMatch(/\/panel\/attachments\/(?!signed\/)[a-z0-9]{16,64}\//);
    }
  });

  it('"a signed URL given to `_remove` is honoured only when its signature holds": an expired or forged signed URL of the record\'s own file is an unknown name, and the file stays', async () => {
    const files = (await get(`${V1}/blog_posts/12`, bearer('all'))).json().record.attachments as { url: string }[];
    expect(files.length).toBeGreaterThan(0);
    const url = files[0]!.url;
    const [path, query] = url.split('?') as [string, string];
    for (const name of [path, `${path}?expires=1&signature=x`, `${path}?expires=1000&${query.split('&')[1]}`]) {
      const refused = await send('PATCH', `${V1}/blog_posts/12`, bearer('all'), { blog_post: { attachments_remove: [name] } });
      expect(refused.statusCode, name).toBe(422);
      expect(refused.json().errors.attachments).toEqual([`has no attached file named ${JSON.stringify(name)}`]);
    }
    expect(((await get(`${V1}/blog_posts/12`, bearer('all'))).json().record.attachments as unknown[]).length).toBe(files.length);
  });
  it('"Whose budget": "the Edition B token … so do the app\'s custom routes, the OpenAPI document and a 404 under the mount … its budget is spent (429 once it is gone)"', async () => {
    const tokens = demo().tokens!;
    for (const url of [`${V1}/openapi.json`, '/api/no-such-route']) {
      const made = await tokens.create({ name: `budget ${url}`, grants: ['blog_posts:index'], createdById: 1 });
      await tokens.setRateLimit(made.token.id, 3);
      const headers = { authorization: `Bearer ${made.secret}` };
      const answers = [];
      for (let n = 1; n <= 4; n++) answers.push(await get(url, headers));
      expect(answers.map((answer) => answer.statusCode), url).toEqual([...Array(3).fill(url.endsWith('.json') ? 200 : 404), 429]);
      expect(answers[0]!.headers['ratelimit-policy'], url).toBe('"default";q=3;w=60');
      // The token's budget, not the address's: a resource route of the same token is refused too.
      expect((await get(`${V1}/blog_posts?per_page=1`, headers)).statusCode, url).toBe(429);
    }
    // An invalid token is still the document's 401 (from the address's budget).
    expect((await get(`${V1}/openapi.json`, { authorization: 'Bearer garbage' })).statusCode).toBe(401);
  });
  it('"`next` a URL this actor can call for the next page in cursor mode": a token that may list posts and comments but not show a post is given the filtered list, not the traversal it gets 403 on', async () => {
    const { secret } = await demo().tokens!.create({ name: 'lists only', grants: ['blog_posts:index', 'comments:index'], createdById: 1 });
    const headers = { authorization: `Bearer ${secret}` };
    const answer = await get(`${V1}/blog_posts?per_page=1&sort_by=id&sort_direction=asc&filter[id]=2&include=comments&include_per_page[comments]=1`, headers);
    expect(answer.statusCode, answer.body).toBe(200);
    const { comments } = answer.json().records[0];
    expect(comments.has_more).toBe(true);
    expect(comments.next).toMatch(/^\/api\/resources\/v1\/comments\?/);
    const next = await get(comments.next, headers);
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json().records).toHaveLength(1);
    expect(next.json().records[0].id).not.toBe(comments.records[0].id);
    // A token that may show the post keeps the traversal.
    const reader = await get(`${V1}/blog_posts?per_page=1&filter[id]=2&include=comments&include_per_page[comments]=1`, bearer('reader'));
    expect(reader.json().records[0].comments.next).toMatch(/^\/api\/resources\/v1\/blog_posts\/2\/comments\?/);
    expect((await get(reader.json().records[0].comments.next, bearer('reader'))).statusCode).toBe(200);
  });
}, { edition: 'B' });

/** The panel's clock in the suite below: moved by hand, never by sleeping. */
const clock = { now: Date.parse('2026-11-22T08:00:00.000Z') };

describeOnEachDatabase('Edition B token screens refused like unknown URLs', (demo) => {
  it('"A denied request is answered exactly as a URL the app does not have … so the screens\' existence is not disclosed": a non-admin whose session is due for resealing gets the same 404 on a token or settings URL as on an unknown one, Set-Cookie included', async () => {
    const login = await demo().app.inject({ method: 'POST', url: '/panel/login', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email=rita%40example.com&password=demo-password' });
    const session = login.cookies.find((cookie) => cookie.name === 'panel_session');
    expect(session?.value).toBeTruthy();
    const cookie = `panel_session=${session!.value}`;
    // The session's activity stamp over a minute old: a request that reads the session reseals it.
    clock.now += 65_000;
    const answer = async (url: string) => {
      const response = await demo().app.inject({ method: 'GET', url, headers: { cookie } });
      const { date: _date, ...headers } = response.headers;
      return { status: response.statusCode, headers, body: response.body.replaceAll(url, '<url>') };
    };
    const unknown = await answer('/panel/no_such_page');
    expect(unknown.status).toBe(404);
    for (const url of ['/panel/api_tokens', '/panel/panel_api/settings', '/panel/api_tokens/1/reveal', '/panel/api_tokens/new']) expect(await answer(url), url).toEqual(unknown);
    // The session still works, and is resealed where the panel serves a page.
    const home = await demo().app.inject({ method: 'GET', url: '/panel', headers: { cookie } });
    expect(home.statusCode).toBe(200);
    expect(home.cookies.some((c) => c.name === 'panel_session' && c.value !== '')).toBe(true);
  });
}, { edition: 'B', session: { now: () => clock.now } });
