import * as createBlobsAndAttachments from './migrations/0001-create-blobs-and-attachments.js';
import * as createUploads from './migrations/0002-create-uploads.js';
import * as createSessionTables from './migrations/0001-create-session-tables.js';
import * as createIdempotencyAndRateLimitTables from './migrations/0001-create-idempotency-and-rate-limit-tables.js';
import * as createOneTimeReveals from './migrations/0001-create-one-time-reveals.js';
import { runMigrations, type Migration } from './run-migrations.js';
import type { PanelDatabase } from './panel-database.js';

/** The table that records which of the framework's own migrations ran (apart from the app's `kysely_migration`). */
export const PANEL_MIGRATION_TABLE = 'panel_migration';

/** The table that records which of the panel session's migrations ran. */
export const PANEL_SESSION_MIGRATION_TABLE = 'panel_session_migration';

/** The table that records which of the one-time reveals' migrations ran. */
export const PANEL_REVEAL_MIGRATION_TABLE = 'panel_reveal_migration';

/**
 * The one-time reveals' migrations, by name: the table of sealed values waiting for their one
 * look (a new API token's secret). Their own history, `panel_reveal_migration`.
 */
export const panelRevealMigrations: Readonly<Record<string, Migration>> = Object.freeze({
  '0001-create-one-time-reveals': createOneTimeReveals,
});

/**
 * The framework's own migrations, by name: the blobs and attachments tables behind `file` and
 * `files` fields, and the pending uploads waiting to be attached. Run them with `runPanelMigrations(database)`, beside the app's.
 */
export const panelMigrations: Readonly<Record<string, Migration>> = Object.freeze({
  '0001-create-blobs-and-attachments': createBlobsAndAttachments,
  '0002-create-uploads': createUploads,
});

/** The table that records which of the API's HTTP-state migrations ran. */
export const PANEL_API_MIGRATION_TABLE = 'panel_api_migration';

/**
 * The API's HTTP-state migrations, by name: the stored `Idempotency-Key` answers and the
 * shared rate-limit counters. Their own history (`panel_api_migration`), like the sessions'.
 */
export const panelApiMigrations: Readonly<Record<string, Migration>> = Object.freeze({
  '0001-create-idempotency-and-rate-limit-tables': createIdempotencyAndRateLimitTables,
});

/**
 * The panel session's migrations, by name: the session generations and failed sign-ins
 * tables. They keep a history of their own (`panel_session_migration`), as each framework
 * component does, so that one component's numbering never has to sort among another's.
 */
export const panelSessionMigrations: Readonly<Record<string, Migration>> = Object.freeze({
  '0001-create-session-tables': createSessionTables,
});

/**
 * Applies the framework's own migrations (files, sessions, the API's HTTP state, one-time
 * reveals), each set recorded in its own table (`panel_migration`, `panel_session_migration`,
 * the API's, `panel_reveal_migration`), so that their names never need to sort among the
 * app's. Returns the names that ran (session ones prefixed `session/`, the API's `api/`,
 * reveal ones `reveal/`). Safe to run at every start.
 *
 * @example
 * await runPanelMigrations(database);
 * await runMigrations(database, appMigrations);
 */
export async function runPanelMigrations(database: PanelDatabase): Promise<string[]> {
  const ran = await runMigrations(database, panelMigrations, { table: PANEL_MIGRATION_TABLE });
  const sessions = await runMigrations(database, panelSessionMigrations, { table: PANEL_SESSION_MIGRATION_TABLE });
  const api = await runMigrations(database, panelApiMigrations, { table: PANEL_API_MIGRATION_TABLE });
  const reveals = await runMigrations(database, panelRevealMigrations, { table: PANEL_REVEAL_MIGRATION_TABLE });
  return [...ran, ...sessions.map((name) => `session/${name}`), ...api.map((name) => `api/${name}`), ...reveals.map((name) => `reveal/${name}`)];
}
