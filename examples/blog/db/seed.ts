import { sql, type Kysely } from 'kysely';
import { hashPassword } from '@panel/core';

/** The password of every seeded user. */
export const DEMO_PASSWORD = 'demo-password';

/** The demo's fixed data set; the same ids and values on every fresh database (password digests are salted, so they differ). */
export async function seed(db: Kysely<any>): Promise<void> {
  // One digest for every seeded user: scrypt is slow on purpose, and the seed should not be.
  const passwordDigest = await hashPassword(DEMO_PASSWORD);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('users')
      .values([
        { name: 'Ada Admin', email: 'ada@example.com', password_digest: passwordDigest, admin: true, created_at: new Date('2026-01-01T09:00:00Z') },
        { name: 'Rita Reader', email: 'rita@example.com', password_digest: passwordDigest, admin: false, created_at: new Date('2026-01-02T09:00:00Z') },
        { name: 'Carl Writer', email: 'carl@example.com', password_digest: passwordDigest, admin: false, created_at: new Date('2026-01-03T09:00:00Z') },
      ])
      .execute();
    await trx
      .insertInto('profiles')
      .values([
        { user_id: 1, bio: 'Runs the blog.' },
        { user_id: 3, bio: 'Writes about gardens and games.' },
      ])
      .execute();
    // 60 posts over three authors; every fifth is unpublished (posts 5, 10, 15 … fall to users 3, 2, 1 in turn).
    await trx
      .insertInto('blog_posts')
      .columns(['title', 'body', 'published', 'published_on', 'view_count', 'rating', 'author_id', 'created_at'])
      .expression(
        sql`select 'Post ' || lpad(i::text, 2, '0') || ': ' || (array['Gardens', 'Games', 'Kitchens', 'Trains', 'Rivers'])[1 + i % 5],
                   'The body of post ' || i || '.',
                   i % 5 <> 0,
                   case when i % 5 <> 0 then date '2026-01-01' + i end,
                   i * 7 % 100,
                   round((1 + (i * 37 % 40) / 10.0)::numeric, 2),
                   1 + i % 3,
                   timestamptz '2026-01-01 00:00:00+00' + i * interval '1 hour'
            from generate_series(1, 60) as i`,
      )
      .execute();
    await trx
      .insertInto('comments')
      .columns(['body', 'blog_post_id', 'user_id', 'created_at'])
      .expression(
        sql`select 'Comment ' || c || ' on post ' || p, p, 1 + (p + c) % 3, timestamptz '2026-02-01 00:00:00+00' + (p * 3 + c) * interval '1 minute'
            from generate_series(1, 60) as p, generate_series(1, 3) as c
            where c <= 1 + p % 3`,
      )
      .execute();
    await trx.insertInto('product_categories').values([{ name: 'Books' }, { name: 'Games' }, { name: 'Music' }, { name: 'Gardening' }]).execute();
    await trx
      .insertInto('products')
      .values([
        { name: 'The Art of Pruning', price: 24.5, in_stock: true, released_on: '2025-03-01', product_category_id: 1, status: 'active', tags: ['gardening', 'hardback'], specs: JSON.stringify({ pages: '212', language: 'English' }) },
        { name: 'Kitchen Chemistry', price: 31, in_stock: false, released_on: '2024-10-12', product_category_id: 1, status: 'archived', tags: ['cooking'] },
        { name: 'Rail Tycoon Deluxe', price: 49.99, in_stock: true, released_on: '2025-11-20', product_category_id: 2, status: 'active', specs: JSON.stringify({ players: '2-5' }) },
        { name: 'River Dice', price: 12, in_stock: true, released_on: null, product_category_id: 2 },
        { name: 'Songs for Seedlings', price: 9.99, in_stock: true, released_on: '2026-04-01', product_category_id: 3 },
      ])
      .execute();
    await trx.insertInto('tags').values([{ name: 'gardening' }, { name: 'travel' }, { name: 'food' }, { name: 'howto' }]).execute();
    // Posts 1–12 carry tags: post i has tag 1 + i % 4, and every third post also has tag 4 ('howto').
    await trx
      .insertInto('blog_posts_tags')
      .columns(['blog_post_id', 'tag_id'])
      .expression(sql`select i, 1 + i % 4 from generate_series(1, 12) as i union select i, 4 from generate_series(3, 12, 3) as i`)
      .execute();
    await trx.updateTable('blog_posts').set({ summary: sql`'A short summary of post ' || id || '.'` }).where('id', '<=', 5).execute();
  });
}
