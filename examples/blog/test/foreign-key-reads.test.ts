// Edition A: an id a write names must be inside the target resource's policy scope for the user.
// The reader's owner keys (blog_posts.author_id, comments.user_id) are readonly for her (the
// field rules), so the write she can still aim at a hidden record is a comment's blog_post_id:
// "Commenting on a post outside the reader's scope" must answer as a post that does not exist.
import { expect, it } from 'vitest';
import { ADMIN, READER, describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';
const NO_SUCH_POST = 424242;

describeOnEachDatabase('foreign keys to records the actor cannot read (Edition A)', (demo) => {
  const request = (method: 'GET' | 'POST' | 'PATCH', url: string, headers: Record<string, string>, payload?: unknown) =>
    demo().app.inject({ method, url: `${V1}${url}`, headers: { ...headers, 'content-type': 'application/json' }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });

  /** A post the reader cannot open (outside her scope: unpublished), and one she can. */
  async function posts(): Promise<{ hidden: number; visible: number }> {
    const all = (await request('GET', '/blog_posts?per_page=100', ADMIN)).json().records as { id: number }[];
    const mine = new Set(((await request('GET', '/blog_posts?per_page=100', READER)).json().records as { id: number }[]).map((r) => r.id));
    const hidden = all.find((r) => !mine.has(r.id))!.id;
    return { hidden, visible: [...mine][0]! };
  }

  it('"the target is inside the target\'s policy scope for this user": the reader cannot comment on a post outside her scope, and the answer is the one a missing post gets', async () => {
    const { hidden } = await posts();
    expect((await request('GET', `/blog_posts/${hidden}`, READER)).statusCode).toBe(404);
    const outside = await request('POST', '/comments', READER, { comment: { body: 'Hello', blog_post_id: hidden } });
    const missing = await request('POST', '/comments', READER, { comment: { body: 'Hello', blog_post_id: NO_SUCH_POST } });
    expect(outside.statusCode).toBe(422);
    expect(outside.json()).toEqual({ errors: { blog_post: ['must exist'] }, message: 'Failed to create Comment' });
    expect(outside.body).toBe(missing.body);
  });

  it('a user names a target inside their scope, and an admin any existing one', async () => {
    const { hidden, visible } = await posts();
    const own = await request('POST', '/comments', READER, { comment: { body: 'On a post I can read', blog_post_id: visible } });
    expect(own.statusCode).toBe(201);
    const id = own.json().record.id as number;
    expect((await request('PATCH', `/comments/${id}`, READER, { comment: { blog_post_id: hidden } })).statusCode).toBe(422);
    const byAdmin = await request('PATCH', `/comments/${id}`, ADMIN, { comment: { blog_post_id: hidden } });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json().record.blog_post.id).toBe(hidden);
  });
});
