// "A property test over random actors and bodies: no field the rules forbid is ever written or
// answered." The demo's rules (app/panel/policies/field-rules.ts): users.admin and users.email
// readonly for non-admins; the owner keys readonly for non-admins, defaulting to the actor on
// create; users.created_at visible to admins; blog_posts.view_count visible to admins and the
// post's author.
import { expect, it } from 'vitest';
import fc from 'fast-check';
import { ADMIN, READER, describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';
const RITA = 2;

/** Values of the kinds the forbidden keys take, and junk. */
const value = fc.oneof(fc.boolean(), fc.integer({ min: -2, max: 6 }), fc.constant(null), fc.emailAddress(), fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 1 }));

/** A write the actor's policy allows: the resource, the method and path, the keys a body draws from. */
const writes = [
  { key: 'user', method: 'PATCH', path: `/users/${RITA}`, keys: ['admin', 'email', 'name', 'password', 'created_at', 'id'] },
  { key: 'blog_post', method: 'PATCH', path: '/blog_posts/4', keys: ['author_id', 'title', 'view_count', 'published', 'author'] },
  { key: 'blog_post', method: 'POST', path: '/blog_posts', keys: ['author_id', 'title', 'view_count', 'author'] },
  { key: 'comment', method: 'POST', path: '/comments', keys: ['user_id', 'body', 'blog_post_id', 'user'] },
] as const;

describeOnEachDatabase('no field the rules forbid is ever written or answered (property)', (demo) => {
  const db = () => demo().database.db;

  it('holds for random actors (admin, reader) and random bodies of create and update', async () => {
    const actor = fc.constantFrom({ name: 'reader', headers: READER, admin: false }, { name: 'admin', headers: ADMIN, admin: true });
    const write = fc.constantFrom(...writes);
    const body = (keys: readonly string[]) => fc.dictionary(fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 6 })), value, { maxKeys: 5 });
    const scenario = fc.tuple(actor, write).chain(([who, what]) => fc.tuple(fc.constant(who), fc.constant(what), body(what.keys)));

    await fc.assert(
      fc.asyncProperty(scenario, async ([who, what, attributes]) => {
        const ritaBefore = await db().selectFrom('users').select(['admin', 'email']).where('id', '=', RITA).executeTakeFirstOrThrow();
        const postBefore = await db().selectFrom('blog_posts').select('author_id').where('id', '=', 4).executeTakeFirstOrThrow();
        const response = await demo().app.inject({ method: what.method, url: `${V1}${what.path}`, headers: { ...who.headers, 'content-type': 'application/json' }, payload: JSON.stringify({ [what.key]: attributes }) });
        expect([200, 201, 422], response.body).toContain(response.statusCode);
        const record = response.statusCode < 300 ? (response.json().record as Record<string, unknown>) : undefined;

        if (!who.admin) {
          // Never written: admin, email, and the owner keys stay as they were, or are the actor on create.
          expect(await db().selectFrom('users').select(['admin', 'email']).where('id', '=', RITA).executeTakeFirstOrThrow()).toEqual(ritaBefore);
          expect(await db().selectFrom('blog_posts').select('author_id').where('id', '=', 4).executeTakeFirstOrThrow()).toEqual(postBefore);
          if (record && what.method === 'POST') {
            const owner = (what.key === 'blog_post' ? record.author : record.user) as { id: number };
            expect(owner.id).toBe(RITA);
          }
          // Never answered: users.created_at; view_count only on her own posts.
          if (record && what.key === 'user') expect(record).not.toHaveProperty('created_at');
          if (record && what.key === 'blog_post') expect('view_count' in record).toBe((record.author as { id: number } | null)?.id === RITA);
        } else if (record && what.key === 'user') {
          expect(record).toHaveProperty('created_at');
        }
        // Keep the fixture: Rita stays a reader with her email, post 4 stays hers, new records go.
        await db().updateTable('users').set({ admin: false, email: 'rita@example.com', name: 'Rita Reader' }).where('id', '=', RITA).execute();
        await db().updateTable('blog_posts').set({ author_id: RITA }).where('id', '=', 4).execute();
        if (record && what.method === 'POST') await db().deleteFrom(what.key === 'blog_post' ? 'blog_posts' : 'comments').where('id', '=', record.id as number).execute();
      }),
      { numRuns: 60, seed: Number(process.env.PANEL_PROPERTY_SEED ?? 20261125) },
    );
  }, 180_000);
});
