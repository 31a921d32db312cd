import { AsyncLocalStorage } from 'node:async_hooks';
import type { WalPosition } from './wal-position.js';

/**
 * What one request asks of the reads it makes and learns from the writes it makes: the WAL
 * position its reads must see (`readAfter`, from the client's `Panel-Read-After` header or
 * cookie) and the highest position its own writes committed at (`wrote`), which the answer
 * hands back to the client.
 */
export interface ReadConsistency {
  /** A replica may answer this request's reads only once it has replayed this position. */
  readAfter: WalPosition | undefined;
  /** The WAL position after this request's last committed write on the primary, if it wrote. */
  wrote: WalPosition | undefined;
}

const storage = new AsyncLocalStorage<ReadConsistency>();

/**
 * Runs `work` with its own read-consistency record: the database's read routing reads
 * `readAfter` from it and notes `wrote` in it. The API and the panel screens run each request
 * in one when the database has replicas.
 *
 * @example
 * const answer = await runWithReadConsistency(parseWalPosition(header), async (consistency) => {
 *   const result = await handle(request);
 *   return { result, readAfter: consistency.wrote };
 * });
 */
export function runWithReadConsistency<T>(readAfter: WalPosition | undefined, work: (consistency: ReadConsistency) => T): T {
  const consistency: ReadConsistency = { readAfter, wrote: undefined };
  return storage.run(consistency, () => work(consistency));
}

/** The running request's read-consistency record, or undefined outside one. */
export function currentReadConsistency(): ReadConsistency | undefined {
  return storage.getStore();
}

/**
 * Notes a write committed at `position` in the running request's record. Later reads of the
 * same request must see it too, so it raises `readAfter` as well.
 */
export function noteCommittedWrite(position: WalPosition): void {
  const consistency = storage.getStore();
  if (!consistency) return;
  if (consistency.wrote === undefined || position > consistency.wrote) consistency.wrote = position;
  if (consistency.readAfter === undefined || position > consistency.readAfter) consistency.readAfter = position;
}
