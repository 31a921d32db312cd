import type { Kysely } from 'kysely';
import { REVOKED_SESSIONS_TABLE, SESSION_GENERATIONS_TABLE, SIGN_IN_FAILURES_TABLE } from '../../session/session-tables.js';

/**
 * The panel session's server-side state: the per-user generation that ends every session of a
 * user, the signed-out session ids that refuse every copy of one cookie, and the failed sign-in
 * counts that throttle guessing. Users are named by
 * their id as text, so that integer and uuid ids both fit, without a foreign key to the app's
 * users table. Times are milliseconds since the epoch from the panel's clock.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable(SESSION_GENERATIONS_TABLE)
    .addColumn('user_key', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable(REVOKED_SESSIONS_TABLE)
    .addColumn('session_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('expires_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex(`${REVOKED_SESSIONS_TABLE}_expires_index`).on(REVOKED_SESSIONS_TABLE).column('expires_at_ms').execute();
  await db.schema
    .createTable(SIGN_IN_FAILURES_TABLE)
    .addColumn('key', 'varchar(400)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_started_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex(`${SIGN_IN_FAILURES_TABLE}_window_index`).on(SIGN_IN_FAILURES_TABLE).column('window_started_at_ms').execute();
}

/** Drops the session tables: every session of every generation opens again, and the counts are gone. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable(SIGN_IN_FAILURES_TABLE).ifExists().execute();
  await db.schema.dropTable(REVOKED_SESSIONS_TABLE).ifExists().execute();
  await db.schema.dropTable(SESSION_GENERATIONS_TABLE).ifExists().execute();
}
