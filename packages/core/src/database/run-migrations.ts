import { Migrator, type Migration as KyselyMigration, type MigrationProvider } from 'kysely';
import type { PanelDatabase } from './panel-database.js';

/** A migration: `up` (and optionally `down`) against a Kysely instance. */
export type Migration = KyselyMigration;

/** Options of `runMigrations`. */
export interface RunMigrationsOptions {
  /**
   * The table that records which of these migrations ran (its lock table is `<table>_lock`).
   * Default `kysely_migration`. A set of migrations with its own numbering, such as
   * `panelMigrations`, keeps its own table, so the two sets never need ordering between them.
   */
  table?: string;
}

/**
 * Applies migrations in name order with Kysely's migrator (it records them in
 * `kysely_migration` and takes a lock, so two processes never migrate at once). Throws the
 * first failure.
 */
export async function runMigrations(database: PanelDatabase, migrations: Record<string, Migration>, options: RunMigrationsOptions = {}): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const table = options.table === undefined ? {} : { migrationTableName: options.table, migrationLockTableName: `${options.table}_lock` };
  // The migrator looks for its tables in every schema; name the database's own so that two
  // schemas on one server (a test file each) never take each other's bookkeeping for theirs.
  const migrator = new Migrator({ db: database.db, provider, ...table, ...(database.schema ? { migrationTableSchema: database.schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
