import { expect, it } from 'vitest';
import { ADMIN, READER, describeOnEachDatabase } from './demo-app-support.js';

describeOnEachDatabase('the demo policies (Edition A authorization)', (demo) => {
  const inject = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string> = READER, payload?: unknown) =>
    demo().app.inject({ method, url, headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });

  it('"Index resolves through the policy Scope, so only records the user may see are returned": a reader lists published posts and her own', async () => {
    const { pagination, records } = (await inject('GET', '/api/resources/v1/blog_posts?per_page=100')).json();
    expect(pagination.total_count).toBe(52);
    expect(records).toHaveLength(52);
    const own = records.filter((r: { author: { id: number } }) => r.author.id === 2);
    expect(records.filter((r: { published: boolean }) => !r.published).map((r: { id: number }) => r.id).sort((a: number, b: number) => a - b)).toEqual([10, 25, 40, 55]);
    expect(own.length).toBeGreaterThan(0);
    expect((await inject('GET', '/api/resources/v1/blog_posts?per_page=100', ADMIN)).json().pagination.total_count).toBe(60);
  });

  it('"A record outside it returns 404, never 403": a reader gets 404 for another user\'s unpublished post', async () => {
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const response = await inject(method, '/api/resources/v1/blog_posts/5', READER, method === 'PATCH' ? { blog_post: { title: 'x' } } : undefined);
      expect(response.statusCode, method).toBe(404);
      expect(response.json()).toEqual({ error: 'Not Found' });
    }
    expect((await inject('GET', '/api/resources/v1/blog_posts/10')).statusCode).toBe(200);
  });

  it('"A policy method returning false … answers with a 302 redirect to the root URL, not JSON": a reader deleting a visible post', async () => {
    const response = await inject('DELETE', '/api/resources/v1/blog_posts/1');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/panel');
    expect(response.body).toBe('');
    expect(response.cookies.find((c) => c.name === 'panel_flash')?.value).toBe('You are not authorized to perform this action.');
    expect((await inject('GET', '/api/resources/v1/blog_posts/1')).statusCode).toBe(200);
  });

  it('lets an author update her own post but redirects her update of someone else\'s', async () => {
    expect((await inject('PATCH', '/api/resources/v1/blog_posts/4', READER, { blog_post: { title: 'Mine' } })).statusCode).toBe(200);
    const other = await inject('PATCH', '/api/resources/v1/blog_posts/3', READER, { blog_post: { title: 'Not mine' } });
    expect(other.statusCode).toBe(302);
    expect((await inject('GET', '/api/resources/v1/blog_posts/3')).json().record.title).toBe('Post 03: Trains');
  });

  it('"An override may add rescue_from Panel::NotAuthorizedError and render { "error": "Forbidden" } with status 403": comments', async () => {
    const response = await inject('DELETE', '/api/resources/v1/comments/1');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'Forbidden' });
    expect((await inject('GET', '/api/resources/v1/comments/1')).statusCode).toBe(200);
  });

  it('lets a user delete her own comment', async () => {
    const created = (await inject('POST', '/api/resources/v1/comments', READER, { comment: { body: 'Mine', blog_post_id: 1, user_id: 2 } })).json().record;
    expect((await inject('DELETE', `/api/resources/v1/comments/${created.id}`)).statusCode).toBe(200);
  });

  it('shows a reader only herself among users', async () => {
    const { records, pagination } = (await inject('GET', '/api/resources/v1/users')).json();
    expect(records.map((r: { id: number }) => r.id)).toEqual([2]);
    expect(pagination.total_count).toBe(1);
    expect((await inject('GET', '/api/resources/v1/users/1')).statusCode).toBe(404);
  });

  it('"A controller may skip_before_action :setup_authentication to make one resource public": products without a key', async () => {
    const list = await demo().app.inject({ method: 'GET', url: '/api/resources/v1/products' });
    expect(list.statusCode).toBe(200);
    expect(list.json().pagination.total_count).toBe(5);
    expect((await demo().app.inject({ method: 'GET', url: '/api/resources/v1/products/1' })).statusCode).toBe(200);
    const write = await demo().app.inject({ method: 'POST', url: '/api/resources/v1/products', payload: { product: { name: 'Free' } } });
    expect(write.statusCode).toBe(401);
  });

  it('lets only admins write products and categories', async () => {
    expect((await inject('POST', '/api/resources/v1/products', READER, { product: { name: 'Nope' } })).statusCode).toBe(302);
    expect((await inject('POST', '/api/resources/v1/products', ADMIN, { product: { name: 'Yes' } })).statusCode).toBe(201);
    expect((await inject('GET', '/api/resources/v1/product_categories')).statusCode).toBe(200);
    expect((await inject('POST', '/api/resources/v1/product_categories', READER, { product_category: { name: 'Nope' } })).statusCode).toBe(302);
  });

  it('refuses an unauthorized create before it reports validation errors', async () => {
    const response = await inject('POST', '/api/resources/v1/products', READER, { product: {} });
    expect(response.statusCode).toBe(302);
  });
});
