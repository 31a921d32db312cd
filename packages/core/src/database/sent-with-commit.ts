/** The comment that opens a statement `sentWithCommit` marks. */
export const SENT_WITH_COMMIT = '/* panel: sent with commit */ ';

/**
 * Marks a transaction's last statement, whose answer the caller does not read, to travel with
 * the transaction's `commit`. On Panel's PostgreSQL pool it is answered at once (no rows) and
 * written in front of the `commit` (Parse, Bind and Execute of both, one Sync), so it costs no
 * round trip of its own; its error, if any, is the commit's, and the transaction rolls back.
 * `rollback` drops it unsent, and any other statement sends it first. Elsewhere (PGlite, outside
 * a transaction, a statement without parameters) it runs where it stands.
 *
 * @example
 * await db.transaction().execute(async (trx) => {
 *   await trx.updateTable('posts').set({ title }).where('id', '=', id).execute();
 *   await trx.executeQuery(CompiledQuery.raw(sentWithCommit('insert into audit (post_id) values ($1)'), [id]));
 * });
 */
export function sentWithCommit(statement: string): string {
  return SENT_WITH_COMMIT + statement;
}
