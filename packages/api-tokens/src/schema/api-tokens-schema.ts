import { sql, type Kysely } from 'kysely';

/** The table of tokens. */
export const TOKENS_TABLE = 'panel_api_tokens';

/** The table of permission grants (per token, or the default permissions list when `token_id` is null). */
export const GRANTS_TABLE = 'panel_api_permission_grants';

/**
 * Version 1 of the Edition B tables. `panel-api install` writes a migration into the app that
 * calls these; a later schema change ships as a new version beside this one, so a migration an
 * app already ran never changes under it.
 */
export const apiTokensSchemaV1 = Object.freeze({
  // The app's tables are not known statically.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable(TOKENS_TABLE)
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      .addColumn('public_id', 'varchar(16)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(120)', (c) => c.notNull())
      .addColumn('token_digest', 'char(64)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active').check(sql`status in ('active', 'disabled', 'revoked')`))
      .addColumn('expires_at', 'timestamptz')
      .addColumn('last_used_at', 'timestamptz')
      .addColumn('created_by_id', 'integer')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('revoked_at', 'timestamptz')
      .execute();
    await db.schema
      .createTable(GRANTS_TABLE)
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      .addColumn('token_id', 'integer', (c) => c.references(`${TOKENS_TABLE}.id`).onDelete('cascade'))
      .addColumn('resource', 'varchar(120)', (c) => c.notNull())
      .addColumn('verb', 'varchar(16)', (c) => c.notNull().check(sql`verb in ('index', 'show', 'create', 'update', 'destroy')`))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      // The default permissions list (token_id null) may hold only reads, in the database too.
      .addCheckConstraint('panel_api_default_grants_read_only', sql`token_id is not null or verb in ('index', 'show')`)
      .execute();
    await db.schema.createIndex('panel_api_token_grants_unique').on(GRANTS_TABLE).columns(['token_id', 'resource', 'verb']).unique().where(sql.ref('token_id'), 'is not', null).execute();
    await db.schema.createIndex('panel_api_default_grants_unique').on(GRANTS_TABLE).columns(['resource', 'verb']).unique().where(sql.ref('token_id'), 'is', null).execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable(GRANTS_TABLE).ifExists().execute();
    await db.schema.dropTable(TOKENS_TABLE).ifExists().execute();
  },
});

/** The unique index on token digests that version 2 adds. */
export const TOKEN_DIGEST_INDEX = 'panel_api_tokens_digest_unique';

/**
 * Version 2: a unique index on `token_digest`. Authentication looks a presented secret up by its
 * keyed digest alone, so an unknown public id and a known one with a wrong secret take the same
 * path through the index and both find no entry (with the public id as the key, a known id cost
 * one heap visit more: a timing oracle for which ids exist). Without this index the same lookup
 * reads the whole table, the same work for both but slow on a large table. `panel-api install`
 * writes a migration for it; an app that installed version 1 gets a second migration.
 */
export const apiTokensSchemaV2 = Object.freeze({
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.createIndex(TOKEN_DIGEST_INDEX).on(TOKENS_TABLE).column('token_digest').unique().execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropIndex(TOKEN_DIGEST_INDEX).ifExists().execute();
  },
});
