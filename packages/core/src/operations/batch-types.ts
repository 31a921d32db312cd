import type { Transaction } from 'kysely';
import type { ErrorMessages } from '../errors/panel-errors.js';
import type { RecordRow } from '../records/record-row.js';
import type { OperationInput } from './operation-input.js';
import type { RecordId } from '../resources/record-key.js';

/** The kinds of operation a batch holds. */
export type BatchOp = 'create' | 'update' | 'delete';

/** One operation of a batch, as the API's body names it (`if_match` as `ifMatch`). */
export interface BatchOperationInput {
  readonly op: BatchOp;
  /** Echoed back with the operation's result: ≤ 64 characters, unique in the batch. */
  readonly ref?: string | undefined;
  /** The record of an update or a delete. */
  readonly id?: RecordId | undefined;
  /** What the single create or update takes inside its `<singular_key>` wrapper. */
  readonly data?: Record<string, unknown> | undefined;
  /** Compared with the record's tag (`entityTag`) as `If-Match` is: a mismatch is `precondition_failed`. */
  readonly ifMatch?: string | undefined;
}

/** What `batch` takes besides the resource and actor. */
export interface BatchInput extends OperationInput {
  readonly operations: readonly BatchOperationInput[];
  /** All or nothing (the default), or each operation on its own (`false`: savepoints). */
  readonly atomic?: boolean | undefined;
  /** The most operations a batch holds; default 100, at most 1000. */
  readonly maxOperations?: number | undefined;
  /**
   * The tag of a record's show answer, which `ifMatch` is compared with (the API passes its
   * ETag), read in the batch's transaction `transaction` when it needs the database; undefined
   * when no tag can match. Required when an operation has `ifMatch`.
   */
  readonly entityTag?: ((row: RecordRow, transaction: Transaction<any>) => string | undefined | Promise<string | undefined>) | undefined;
  /** Whether an `ifMatch` value holds for a tag (the API's RFC 9110 strong comparison; `*` holds for any). */
  readonly ifMatchHolds?: ((ifMatch: string, tag: string) => boolean) | undefined;
  /** Updates and deletes need `ifMatch` (the API's `requireIfMatch`): one without it is `precondition_required`, decided before its record is read. */
  readonly requireIfMatch?: boolean | undefined;
}

/** What happened to one operation. */
export type BatchOutcomeKind =
  | { readonly status: 'created' | 'updated'; readonly record: RecordRow }
  | { readonly status: 'deleted' }
  | { readonly status: 'invalid'; readonly errors: ErrorMessages }
  | { readonly status: 'not_found' }
  | { readonly status: 'forbidden' }
  | { readonly status: 'precondition_failed' }
  /** An update or delete without `ifMatch` where the batch requires it (`requireIfMatch`). */
  | { readonly status: 'precondition_required' }
  /** A valid operation of an atomic batch that failed: rolled back with the others. */
  | { readonly status: 'not_applied' };

/** One operation's outcome, with its place in the batch. */
export type BatchOutcome = BatchOutcomeKind & { readonly index: number; readonly op: BatchOp; readonly ref?: string | undefined };

/** What a batch did: each operation's true outcome, and whether anything was written. */
export interface BatchResult {
  readonly outcomes: readonly BatchOutcome[];
  /** An atomic batch: true when every operation succeeded and all were written; a partial one: true when any was. */
  readonly applied: boolean;
  /** Which way it ran: `bulk` (statements constant in the number of operations) or `one_by_one` (hooks, files, or a conflict to attribute). */
  readonly path: 'bulk' | 'one_by_one';
}

/** The default, and the largest allowed, number of operations in a batch. */
export const DEFAULT_MAX_BATCH_OPERATIONS = 100;
export const MAX_BATCH_OPERATIONS = 1000;

/** Whether an outcome is a success. */
export const succeeded = (outcome: BatchOutcomeKind): boolean => outcome.status === 'created' || outcome.status === 'updated' || outcome.status === 'deleted';
