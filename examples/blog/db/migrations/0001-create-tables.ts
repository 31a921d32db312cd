import { sql, type Kysely } from 'kysely';

/** The demo's tables. Foreign keys restrict deletes, except that a post takes its comments and a user its profile with it. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('name', 'varchar(120)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('admin', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('profiles')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('bio', 'text')
    .addColumn('user_id', 'integer', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .execute();
  await db.schema
    .createTable('blog_posts')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('title', 'varchar(200)', (c) => c.notNull())
    .addColumn('body', 'text')
    .addColumn('published', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('published_on', 'date')
    .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating', 'numeric(4, 2)')
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('restrict'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('comments')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('blog_post_id', 'integer', (c) => c.notNull().references('blog_posts.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('restrict'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('product_categories')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('name', 'varchar(80)', (c) => c.notNull().unique())
    .execute();
  await db.schema
    .createTable('products')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('name', 'varchar(120)', (c) => c.notNull())
    .addColumn('price', 'numeric(10, 2)')
    .addColumn('in_stock', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('released_on', 'date')
    .addColumn('product_category_id', 'integer', (c) => c.references('product_categories.id').onDelete('restrict'))
    .execute();
  for (const [table, column] of [
    ['blog_posts', 'author_id'],
    ['comments', 'blog_post_id'],
    ['comments', 'user_id'],
    ['products', 'product_category_id'],
  ] as const) {
    await db.schema.createIndex(`${table}_${column}_index`).on(table).column(column).execute();
  }
}

/** Drops the demo's tables. */
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['products', 'product_categories', 'comments', 'blog_posts', 'profiles', 'users']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
