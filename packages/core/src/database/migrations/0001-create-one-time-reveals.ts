import type { Kysely } from 'kysely';
import { ONE_TIME_REVEALS_TABLE } from '../../reveals/one-time-reveals.js';

/**
 * The one-time reveals: a value shown once to the browser session that made it (a new API
 * token's secret), sealed, until its first look or its expiry. In the database so that any
 * process behind a load balancer can show it, and only one can.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable(ONE_TIME_REVEALS_TABLE)
    .addColumn('id', 'varchar(120)', (c) => c.primaryKey())
    .addColumn('session_digest', 'char(64)', (c) => c.notNull())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('expires_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex(`${ONE_TIME_REVEALS_TABLE}_expires_index`).on(ONE_TIME_REVEALS_TABLE).column('expires_at_ms').execute();
}

/** Drops the one-time reveals: secrets waiting for their screen are gone (their tokens stay). */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable(ONE_TIME_REVEALS_TABLE).ifExists().execute();
}
