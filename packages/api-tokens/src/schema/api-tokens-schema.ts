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
