import type { Kysely, Transaction } from 'kysely';
import type { Change, PanelDatabase } from '@panel/core';
import type { ApiTokensDatabase } from '../schema/api-tokens-tables.js';

/** What the service's statements run on: the app's database, typed for the token tables, and its clock. */
export interface TokenTables {
  readonly database: PanelDatabase;
  /** Reads and writes (with replicas, writes and transactions go to the primary). */
  readonly db: Kysely<ApiTokensDatabase>;
  /** The primary alone: a revoked, disabled or expired token is refused at once, whatever a replica's lag. */
  readonly primary: Kysely<ApiTokensDatabase>;
  readonly now: () => Date;
}

/** The token tables of a database. */
export function tokenTables(database: PanelDatabase, now: () => Date): TokenTables {
  return {
    database,
    db: database.db as unknown as Kysely<ApiTokensDatabase>,
    primary: (database.primary ?? database.db) as unknown as Kysely<ApiTokensDatabase>,
    now,
  };
}

/**
 * Runs a write in a transaction whose announced changes (`{ kind: 'token', id }`,
 * `{ kind: 'grants' }`) reach every process's token cache: through the database's change
 * channel when it has one (sent in the transaction, so delivered only if it commits), else
 * nowhere (then no process caches).
 */
export async function writeAndAnnounce<T>(tables: TokenTables, work: (trx: Transaction<ApiTokensDatabase>, announce: (change: Change) => void) => Promise<T>): Promise<T> {
  const changes = tables.database.changes;
  if (changes) return changes.transaction(tables.db as unknown as Kysely<any>, (trx, announce) => work(trx as unknown as Transaction<ApiTokensDatabase>, announce));
  return tables.db.transaction().execute((trx) => work(trx, () => undefined));
}
