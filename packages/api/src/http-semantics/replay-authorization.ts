import type { Transaction } from 'kysely';
import { isPanelError } from '@panel/core';
import type { RequestContext } from '../pipeline/request-context.js';
import type { StoredAnswer } from './idempotency-keys.js';

/**
 * Before a keyed write's stored answer is replayed: the request is authorized again, as the
 * credential's rights stand now (its authentication and grants ran already, as for any
 * request). The policy is asked what the write would ask of the record it names now: update and
 * delete their own action on the record as it is, through the scope (an update of a record now
 * outside it is 404; a delete's record is gone once deleted, and its stored answer stands). A
 * create would make another record, so it asks `show` of the record it made (whether the actor
 * may still read what the answer carries; gone, its answer stands), never `create` again (a
 * policy that counts records would refuse the replay of a write it allowed). A refusal throws,
 * as the write would have answered.
 */
export async function authorizeReplay(context: RequestContext, trx: Transaction<any>, replay: StoredAnswer): Promise<void> {
  const { controller, resource, action } = context;
  if (action !== 'create' && action !== 'update' && action !== 'destroy') return;
  const id = action === 'create' ? (JSON.parse(replay.body) as { record?: { id?: unknown } } | null)?.record?.id : controller.recordId();
  if (typeof id !== 'number') return;
  try {
    const row = await context.panel.records.within(trx).find({ resource, view: 'show', id, scope: controller.policyScope() });
    await controller.authorize(action === 'create' ? 'show' : action, row);
  } catch (error) {
    if (action !== 'update' && isPanelError(error, 'PANEL_ERR_RECORD_NOT_FOUND')) return;
    throw error;
  }
}
