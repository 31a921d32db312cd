import { sql, type Kysely } from 'kysely';
import { ATTACHMENTS_TABLE, BLOBS_TABLE } from '../../attachments/attachment-tables.js';

/**
 * The blobs and attachments tables (Active Storage's). An attachment names its record by
 * resource name and id, so one table serves every resource; it has no foreign key to the
 * record, and the records layer removes a record's attachments when it deletes the record.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable(BLOBS_TABLE)
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('filename', 'varchar(255)', (c) => c.notNull())
    .addColumn('content_type', 'varchar(255)', (c) => c.notNull())
    .addColumn('byte_size', 'bigint', (c) => c.notNull())
    .addColumn('checksum', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable(ATTACHMENTS_TABLE)
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('record_type', 'varchar(120)', (c) => c.notNull())
    .addColumn('record_id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'varchar(120)', (c) => c.notNull())
    .addColumn('blob_id', 'bigint', (c) => c.notNull().references(`${BLOBS_TABLE}.id`))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint(`${ATTACHMENTS_TABLE}_record_name_position_unique`, ['record_type', 'record_id', 'name', 'position'])
    .execute();
  await db.schema.createIndex(`${ATTACHMENTS_TABLE}_blob_id_index`).on(ATTACHMENTS_TABLE).column('blob_id').execute();
}

/** Drops the blobs and attachments tables (the stored bytes stay in the storage service). */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable(ATTACHMENTS_TABLE).ifExists().execute();
  await db.schema.dropTable(BLOBS_TABLE).ifExists().execute();
}
