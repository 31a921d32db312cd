import { sql, type Transaction } from 'kysely';
import { RecordNotFoundError } from '../errors/panel-errors.js';
import { deferPurges } from '../records/deferred-purges.js';
import { idKey } from '../records/bulk-records.js';
import { create } from './create-operation.js';
import { destroy } from './destroy-operation.js';
import { update } from './update-operation.js';
import { operationContext, type OperationContext } from './operation-input.js';
import { bulkBatch, bulkEligible, BULK_FALLBACK } from './batch-bulk.js';
import { checkBatchOperations, namesNoRecord } from './batch-checks.js';
import { BatchOperationRefusal, checkIfMatch, placed, refusalOf, requireIfMatch, settle } from './batch-outcomes.js';
import type { BatchInput, BatchOperationInput, BatchOutcome, BatchOutcomeKind, BatchResult } from './batch-types.js';

/**
 * Runs several creates, updates and deletes of one resource as one request (the API's
 * `POST …/<route_key>/batch`). Each operation is decided exactly as its single operation
 * decides it (`create`, `update`, `destroy`: field access, policies and scopes per record,
 * field rules, `ifMatch` against the record's tag and required by `requireIfMatch`), and each written row is checked against
 * the actor's scope after the write. `atomic` (the default): all or nothing, and on failure
 * every operation's true outcome (the failing ones' refusals, `not_applied` for the valid
 * ones). `atomic: false`: each operation applies fully or not at all (savepoints).
 *
 * A batch that runs no hook (a `validate` hook runs for creates and updates, a `beforeDestroy`
 * hook for deletes), no file change and no transaction check runs in bulk: its statements
 * are constant in the number of operations (the targets locked and read in two, the checks in
 * one, the inserts in one, the updates in one per set of columns, the deletes in one, the scope
 * check in one, the read-back in one). Otherwise, or when a conflict must be attributed to its
 * operation, it runs one operation after the other in the same transaction.
 *
 * @example
 * const { outcomes } = await operations.batch({ panel, resource: 'BlogPost', actor, operations: [{ op: 'create', data: { title: 'A' } }, { op: 'delete', id: 44 }] });
 */
export async function batch(input: BatchInput): Promise<BatchResult> {
  const context = operationContext(input);
  const operations = checkBatchOperations(input, context.resource.key);
  const atomic = input.atomic !== false;
  if (input.transaction) {
    // In the caller's transaction (a keyed request): the batch is undone to its savepoint when it fails.
    const trx = input.transaction;
    const purges = deferPurges(trx);
    await sql`savepoint panel_batch`.execute(trx);
    const result = (await runBatch(input, context, operations, atomic, trx, true)) as BatchResult;
    await sql.raw(result.applied ? 'release savepoint panel_batch' : 'rollback to savepoint panel_batch').execute(trx);
    // As a single write in the caller's transaction does: the bytes of removed files go once the batch is in.
    if (result.applied) await context.panel.attachments.purge(purges);
    return result;
  }
  let result = await inTransaction(context, (trx) => runBatch(input, context, operations, atomic, trx, false));
  // A conflict the bulk statements met (a value taken meanwhile, a row gone): the batch runs again, one operation at a time, to say which.
  if (result === BULK_FALLBACK) result = await inTransaction(context, (trx) => oneByOne(input, context, operations, atomic, trx));
  return result as BatchResult;
}

/** Runs `work` in a transaction of its own, committed when the batch applied, rolled back otherwise; then purges the bytes of the files it removed. */
async function inTransaction(context: OperationContext, work: (trx: Transaction<any>) => Promise<BatchResult | typeof BULK_FALLBACK>): Promise<BatchResult | typeof BULK_FALLBACK> {
  const { db } = context.panel.database;
  const { attachments } = context.panel;
  const trx = await db.startTransaction().execute();
  const purges = deferPurges(trx);
  let result: BatchResult | typeof BULK_FALLBACK;
  try {
    result = await work(trx);
  } catch (error) {
    await trx.rollback().execute().catch(() => undefined);
    throw error;
  }
  if (result === BULK_FALLBACK || !result.applied) {
    await trx.rollback().execute();
    return result;
  }
  await trx.commit().execute();
  await attachments.purge(purges);
  return result;
}

async function runBatch(input: BatchInput, context: OperationContext, operations: readonly BatchOperationInput[], atomic: boolean, trx: Transaction<any>, nested: boolean): Promise<BatchResult | typeof BULK_FALLBACK> {
  if (!bulkEligible(context, operations)) return oneByOne(input, context, operations, atomic, trx);
  const bulk = await bulkBatch({ input, context, operations, atomic, trx });
  if (bulk !== BULK_FALLBACK) return bulk;
  if (!nested) return BULK_FALLBACK;
  // In the caller's transaction: back to the batch's savepoint, then one by one.
  await sql`rollback to savepoint panel_batch`.execute(trx);
  return oneByOne(input, context, operations, atomic, trx);
}

/**
 * The batch one operation after the other, each under a savepoint of the transaction: the
 * operations' own code path (hooks, files, transaction checks), and a conflict's exact place.
 * Every update and delete target is locked first, in one statement and in primary-key order
 * (as the bulk path locks them): two batches naming the same rows in opposite orders wait for
 * each other instead of deadlocking.
 */
async function oneByOne(input: BatchInput, context: OperationContext, operations: readonly BatchOperationInput[], atomic: boolean, trx: Transaction<any>): Promise<BatchResult> {
  const targets = operations.flatMap((operation) => (operation.op === 'create' || namesNoRecord(operation, context.resource.key) ? [] : [operation.id]));
  await context.panel.records.within(trx).bulk.lock(context.resource, targets);
  const outcomes: BatchOutcome[] = [];
  for (const [index, operation] of operations.entries()) {
    await sql`savepoint panel_batch_operation`.execute(trx);
    let kind: BatchOutcomeKind;
    try {
      kind = await runOne(input, context, operation, trx);
      await sql`release savepoint panel_batch_operation`.execute(trx);
    } catch (error) {
      await sql`rollback to savepoint panel_batch_operation`.execute(trx);
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      kind = refusal;
    }
    outcomes.push(placed(index, operation, kind));
  }
  return settle(outcomes, atomic, 'one_by_one');
}

/** One operation, by its single operation, in the batch's transaction. */
async function runOne(input: BatchInput, context: OperationContext, operation: BatchOperationInput, trx: Transaction<any>): Promise<BatchOutcomeKind> {
  const single = { ...input, resource: context.resource, transaction: trx };
  const { resource, scope } = context;
  const records = context.panel.records.within(trx);
  requireIfMatch(input, operation);
  // An id past the column's range: no record has it, and no statement is sent with it (as the URL's id answers 404).
  if (namesNoRecord(operation, resource.key)) throw new RecordNotFoundError(resource.name, operation.id);
  if (operation.op !== 'create' && operation.ifMatch !== undefined) {
    await records.lockRow({ resource, id: operation.id! }, trx);
    const row = await records.find({ resource, view: 'show', id: operation.id!, scope, readable: context.readable });
    // The policy answers before the precondition (RFC 9110 §13.2.1); the single operation asks it again.
    await context.authorize(operation.op === 'delete' ? 'destroy' : 'update', row);
    await checkIfMatch(input, operation.ifMatch, row, trx);
  }
  if (operation.op === 'delete') {
    await destroy({ ...single, id: operation.id! });
    return { status: 'deleted' };
  }
  const record = operation.op === 'create' ? await create({ ...single, attributes: operation.data ?? {} }) : await update({ ...single, id: operation.id!, attributes: operation.data ?? {} });
  const id = record[resource.primaryKey];
  if (!(await records.bulk.inScope(resource, [id], scope)).has(idKey(id))) throw new BatchOperationRefusal({ status: 'forbidden' });
  return { status: operation.op === 'create' ? 'created' : 'updated', record };
}
