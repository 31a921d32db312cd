import { sql, type Kysely } from 'kysely';

/** The table of `Idempotency-Key` answers (the API's retried writes). */
export const IDEMPOTENCY_KEYS_TABLE = 'panel_api_idempotency_keys';

/** The table of rate-limit counters that several processes share (the API's PostgreSQL store). */
export const RATE_LIMITS_TABLE = 'panel_api_rate_limits';

/** Edition B: a token's own rate limit, beside its record (the token tables are the app's migration). */
export const TOKEN_RATE_LIMITS_TABLE = 'panel_api_token_rate_limits';

/**
 * The API's shared HTTP state: the answers stored for `Idempotency-Key` (one row per
 * credential and key, written in the transaction of the write it answers), and the rate-limit
 * counters of the shared store (one row per credential and window). Neither holds a foreign key
 * to the app's tables: a credential is named by text (`token:12`, `user:3`, `address:…`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable(IDEMPOTENCY_KEYS_TABLE)
    .addColumn('scope', 'varchar(300)', (c) => c.notNull())
    .addColumn('key', 'varchar(255)', (c) => c.notNull())
    .addColumn('method', 'varchar(10)', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint(`${IDEMPOTENCY_KEYS_TABLE}_pkey`, ['scope', 'key'])
    .execute();
  await db.schema.createIndex(`${IDEMPOTENCY_KEYS_TABLE}_created_at_index`).on(IDEMPOTENCY_KEYS_TABLE).column('created_at').execute();
  await db.schema
    .createTable(RATE_LIMITS_TABLE)
    .addColumn('key', 'varchar(400)', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('window_started_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex(`${RATE_LIMITS_TABLE}_window_index`).on(RATE_LIMITS_TABLE).column('window_started_at').execute();
  await db.schema
    .createTable(TOKEN_RATE_LIMITS_TABLE)
    .addColumn('token_id', 'integer', (c) => c.primaryKey())
    .addColumn('max_requests', 'integer', (c) => c.notNull().check(sql`max_requests > 0`))
    .execute();
}

/** Drops both tables: stored answers are forgotten (a retry writes again) and every counter starts at zero. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable(TOKEN_RATE_LIMITS_TABLE).ifExists().execute();
  await db.schema.dropTable(RATE_LIMITS_TABLE).ifExists().execute();
  await db.schema.dropTable(IDEMPOTENCY_KEYS_TABLE).ifExists().execute();
}
