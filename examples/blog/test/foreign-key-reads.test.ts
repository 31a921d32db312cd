// Edition A: an id a write names must be inside the target resource's policy scope for the user.
import { expect, it } from 'vitest';
import { ADMIN, READER, describeOnEachDatabase } from './demo-app-support.js';

const POSTS = '/api/resources/v1/blog_posts';
const NO_SUCH_USER = 424242;

describeOnEachDatabase('foreign keys to records the actor cannot read (Edition A)', (demo) => {
  const write = (method: 'POST' | 'PATCH', url: string, headers: Record<string, string>, payload: unknown) =>
    demo().app.inject({ method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

  it('"the target is inside the target\'s policy scope for this user": Rita (who sees only herself among users) cannot name user 1, and the answer is the one a missing user gets', async () => {
    expect((await demo().app.inject({ method: 'GET', url: '/api/resources/v1/users/1', headers: READER })).statusCode).toBe(404);
    const outside = await write('POST', POSTS, READER, { blog_post: { title: 'Assigned to Ada', author_id: 1 } });
    const missing = await write('POST', POSTS, READER, { blog_post: { title: 'Assigned to Ada', author_id: NO_SUCH_USER } });
    expect(outside.statusCode).toBe(422);
    expect(outside.json()).toEqual({ errors: { author: ['must exist'] }, message: 'Failed to create Blog post' });
    expect(outside.body).toBe(missing.body);
  });

  it('a user names a target inside their scope, and an admin any existing one', async () => {
    const own = await write('POST', POSTS, READER, { blog_post: { title: 'Rita\'s own', author_id: 2 } });
    expect(own.statusCode).toBe(201);
    const id = own.json().record.id as number;
    expect((await write('PATCH', `${POSTS}/${id}`, READER, { blog_post: { author_id: 1 } })).statusCode).toBe(422);
    const byAdmin = await write('PATCH', `${POSTS}/${id}`, ADMIN, { blog_post: { author_id: 1 } });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json().record.author.id).toBe(1);
  });
});
