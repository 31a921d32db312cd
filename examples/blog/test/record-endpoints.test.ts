import { expect, it } from 'vitest';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

const json = (body: unknown) => ({ payload: JSON.stringify(body), headers: { ...ADMIN, 'content-type': 'application/json' } });

describeOnEachDatabase('show, create, update and delete', (demo) => {
  const inject = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
    demo().app.inject({ method, url, ...(body === undefined ? { headers: ADMIN } : json(body)) });

  it('GET /:id answers 200 { record: <record on :show view> }', async () => {
    const response = await inject('GET', '/api/resources/v1/blog_posts/5');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      record: {
        id: 5,
        title: 'Post 05: Gardens',
        summary: 'A short summary of post 5.',
        body: 'The body of post 5.',
        published: false,
        published_on: null,
        view_count: 35,
        rating: 3.5,
        author: { id: 3, label: 'Carl Writer' },
        comments: { count: 3 },
        tag_list: { count: 1 },
        cover: null,
        attachments: [],
        created_at: '2026-01-01T05:00:00.000Z',
      },
    });
  });

  it('serializes has_one as { id } and has_many as { count }', async () => {
    const ada = (await inject('GET', '/api/resources/v1/users/1')).json().record;
    expect(ada).toEqual({ id: 1, name: 'Ada Admin', email: 'ada@example.com', admin: true, created_at: '2026-01-01T09:00:00.000Z', blog_posts: { count: 20 }, profile: { id: 1 } });
    const rita = (await inject('GET', '/api/resources/v1/users/2')).json().record;
    expect(rita.profile).toBeNull();
  });

  it('answers 404 { error: "Not Found" } for a record that does not exist or an id that cannot name one', async () => {
    for (const id of ['999999', 'abc', '0', '99999999999', '1.5']) {
      const response = await inject('GET', `/api/resources/v1/blog_posts/${id}`);
      expect(response.statusCode, id).toBe(404);
      expect(response.json()).toEqual({ error: 'Not Found' });
    }
  });

  it('POST answers 201 { record } on the :show view ("Create and update return the record on its :show view")', async () => {
    const response = await inject('POST', '/api/resources/v1/blog_posts', {
      blog_post: { title: 'Hello', body: 'New body', published: true, published_on: '2026-11-22', view_count: 3, rating: 4.25, author_id: 3 },
    });
    expect(response.statusCode).toBe(201);
    const { record } = response.json();
    expect(record).toMatchObject({ title: 'Hello', body: 'New body', published: true, published_on: '2026-11-22', view_count: 3, rating: 4.25, author: { id: 3, label: 'Carl Writer' }, comments: { count: 0 }, cover: null, attachments: [] });
    expect(Object.keys(record)).toContain('created_at');
    const again = (await inject('GET', `/api/resources/v1/blog_posts/${record.id}`)).json().record;
    expect(again).toEqual(record);
  });

  it('POST writes a belongs_to as <association>_id and ignores keys that are not writable', async () => {
    const response = await inject('POST', '/api/resources/v1/comments', { comment: { body: 'Nice', blog_post_id: 2, user_id: 1, id: 777, created_at: '2000-01-01T00:00:00Z', unknown: 1 } });
    expect(response.statusCode).toBe(201);
    const { record } = response.json();
    expect(record.id).not.toBe(777);
    expect(record).toEqual({ id: record.id, body: 'Nice', blog_post: { id: 2, label: 'Post 02: Kitchens' }, user: { id: 1, label: 'Ada Admin' } });
  });

  it('POST answers 422 { errors, message: "Failed to create <ResourceName>" } for a blank required field', async () => {
    const response = await inject('POST', '/api/resources/v1/blog_posts', { blog_post: {} });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ errors: { title: ["can't be blank"] }, message: 'Failed to create Blog post' });
  });

  it('POST answers 422 naming the field for a value of the wrong type, and writes nothing', async () => {
    const before = (await inject('GET', '/api/resources/v1/blog_posts?per_page=1')).json().pagination.total_count;
    const response = await inject('POST', '/api/resources/v1/blog_posts', { blog_post: { title: 'x', view_count: 'many', published: 'yes', published_on: '22/11/2026', author_id: 'one' } });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      errors: {
        published: ['must be true or false'],
        published_on: ['must be a date in YYYY-MM-DD format'],
        view_count: ['is not a number'],
        author: ['must be the id of a record (a positive integer)'],
      },
      message: 'Failed to create Blog post',
    });
    const after = (await inject('GET', '/api/resources/v1/blog_posts?per_page=1')).json().pagination.total_count;
    expect(after).toBe(before);
  });

  it('POST answers 422 "has already been taken" for a duplicate unique value, and 422 "must exist" for a missing belongs_to target', async () => {
    const duplicate = await inject('POST', '/api/resources/v1/product_categories', { product_category: { name: 'Books' } });
    expect(duplicate.statusCode).toBe(422);
    expect(duplicate.json()).toEqual({ errors: { name: ['has already been taken'] }, message: 'Failed to create Product category' });
    const orphan = await inject('POST', '/api/resources/v1/products', { product: { name: 'Lost', product_category_id: 424242 } });
    expect(orphan.statusCode).toBe(422);
    expect(orphan.json()).toEqual({ errors: { product_category: ['must exist'] }, message: 'Failed to create Product' });
  });

  it('PATCH is a partial update answering 200 { record } on the :show view', async () => {
    const response = await inject('PATCH', '/api/resources/v1/blog_posts/7', { blog_post: { title: 'Renamed', rating: 1.5 } });
    expect(response.statusCode).toBe(200);
    expect(response.json().record).toMatchObject({ id: 7, title: 'Renamed', rating: 1.5, body: 'The body of post 7.', created_at: '2026-01-01T07:00:00.000Z' });
  });

  it('PUT updates the fields sent and answers 200 { record }', async () => {
    const response = await inject('PUT', '/api/resources/v1/products/1', { product: { name: 'Pruning, 2nd edition', price: 26, in_stock: false, released_on: '2026-03-01', product_category_id: 3 } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      record: { id: 1, name: 'Pruning, 2nd edition', price: 26, in_stock: false, released_on: '2026-03-01', product_category: { id: 3, label: 'Music' }, status: 'active', tags: ['gardening', 'hardback'], specs: { pages: '212', language: 'English' } },
    });
  });

  it('an update that fails validation answers 422 "Failed to update <ResourceName>" and changes nothing', async () => {
    const response = await inject('PATCH', '/api/resources/v1/blog_posts/8', { blog_post: { title: '', view_count: 2 } });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ errors: { title: ["can't be blank"] }, message: 'Failed to update Blog post' });
    expect((await inject('GET', '/api/resources/v1/blog_posts/8')).json().record).toMatchObject({ title: 'Post 08: Trains', view_count: 56 });
  });

  it('an update of a record that does not exist answers 404', async () => {
    const response = await inject('PATCH', '/api/resources/v1/blog_posts/424242', { blog_post: { title: 'x' } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Not Found' });
  });

  it('DELETE answers 200 { message: "<ResourceName> successfully deleted" } and the record is gone', async () => {
    const response = await inject('DELETE', '/api/resources/v1/blog_posts/9');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Blog post successfully deleted' });
    expect((await inject('GET', '/api/resources/v1/blog_posts/9')).statusCode).toBe(404);
  });

  it('DELETE that a foreign key refuses answers 422 { errors: { base: [...] }, message: "Failed to delete <ResourceName>" }', async () => {
    const response = await inject('DELETE', '/api/resources/v1/product_categories/2');
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ errors: { base: ['Cannot delete record because dependent products exist'] }, message: 'Failed to delete Product category' });
    expect((await inject('GET', '/api/resources/v1/product_categories/2')).statusCode).toBe(200);
  });

  it('DELETE of a record that does not exist answers 404', async () => {
    const response = await inject('DELETE', '/api/resources/v1/comments/424242');
    expect(response.statusCode).toBe(404);
  });

  it('DELETE with a JSON content type and an empty body is accepted', async () => {
    const response = await demo().app.inject({ method: 'DELETE', url: '/api/resources/v1/product_categories/4', headers: { ...ADMIN, 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Product category successfully deleted' });
  });
});
