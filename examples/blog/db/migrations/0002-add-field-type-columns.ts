import { sql, type Kysely } from 'kysely';

/**
 * The columns of the newer field types: a product's status (a select), tags (text[]) and specs
 * (jsonb); a user's password digest; a post's summary; the tags of posts through a join table.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('products')
    .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('draft').check(sql`status in ('draft', 'active', 'archived')`))
    .addColumn('tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('specs', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
  await db.schema.alterTable('users').addColumn('password_digest', 'text').execute();
  await db.schema.alterTable('blog_posts').addColumn('summary', 'text').execute();
  await db.schema
    .createTable('tags')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('name', 'varchar(60)', (c) => c.notNull().unique())
    .execute();
  await db.schema
    .createTable('blog_posts_tags')
    .addColumn('blog_post_id', 'integer', (c) => c.notNull().references('blog_posts.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('blog_posts_tags_pkey', ['blog_post_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('blog_posts_tags_tag_id_index').on('blog_posts_tags').column('tag_id').execute();
}

/** Drops what `up` added. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('blog_posts_tags').ifExists().execute();
  await db.schema.dropTable('tags').ifExists().execute();
  await db.schema.alterTable('blog_posts').dropColumn('summary').execute();
  await db.schema.alterTable('users').dropColumn('password_digest').execute();
  await db.schema.alterTable('products').dropColumn('specs').dropColumn('tags').dropColumn('status').execute();
}
