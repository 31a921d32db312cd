import { expect, it } from 'vitest';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

describeOnEachDatabase('validations of the demo resources (422 { errors, message })', (demo) => {
  const write = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    demo().app.inject({ method, url: `/api/resources/v1/${url}`, headers: { ...ADMIN, 'content-type': 'application/json' }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });

  it('applies maxLength, min, max and format with Rails\' wording', async () => {
    const post = await write('POST', 'blog_posts', { blog_post: { title: 'x'.repeat(201), rating: 7, view_count: -1 } });
    expect(post.json()).toEqual({
      errors: { title: ['is too long (maximum is 200 characters)'], view_count: ['must be greater than or equal to 0'], rating: ['must be less than or equal to 5'] },
      message: 'Failed to create Blog post',
    });
    const user = await write('POST', 'users', { user: { name: 'No At', email: 'not-an-email' } });
    expect(user.statusCode).toBe(422);
    expect(user.json().errors).toEqual({ email: ['is invalid'] });
  });

  it('checks uniqueness in the write\'s transaction: "has already been taken", also on update', async () => {
    const user = await write('POST', 'users', { user: { name: 'Copy', email: 'ada@example.com' } });
    expect(user.json()).toEqual({ errors: { email: ['has already been taken'] }, message: 'Failed to create User' });
    const category = await write('PATCH', 'product_categories/2', { product_category: { name: 'Books' } });
    expect(category.json()).toEqual({ errors: { name: ['has already been taken'] }, message: 'Failed to update Product category' });
    expect((await write('PATCH', 'product_categories/1', { product_category: { name: 'Books' } })).statusCode).toBe(200);
  });

  it('runs the resource\'s validate hook: a published post needs its date', async () => {
    const created = await write('POST', 'blog_posts', { blog_post: { title: 'Out now', published: true } });
    expect(created.json()).toEqual({ errors: { published_on: ["can't be blank when the post is published"] }, message: 'Failed to create Blog post' });
    const unpublished = await write('PATCH', 'blog_posts/5', { blog_post: { published: true } });
    expect(unpublished.statusCode).toBe(422);
    expect((await write('PATCH', 'blog_posts/5', { blog_post: { published: true, published_on: '2026-11-22' } })).statusCode).toBe(200);
  });

  it('answers "must exist" for a belongs_to id no record has, "is out of range" for an integer the column cannot hold', async () => {
    const orphan = await write('POST', 'comments', { comment: { body: 'Hi', blog_post_id: 2147483647, user_id: 424242 } });
    expect(orphan.json()).toEqual({ errors: { blog_post: ['must exist'], user: ['must exist'] }, message: 'Failed to create Comment' });
    const beyond = await write('POST', 'comments', { comment: { body: 'Hi', blog_post_id: 1, user_id: 99999999999 } });
    expect(beyond.json()).toEqual({ errors: { user: ['must exist'] }, message: 'Failed to create Comment' });
    const huge = await write('PATCH', 'blog_posts/2', { blog_post: { view_count: 2 ** 31 } });
    expect(huge.json()).toEqual({ errors: { view_count: ['is out of range'] }, message: 'Failed to update Blog post' });
  });

  // "Bad input gets a clear 422 that says what is wrong, never silently changed data; what you
  // write is what show answers." The demo declares no scale: it is read from numeric(4, 2) and
  // numeric(10, 2) at boot.
  it('refuses a decimal with more places than its numeric(p, s) column keeps: "must have at most 2 decimal places", and what is accepted is what show answers', async () => {
    const rounded = await write('POST', 'blog_posts', { blog_post: { title: 'r', rating: 4.567 } });
    expect(rounded.statusCode).toBe(422);
    expect(rounded.json()).toEqual({ errors: { rating: ['must have at most 2 decimal places'] }, message: 'Failed to create Blog post' });
    for (const price of [1.555, 1e-7, 12345678.999, 0.1 + 0.2]) {
      const product = await write('PATCH', 'products/1', { product: { price } });
      expect(product.json(), String(price)).toEqual({ errors: { price: ['must have at most 2 decimal places'] }, message: 'Failed to update Product' });
    }
    const kept = await write('POST', 'blog_posts', { blog_post: { title: 'kept', rating: 4.5 } });
    expect(kept.statusCode).toBe(201);
    const id = kept.json().record.id as number;
    expect((await demo().app.inject({ method: 'GET', url: `/api/resources/v1/blog_posts/${id}`, headers: ADMIN })).json().record.rating).toBe(4.5);
    const cents = await write('PATCH', 'products/1', { product: { price: 12345678.99 } });
    expect(cents.statusCode).toBe(200);
    expect(cents.json().record.price).toBe(12345678.99);
  });

  it('lets beforeDestroy refuse a delete: an admin user is kept', async () => {
    const response = await write('DELETE', 'users/1');
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ errors: { base: ['Cannot delete an admin user'] }, message: 'Failed to delete User' });
  });
});
