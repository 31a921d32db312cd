import type { Kysely, Transaction } from 'kysely';
import type { PanelAttachments } from '../attachments/attachments-service.js';

/** The blob keys whose bytes wait for a transaction's commit, by transaction. */
const pending = new WeakMap<Transaction<any>, string[]>();

/**
 * Defers the purges of the writes made in `trx` until the caller says it committed: a write in
 * `trx` that removes files hands their keys here instead of deleting the bytes (which a
 * rollback could not bring back). Returns the keys gathered so far (the array fills as the
 * writes run): purge them after the commit, drop them after a rollback.
 */
export function deferPurges(trx: Transaction<any>): string[] {
  const keys: string[] = [];
  pending.set(trx, keys);
  return keys;
}

/**
 * Purges the bytes of removed blobs once their rows' removal is committed: at once when `db`
 * is no transaction of a caller, or when it is one nobody deferred purges for (as writes under
 * `If-Match` have always done); else, with the caller's transaction (`deferPurges`).
 */
export async function purgeAfterCommit(db: Kysely<any>, attachments: PanelAttachments, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const deferred = db.isTransaction ? pending.get(db as Transaction<any>) : undefined;
  if (deferred) deferred.push(...keys);
  else await attachments.purge(keys);
}
