import type { Transaction } from 'kysely';
import type { CompiledResource } from '../resources/compiled-types.js';
import { RecordInvalidError } from '../errors/panel-errors.js';
import { RecordErrors } from '../validation/record-errors.js';
import { hasFileFields } from '../attachments/attachment-select.js';
import { constraintViolation } from './constraint-errors.js';
import { retryAfterStalePlan } from '../database/stale-plan.js';
import type { ScopeFunction } from './records-query.js';
import { findRecord } from './record-reads.js';
import type { RecordsLayer } from './records-layer.js';
import { purgeAfterCommit } from './deferred-purges.js';
import type { RecordId } from '../resources/record-key.js';

/** What `RecordsRepository.destroy` takes. */
export interface DestroyRecordInput {
  resource: CompiledResource;
  id: RecordId;
  scope?: ScopeFunction | undefined;
}

/**
 * Deletes a record visible through `scope`, in one transaction; the resource's `beforeDestroy`
 * may refuse it. The record's attachments go in the same transaction; their bytes are purged
 * from storage after it commits, never before.
 */
export async function destroyRecord(layer: RecordsLayer, input: DestroyRecordInput): Promise<void> {
  const { resource, id, scope } = input;
  const attachments = hasFileFields(resource) ? layer.attachments : undefined;
  let purge: string[] = [];
  await deleteInTransaction(layer, resource, async (trx) => {
    const record = await findRecord(layer, { resource, view: 'show', id, scope }, trx);
    if (resource.hooks.beforeDestroy) {
      const errors = new RecordErrors();
      await resource.hooks.beforeDestroy({ record, errors, db: trx });
      if (errors.has()) throw new RecordInvalidError(errors.toJSON());
    }
    if (attachments) purge = await attachments.detachRecord(trx, resource, id);
    await trx.deleteFrom(resource.table).where(resource.primaryKey, '=', id).execute();
  });
  if (attachments) await purgeAfterCommit(layer.db, attachments, purge);
}

/** Runs a delete in a transaction, turning a constraint violation (a record still referenced) into `RecordInvalidError`. */
async function deleteInTransaction(layer: RecordsLayer, resource: CompiledResource, work: (trx: Transaction<any>) => Promise<void>): Promise<void> {
  const { db } = layer;
  try {
    // Within the caller's transaction (see `RecordsRepository.within`), the delete is made in it.
    if (db.isTransaction) await work(db as Transaction<any>);
    // A plan refused in the transaction (a migration meanwhile) rolled it back: deleted once more.
    else await retryAfterStalePlan(() => db.transaction().execute(work));
  } catch (error) {
    throw constraintViolation(error, resource, 'delete', {}) ?? error;
  } finally {
    // The `cached` count strategy's counts of this table may be stale now (a failed write
    // may still have committed, as far as this process can tell).
    await layer.counts.written(resource.table, resource.count ?? layer.countStrategy);
  }
}
