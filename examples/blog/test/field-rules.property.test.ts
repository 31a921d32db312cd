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

/** A valid value for each key a body may carry (so most writes succeed and would write a forbidden key); other keys are junk. */
const valid: Record<string, fc.Arbitrary<unknown>> = {
  admin: fc.boolean(),
  email: fc.emailAddress().filter((e) => e.length <= 254 && !/\s/.test(e)),
  name: fc.constant('Rita Reader'),
  password: fc.string({ minLength: 8, maxLength: 20 }),
  author_id: fc.integer({ min: 1, max: 3 }),
  user_id: fc.integer({ min: 1, max: 3 }),
  title: fc.string({ minLength: 1, maxLength: 40 }),
  body: fc.string({ minLength: 1, maxLength: 40 }),
  blog_post_id: fc.integer({ min: 1, max: 60 }),
  view_count: fc.integer({ min: 0, max: 1000 }),
  published: fc.constant(false),
  created_at: fc.constant('2000-01-01T00:00:00Z'),
  id: fc.integer({ min: 1, max: 5 }),
  author: fc.jsonValue({ maxDepth: 1 }),
  user: fc.jsonValue({ maxDepth: 1 }),
};

/** A write the actor's policy allows: the resource, the method and path, the keys a body draws from. */
const writes = [
  { key: 'user', method: 'PATCH', path: `/users/${RITA}`, keys: ['admin', 'email', 'name', 'password', 'created_at', 'id'] },
  { key: 'blog_post', method: 'PATCH', path: '/blog_posts/4', keys: ['author_id', 'title', 'view_count', 'published', 'author'] },
  { key: 'blog_post', method: 'POST', path: '/blog_posts', keys: ['author_id', 'title', 'view_count', 'author'] },
  { key: 'comment', method: 'POST', path: '/comments', keys: ['user_id', 'body', 'blog_post_id', 'user'] },
] as const;

/** A body: any of the write's keys with valid values, the required ones always, and a junk key now and then. */
const bodyOf = (what: (typeof writes)[number]) =>
  fc.tuple(
    fc.record(Object.fromEntries(what.keys.map((key) => [key, valid[key]!])), { requiredKeys: what.key === 'comment' ? ['body', 'blog_post_id'] : what.method === 'POST' ? ['title'] : [] }),
    fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
  ).map(([known, junk]) => ({ ...junk, ...known }));

describeOnEachDatabase('no field the rules forbid is ever written or answered (property)', (demo) => {
  const db = () => demo().database.db;

  it('holds for random actors (admin, reader) and random bodies of create and update', async () => {
    const actor = fc.constantFrom({ name: 'reader', headers: READER, admin: false }, { name: 'admin', headers: ADMIN, admin: true });
    const write = fc.constantFrom(...writes);
    const scenario = fc.tuple(actor, write).chain(([who, what]) => fc.tuple(fc.constant(who), fc.constant(what), bodyOf(what)));

    const ritaDigest = (await db().selectFrom('users').select('password_digest').where('id', '=', RITA).executeTakeFirstOrThrow()).password_digest;
    let written = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ([who, what, attributes]) => {
        const ritaBefore = await db().selectFrom('users').select(['admin', 'email']).where('id', '=', RITA).executeTakeFirstOrThrow();
        const postBefore = await db().selectFrom('blog_posts').select('author_id').where('id', '=', 4).executeTakeFirstOrThrow();
        const response = await demo().app.inject({ method: what.method, url: `${V1}${what.path}`, headers: { ...who.headers, 'content-type': 'application/json' }, payload: JSON.stringify({ [what.key]: attributes }) });
        expect([200, 201, 422], response.body).toContain(response.statusCode);
        const record = response.statusCode < 300 ? (response.json().record as Record<string, unknown>) : undefined;
        if (record) written += 1;

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
        await db().updateTable('users').set({ admin: false, email: 'rita@example.com', name: 'Rita Reader', password_digest: ritaDigest }).where('id', '=', RITA).execute();
        await db().updateTable('blog_posts').set({ author_id: RITA }).where('id', '=', 4).execute();
        if (record && what.method === 'POST') await db().deleteFrom(what.key === 'blog_post' ? 'blog_posts' : 'comments').where('id', '=', record.id as number).execute();
      }),
      { numRuns: 60, seed: Number(process.env.PANEL_PROPERTY_SEED ?? 20261125) },
    );
    // Most bodies are valid, so the forbidden keys they carry would have been written without the rules.
    expect(written).toBeGreaterThan(30);
  }, 180_000);
});
