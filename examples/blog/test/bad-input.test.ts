import { expect, it } from 'vitest';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

describeOnEachDatabase('bad input gets a clear 4xx answer and loses nothing', (demo) => {
  const count = async (routeKey: string) => (await demo().app.inject({ method: 'GET', url: `/api/resources/v1/${routeKey}?per_page=1`, headers: ADMIN })).json().pagination.total_count as number;
  const post = (payload: string, contentType = 'application/json', url = '/api/resources/v1/blog_posts') =>
    demo().app.inject({ method: 'POST', url, payload, headers: { ...ADMIN, 'content-type': contentType } });

  it('answers 400 with a JSON error for malformed JSON', async () => {
    const before = await count('blog_posts');
    const response = await post('{"blog_post": {"title": "x"');
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(typeof response.json().error).toBe('string');
    expect(await count('blog_posts')).toBe(before);
  });

  it('answers 400 naming the key when the <singular_key> wrapper is missing', async () => {
    for (const payload of ['{"title": "x"}', '[]', '"text"', '{"blog_post": "x"}', '{"blog_post": [1]}', 'null']) {
      const response = await post(payload);
      expect(response.statusCode, payload).toBe(400);
      expect(response.json()).toEqual({ error: 'param is missing or the value is not an object: blog_post (send { "blog_post": { ... } })' });
    }
  });

  it('answers 415 with a JSON error for a write that is not JSON', async () => {
    const response = await post('title=x', 'application/x-www-form-urlencoded');
    expect(response.statusCode).toBe(415);
    expect(typeof response.json().error).toBe('string');
    expect((await post('hello', 'text/plain')).statusCode).toBe(415);
  });

  it('answers 413 with a JSON error for a body over the limit (1 MiB by default)', async () => {
    const before = await count('blog_posts');
    const response = await post(JSON.stringify({ blog_post: { title: 'big', body: 'x'.repeat(1024 * 1024) } }));
    expect(response.statusCode).toBe(413);
    expect(typeof response.json().error).toBe('string');
    expect(await count('blog_posts')).toBe(before);
  });

  it('refuses JSON that tries to set __proto__, without a 500', async () => {
    const response = await post('{"blog_post": {"title": "p", "__proto__": {"admin": true}}}');
    expect(response.statusCode).toBe(400);
  });

  it('answers 400 for a page or per_page that is not a positive integer', async () => {
    for (const query of ['page=0', 'page=-1', 'page=abc', 'page=1.5', 'per_page=0', 'per_page=x', 'page=1&page=2']) {
      const response = await demo().app.inject({ method: 'GET', url: `/api/resources/v1/blog_posts?${query}`, headers: ADMIN });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error).toMatch(/^(page|per_page) must be a positive integer \(at most 1000000000\), instead got /);
    }
  });

  it('answers 400 for a sort_direction other than asc or desc', async () => {
    const response = await demo().app.inject({ method: 'GET', url: '/api/resources/v1/blog_posts?sort_by=title&sort_direction=sideways', headers: ADMIN });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'sort_direction must be "asc" or "desc", instead got "sideways"' });
  });

  it('names both mistakes of sort_by=nope&sort_direction=sideways in one 400, sort_by first', async () => {
    const response = await demo().app.inject({ method: 'GET', url: '/api/resources/v1/blog_posts?sort_by=nope&sort_direction=sideways', headers: ADMIN });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'sort_by must be one of id, title, published, published_on, view_count, rating, instead got "nope"; sort_direction must be "asc" or "desc", instead got "sideways"',
    });
  });

  it('does not let sort_by name a field hidden on index or reach SQL', async () => {
    for (const sortBy of ['body', 'created_at', 'author', 'title;drop table users', 'r.title']) {
      const response = await demo().app.inject({ method: 'GET', url: `/api/resources/v1/blog_posts?sort_by=${encodeURIComponent(sortBy)}`, headers: ADMIN });
      expect(response.statusCode, sortBy).toBe(400);
    }
    expect(await count('users')).toBe(3);
  });

  it('clamps per_page to the configured maximum (100)', async () => {
    const response = await demo().app.inject({ method: 'GET', url: '/api/resources/v1/comments?per_page=5000', headers: ADMIN });
    expect(response.json().pagination.per_page).toBe(100);
    expect(response.json().records).toHaveLength(100);
  });

  it('answers a page past the last with no records and the right pagination', async () => {
    const response = await demo().app.inject({ method: 'GET', url: '/api/resources/v1/blog_posts?page=50', headers: ADMIN });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ records: [], pagination: { page: 50, per_page: 24, total_pages: 3, total_count: 60, has_next_page: false, has_prev_page: true } });
  });

  it('keeps the cookie-stored per_page: "A client that keeps cookies keeps the last per_page it sent when it omits the parameter"', async () => {
    const first = await demo().app.inject({ method: 'GET', url: '/api/resources/v1/blog_posts?per_page=7', headers: ADMIN });
    const cookie = first.cookies.find((c) => c.name === 'per_page');
    expect(cookie).toMatchObject({ value: '7', path: '/api', httpOnly: true });
    const second = await demo().app.inject({ method: 'GET', url: '/api/resources/v1/users', headers: { ...ADMIN, cookie: `per_page=${cookie!.value}` } });
    expect(second.json().pagination.per_page).toBe(7);
    const fresh = await demo().app.inject({ method: 'GET', url: '/api/resources/v1/users', headers: ADMIN });
    expect(fresh.json().pagination.per_page).toBe(24);
  });

  it('answers 404 JSON for a path under the mount that no controller serves', async () => {
    for (const url of ['/api/resources/v1/nothing', '/api/resources/v2/blog_posts', '/api', '/api/resources/v1/blog_posts/1/comments']) {
      const response = await demo().app.inject({ method: 'GET', url, headers: ADMIN });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ error: 'Not Found' });
    }
  });
});
