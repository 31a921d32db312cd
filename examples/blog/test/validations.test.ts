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

  it('lets beforeDestroy refuse a delete: an admin user is kept', async () => {
    const response = await write('DELETE', 'users/1');
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ errors: { base: ['Cannot delete an admin user'] }, message: 'Failed to delete User' });
  });
});
