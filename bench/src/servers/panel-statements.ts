import { SENT_WITH_COMMIT, type PanelDatabase } from '@panel/core';
import type { TimedStatement } from '../census/round-trips.js';

/**
 * A Panel database's statements as the census counts them. On PostgreSQL, Panel's pool holds a
 * transaction's `begin` back and sends it in one write with the transaction's first statement,
 * named or not (`postgres-pool.ts` in @panel/core): `begin` then opens no round trip of its own.
 * A transaction's last statement marked `sentWithCommit` (the stored answer of an
 * `Idempotency-Key`) travels with its commit in the same way.
 */
export function panelStatements(database: Pick<PanelDatabase, 'onQuery' | 'kind'>, listener: (statement: TimedStatement) => void): () => void {
  const held = database.kind === 'postgres';
  return database.onQuery((query) => {
    const end = performance.now();
    listener({ sql: query.sql, parameters: query.parameters, start: end - query.durationMillis, end, ...((held && query.sql === 'begin') || (database.kind === 'postgres' && query.sql.startsWith(SENT_WITH_COMMIT)) ? { withNext: true } : {}) });
  });
}
