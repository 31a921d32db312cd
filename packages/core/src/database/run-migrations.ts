import { Migrator, type Kysely, type Migration as KyselyMigration, type MigrationProvider } from 'kysely';

/** A migration: `up` (and optionally `down`) against a Kysely instance. */
export type Migration = KyselyMigration;

/**
 * Applies migrations in name order with Kysely's migrator (it records them in
 * `kysely_migration` and takes a lock, so two processes never migrate at once). Throws the
 * first failure.
 */
export async function runMigrations(db: Kysely<any>, migrations: Record<string, Migration>): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
