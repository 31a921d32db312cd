import { sql } from 'kysely';
import type { PanelDatabase } from './panel-database.js';

/**
 * Runs `select 1` on the database: resolves when it answers, rejects with a
 * `DatabaseUnavailableError` when it cannot (within the connection and query timeouts).
 * With read replicas it asks the primary. The readiness check (`GET <mount>/health/ready`) is built on it.
 */
export async function pingDatabase(database: Pick<PanelDatabase, 'db' | 'primary'>): Promise<void> {
  // The primary: a replica answering says nothing about whether writes can be made.
  await sql`select 1`.execute(database.primary ?? database.db);
}
