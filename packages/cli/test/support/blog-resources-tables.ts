import type { PanelDatabase } from '@panel/core';

/** The tables the `blog-resources` fixture's resources read (users, blog_posts, product_categories), with one user: the boot's schema check passes. */
export async function createBlogResourcesTables(database: PanelDatabase): Promise<void> {
  const { db } = database;
  await db.schema.createTable('users').addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity()).addColumn('name', 'text', (c) => c.notNull()).addColumn('email', 'text', (c) => c.notNull()).execute();
  await db.schema
    .createTable('blog_posts')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text')
    .addColumn('author_id', 'integer', (c) => c.references('users.id'))
    .execute();
  await db.schema.createTable('product_categories').addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity()).addColumn('name', 'text', (c) => c.notNull()).execute();
  await db.insertInto('users').values({ name: 'Ada', email: 'ada@example.com' }).execute();
}
