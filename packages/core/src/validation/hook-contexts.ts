import type { Transaction } from 'kysely';
import type { ColumnValues, RecordRow } from '../records/record-row.js';
import type { RecordErrors } from './record-errors.js';

/** What a resource's `validate` hook receives. */
export interface ValidationContext {
  readonly operation: 'create' | 'update';
  /** The values being written (column → value). */
  readonly changes: ColumnValues;
  /** The record as it will be: the stored row with the changes applied (the changes alone on create). */
  readonly record: RecordRow;
  readonly errors: RecordErrors;
  /**
   * The write's transaction: queries here see what the write sees, and what they write
   * commits or rolls back with it. It begins at the first query: a hook that runs none costs
   * no transaction.
   */
  readonly db: Transaction<any>;
}

/** What a resource's `beforeDestroy` hook receives; an error added refuses the delete. */
export interface DestroyContext {
  readonly record: RecordRow;
  readonly errors: RecordErrors;
  readonly db: Transaction<any>;
}
