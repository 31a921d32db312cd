import { sql, type Kysely } from 'kysely';
import { BLOBS_TABLE } from '../../attachments/attachment-tables.js';
import { UPLOADS_TABLE } from '../../uploads/upload-tables.js';

/**
 * The pending uploads table: one row per upload received and not yet attached, naming its blob,
 * its owner and its expiry. An attach deletes the row (an upload id is single-use); a purge
 * deletes expired rows with their blobs and bytes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable(UPLOADS_TABLE)
    .addColumn('digest', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('blob_id', 'bigint', (c) => c.notNull().references(`${BLOBS_TABLE}.id`))
    .addColumn('owner', 'varchar(255)', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('verified', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex(`${UPLOADS_TABLE}_expires_at_index`).on(UPLOADS_TABLE).column('expires_at').execute();
  await db.schema.createIndex(`${UPLOADS_TABLE}_blob_id_index`).on(UPLOADS_TABLE).column('blob_id').execute();
}

/** Drops the pending uploads table (their blobs stay until purged by hand). */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable(UPLOADS_TABLE).ifExists().execute();
}
