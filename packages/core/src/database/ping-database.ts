import { sql } from 'kysely';
import type { PanelDatabase } from './panel-database.js';

/**
 * Runs `select 1` on the database: resolves when it answers, rejects with a
 * `DatabaseUnavailableError` when it cannot (within the connection and query timeouts).
 * The readiness check (`GET <mount>/health/ready`) is built on it.
 */
export async function pingDatabase(database: Pick<PanelDatabase, 'db'>): Promise<void> {
  await sql`select 1`.execute(database.db);
}
