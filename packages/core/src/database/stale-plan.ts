/**
 * Whether PostgreSQL refused a named statement's cached plan because its result type changed
 * (`0A000`, `cached plan must not change result type`: a migration changed a table's columns
 * under a prepared `select *`). The error itself, or the driver's error inside Panel's
 * `DatabaseUnavailableError` (its `cause`).
 */
export function isStalePlan(error: unknown): boolean {
  const { code, routine, cause } = (error ?? {}) as { code?: unknown; routine?: unknown; cause?: unknown };
  if (code === '0A000' && routine === 'RevalidateCachedQuery') return true;
  return code === 'PANEL_ERR_DATABASE_UNAVAILABLE' && cause !== undefined && cause !== error && isStalePlan(cause);
}

/**
 * How many times a transaction runs at most when its plans are refused: each run meets one
 * refused statement (the first aborts the transaction) and every later run sends it under its
 * fresh name, so a transaction of n statements prepared before a migration succeeds by its
 * (n + 1)th run. A request's transaction sends a constant few statements.
 */
export const MAX_STALE_PLAN_RUNS = 8;

/**
 * Runs `work`, and again when it failed on a stale plan (`isStalePlan`), up to
 * `MAX_STALE_PLAN_RUNS` runs: the work is one transaction that PostgreSQL rolled back (a plan
 * refused inside a transaction aborts it), and the pool has given the refused statement a fresh
 * name on every connection, so the next run prepares it with the columns as they are now. Only
 * for work whose every effect is in the database and in that transaction: nothing of it has
 * reached a client or another system yet. Outside a transaction a refused plan never reaches the
 * caller (the pool sends the statement again at once).
 *
 * @example
 * await retryAfterStalePlan(() => database.db.transaction().execute((trx) => write(trx)));
 */
export async function retryAfterStalePlan<T>(work: () => Promise<T>): Promise<T> {
  for (let run = 1; ; run += 1) {
    try {
      return await work();
    } catch (error) {
      if (!isStalePlan(error) || run >= MAX_STALE_PLAN_RUNS) throw error;
    }
  }
}
