import { expect, it } from 'vitest';
import { ADMIN, READER, describeOnEachDatabase } from './demo-app-support.js';

describeOnEachDatabase('Edition A authentication in the demo', (demo) => {
  const endpoints = [
    ['GET', '/api/resources/v1/blog_posts'],
    ['GET', '/api/resources/v1/blog_posts/1'],
    ['POST', '/api/resources/v1/blog_posts'],
    ['PATCH', '/api/resources/v1/blog_posts/1'],
    ['PUT', '/api/resources/v1/blog_posts/1'],
    ['DELETE', '/api/resources/v1/blog_posts/1'],
  ] as const;

  it('answers 401 { "error": "Unauthorized" } on every endpoint without a key, and writes nothing', async () => {
    for (const [method, url] of endpoints) {
      const response = await demo().app.inject({ method, url, payload: method === 'POST' || method === 'PATCH' || method === 'PUT' ? { blog_post: { title: 'x' } } : undefined });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json()).toEqual({ error: 'Unauthorized' });
    }
    const post = await demo().app.inject({ method: 'GET', url: '/api/resources/v1/blog_posts/1', headers: ADMIN });
    expect(post.statusCode).toBe(200);
  });

  it('answers 401 for a wrong key, another scheme or a malformed header', async () => {
    for (const authorization of ['ApiKey nope', 'Bearer demo-admin-key', 'ApiKey', 'demo-admin-key', 'ApiKey demo-admin-key extra']) {
      const response = await demo().app.inject({ method: 'GET', url: '/api/resources/v1/users', headers: { authorization } });
      expect(response.statusCode, authorization).toBe(401);
      expect(response.json()).toEqual({ error: 'Unauthorized' });
    }
  });

  it('accepts both demo keys', async () => {
    expect((await demo().app.inject({ method: 'GET', url: '/api/resources/v1/users/1', headers: ADMIN })).statusCode).toBe(200);
    expect((await demo().app.inject({ method: 'GET', url: '/api/resources/v1/products', headers: READER })).statusCode).toBe(200);
  });

  it('checks authentication before parsing parameters, so an anonymous client learns nothing from a 400', async () => {
    const response = await demo().app.inject({ method: 'GET', url: '/api/resources/v1/blog_posts?sort_by=nope' });
    expect(response.statusCode).toBe(401);
  });

  it('serves the panel root page naming the resources', async () => {
    const response = await demo().app.inject({ method: 'GET', url: '/panel' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    for (const name of ['User', 'Profile', 'Blog post', 'Comment', 'Product category', 'Product']) expect(response.body).toContain(name);
  });
});
