import type { Transaction } from 'kysely';
import { isPanelError } from '../errors/panel-errors.js';
import type { ErrorMessages } from '../errors/panel-errors.js';
import type { RecordRow } from '../records/record-row.js';
import { succeeded, type BatchInput, type BatchOperationInput, type BatchOutcome, type BatchOutcomeKind, type BatchResult } from './batch-types.js';

/** The written record left the actor's scope, or an `ifMatch` did not hold: an operation's own refusals, inside a batch. */
export class BatchOperationRefusal extends Error {
  readonly outcome: BatchOutcomeKind;
  constructor(outcome: BatchOutcomeKind) {
    super(outcome.status);
    this.outcome = outcome;
  }
}

/**
 * Throws `precondition_required` for an update or delete without `ifMatch` where the batch
 * requires one: as the single endpoint's 428, before the record is read or the policy asked.
 */
export function requireIfMatch(input: BatchInput, operation: BatchOperationInput): void {
  if (input.requireIfMatch === true && operation.op !== 'create' && operation.ifMatch === undefined) throw new BatchOperationRefusal({ status: 'precondition_required' });
}

/** Throws `precondition_failed` unless `ifMatch` holds for the record's tag (its tag read in the batch's transaction `trx`). */
export async function checkIfMatch(input: BatchInput, ifMatch: string, row: RecordRow, trx: Transaction<any>): Promise<void> {
  if (ifMatch.trim() === '*') return;
  if (!input.entityTag) throw new TypeError('operations.batch: an operation has ifMatch, but no entityTag was given to compare it with.');
  const holds = input.ifMatchHolds ?? ((value: string, tag: string) => value.split(',').some((listed) => listed.trim() === tag));
  const tag = await input.entityTag(row, trx);
  if (tag === undefined || !holds(ifMatch, tag)) throw new BatchOperationRefusal({ status: 'precondition_failed' });
}

/** The outcome of a refused operation, or undefined for an error that is no refusal (then the batch fails with it). */
export function refusalOf(error: unknown): BatchOutcomeKind | undefined {
  if (error instanceof BatchOperationRefusal) return error.outcome;
  if (isPanelError(error, 'PANEL_ERR_RECORD_NOT_FOUND')) return { status: 'not_found' };
  if (isPanelError(error, 'PANEL_ERR_NOT_AUTHORIZED')) return { status: 'forbidden' };
  if (isPanelError(error, 'PANEL_ERR_RECORD_INVALID')) return { status: 'invalid', errors: (error as unknown as { errors: ErrorMessages }).errors };
  return undefined;
}

/** An outcome with its place in the batch. */
export function placed(index: number, operation: BatchOperationInput, kind: BatchOutcomeKind): BatchOutcome {
  return { index, op: operation.op, ...(operation.ref === undefined ? {} : { ref: operation.ref }), ...kind };
}

/** The batch's result: an atomic batch with a failure applies nothing, and its successes become `not_applied`. */
export function settle(outcomes: BatchOutcome[], atomic: boolean, path: BatchResult['path']): BatchResult {
  const failed = outcomes.some((outcome) => !succeeded(outcome));
  if (atomic && failed) {
    return { outcomes: outcomes.map((outcome) => (succeeded(outcome) ? { index: outcome.index, op: outcome.op, ...(outcome.ref === undefined ? {} : { ref: outcome.ref }), status: 'not_applied' as const } : outcome)), applied: false, path };
  }
  return { outcomes, applied: outcomes.some(succeeded), path };
}
