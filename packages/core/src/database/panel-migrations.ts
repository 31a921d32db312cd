import * as createBlobsAndAttachments from './migrations/0001-create-blobs-and-attachments.js';
import { runMigrations, type Migration } from './run-migrations.js';
import type { PanelDatabase } from './panel-database.js';

/** The table that records which of the framework's own migrations ran (apart from the app's `kysely_migration`). */
export const PANEL_MIGRATION_TABLE = 'panel_migration';

/**
 * The framework's own migrations, by name: today the blobs and attachments tables behind
 * `file` and `files` fields. Run them with `runPanelMigrations(database)`, beside the app's.
 */
export const panelMigrations: Readonly<Record<string, Migration>> = Object.freeze({
  '0001-create-blobs-and-attachments': createBlobsAndAttachments,
});

/**
 * Applies the framework's own migrations, recorded in their own table (`panel_migration`),
 * so that their names never need to sort among the app's. Safe to run at every start.
 *
 * @example
 * await runPanelMigrations(database);
 * await runMigrations(database, appMigrations);
 */
export function runPanelMigrations(database: PanelDatabase): Promise<string[]> {
  return runMigrations(database, panelMigrations, { table: PANEL_MIGRATION_TABLE });
}
