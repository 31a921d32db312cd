import { sql, type AliasedRawBuilder, type Transaction } from 'kysely';
import { RecordNotFoundError } from '../errors/panel-errors.js';
import { idKey } from '../records/bulk-records.js';
import { prepareValues } from '../records/prepare-values.js';
import type { ColumnValues, RecordRow } from '../records/record-row.js';
import { WriteChecks, type BuiltCheck } from '../validation/write-checks.js';
import type { OperationContext } from './operation-input.js';
import { changesSessionPassword } from './password-change.js';
import { throwIfInvalid, writeAttributes } from './write-attributes.js';
import { checkIfMatch, placed, refusalOf, requireIfMatch, settle } from './batch-outcomes.js';
import { namesNoRecord } from './batch-checks.js';
import type { BatchInput, BatchOperationInput, BatchOutcome, BatchOutcomeKind, BatchResult } from './batch-types.js';
import type { RecordId } from '../resources/record-key.js';

/** Said by the bulk path when it cannot decide the batch exactly: the batch runs one operation at a time instead. */
export const BULK_FALLBACK = Symbol('run one by one');

/** An operation judged and ready to write. */
type Plan =
  | { readonly kind: 'create'; readonly index: number; readonly values: ColumnValues }
  | { readonly kind: 'update'; readonly index: number; readonly id: RecordId; readonly values: ColumnValues; readonly existing: RecordRow }
  | { readonly kind: 'delete'; readonly index: number; readonly id: RecordId };

/**
 * Whether a batch of this resource can run in bulk: no hook that its operations would run (a
 * `validate` hook for creates and updates, a `beforeDestroy` hook for deletes: they run per
 * record and may read what the operations before them wrote), no field checked in the
 * transaction, and no association of the show view to the resource's own table (its read-back
 * could see a row from before the write).
 */
export function bulkEligible(context: OperationContext, operations: readonly BatchOperationInput[]): boolean {
  const { resource, panel } = context;
  if (resource.hooks.validate && operations.some((operation) => operation.op !== 'delete')) return false;
  if (resource.hooks.beforeDestroy && operations.some((operation) => operation.op === 'delete')) return false;
  if (resource.fields.some((field) => field.kind.checkInTransaction !== undefined)) return false;
  return !panel.records.bulk.readsOwnTable(resource, 'show');
}

/** Whether an error is the database refusing data (SQLSTATE class 22 or 23): a conflict to attribute to its operation. */
const refusedData = (error: unknown): boolean => /^2[23]/.test(String((error as { code?: unknown } | null)?.code ?? ''));

/**
 * A batch in statements constant in the number of operations: the targets of updates and
 * deletes locked (one statement) and read through the scope on the show view (one); each
 * operation judged as its single operation judges it (policies, field access, field rules, in
 * JavaScript); the database checks of every write in one select; the inserts in one statement,
 * the updates in one per set of columns, the deletes in one (and two for their attachments);
 * the written rows checked against the scope in one; and read back on the show view in one
 * (creates alone, by an actor whose scope lets every row through, are read back by their insert).
 * Answers `BULK_FALLBACK` when it cannot decide exactly what one operation after the other
 * would (uploads to attach, a unique value written twice or freed by another operation, a
 * conflict met by a write): nothing it wrote stays, and the batch runs one by one.
 */
export async function bulkBatch(run: {
  readonly input: BatchInput;
  readonly context: OperationContext;
  readonly operations: readonly BatchOperationInput[];
  readonly atomic: boolean;
  readonly trx: Transaction<any>;
}): Promise<BatchResult | typeof BULK_FALLBACK> {
  const { input, context, operations, atomic, trx } = run;
  const { resource, scope, readable } = context;
  const records = context.panel.records.within(trx).bulk;
  // An id past the column's range is not sent: no record has it, and `judge` answers its 404.
  const targets = operations.filter((operation) => operation.op !== 'create' && !namesNoRecord(operation, resource.key)).map((operation) => operation.id!);
  await records.lock(resource, targets);
  const existing = await records.find({ resource, view: 'show', ids: targets, scope, readable });

  const outcomes = new Map<number, BatchOutcomeKind>();
  const plans: Plan[] = [];
  for (const [index, operation] of operations.entries()) {
    try {
      const plan = await judge(input, context, operation, index, existing, trx);
      if (plan === BULK_FALLBACK) return BULK_FALLBACK;
      plans.push(plan);
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      outcomes.set(index, refusal);
    }
  }

  // The database checks of every write (uniqueness, belongs_to targets), in one select.
  const checked: { plan: Plan & { values: ColumnValues }; checks: WriteChecks }[] = [];
  const built = new Map<string, BuiltCheck>();
  for (const plan of plans) {
    if (plan.kind === 'delete') continue;
    const checks = await WriteChecks.collect({ resource, registry: context.panel.resources, changes: plan.values, existing: plan.kind === 'update' ? plan.existing : undefined, readable, transaction: () => trx, built });
    checked.push({ plan, checks });
  }
  if (writesUniqueValueTwice(context, checked.map(({ plan }) => plan))) return BULK_FALLBACK;
  // A condition asked by several writes (a hundred rows naming one category) is selected once.
  const selections: AliasedRawBuilder<boolean, string>[] = [];
  const firstAsked = new Map<string, string>();
  const answeredBy = new Map<string, string>();
  for (const { plan, checks } of checked) {
    for (const check of checks.statement) {
      const name = `o${plan.index}_${check.alias}`;
      const first = check.key === undefined ? undefined : firstAsked.get(check.key);
      if (first !== undefined) {
        answeredBy.set(name, first);
        continue;
      }
      if (check.key !== undefined) firstAsked.set(check.key, name);
      selections.push(sql<boolean>`${check.holds}`.as(name));
    }
  }
  const computed = selections.length > 0 ? ((await trx.selectNoFrom(selections).executeTakeFirstOrThrow()) as Record<string, unknown>) : {};
  let checkFailed = false;
  for (const { plan, checks } of checked) {
    const prefix = `o${plan.index}_`;
    const own = Object.fromEntries(checks.statement.map((check) => [check.alias, computed[answeredBy.get(`${prefix}${check.alias}`) ?? `${prefix}${check.alias}`]]));
    const errors = checks.errors(own);
    if (!errors.has()) continue;
    outcomes.set(plan.index, { status: 'invalid', errors: errors.toJSON() });
    checkFailed = true;
  }
  // A value taken now may be freed by an update or delete before it, one operation after the other.
  if (checkFailed && plans.some((plan) => plan.kind !== 'create')) return BULK_FALLBACK;
  if (atomic && outcomes.size > 0) return result(operations, outcomes, atomic);

  const ready = plans.filter((plan) => !outcomes.has(plan.index));
  try {
    const creates = ready.filter((plan) => plan.kind === 'create');
    const updates = ready.filter((plan) => plan.kind === 'update');
    const deletes = ready.filter((plan) => plan.kind === 'delete');
    // Creates alone, by an actor whose scope lets every row through: inserted and read back in one statement.
    if (updates.length === 0 && deletes.length === 0 && !records.narrows(resource, scope)) {
      const created = await records.insertAndRead({ resource, view: 'show', rows: creates.map((plan) => plan.values), readable });
      if (created) {
        for (const [i, plan] of creates.entries()) outcomes.set(plan.index, { status: 'created', record: created[i]! });
        return result(operations, outcomes, atomic);
      }
    }
    const createdIds = await records.insert(resource, creates.map((plan) => plan.values));
    const updated = await records.update(resource, updates.map((plan) => ({ id: plan.id, values: plan.values })), scope);
    // An update that sets a column and found no row to set: deleted or out of the scope meanwhile.
    if (updates.some((plan) => Object.keys(plan.values).length > 0 && !updated.has(idKey(plan.id)))) return BULK_FALLBACK;
    const deleted = await records.delete(resource, deletes.map((plan) => plan.id));
    if (deleted.size !== deletes.length) return BULK_FALLBACK;
    const written = [...createdIds, ...updates.map((plan) => plan.id)];
    // Each written row is checked against the actor's scope (a row written out of it is refused, one by one).
    const inScope = await records.inScope(resource, written, scope);
    if (written.some((id) => !inScope.has(idKey(id)))) return BULK_FALLBACK;
    const rows = await records.find({ resource, view: 'show', ids: written, readable });
    for (const [i, plan] of creates.entries()) outcomes.set(plan.index, { status: 'created', record: rows.get(idKey(createdIds[i]))! });
    for (const plan of updates) outcomes.set(plan.index, { status: 'updated', record: rows.get(idKey(plan.id))! });
    for (const plan of deletes) outcomes.set(plan.index, { status: 'deleted' });
  } catch (error) {
    if (refusedData(error)) return BULK_FALLBACK;
    throw error;
  }
  return result(operations, outcomes, atomic);
}

/** One operation judged as its single operation judges it, in the same order: its plan, or a refusal thrown. */
async function judge(input: BatchInput, context: OperationContext, operation: BatchOperationInput, index: number, existing: ReadonlyMap<string, RecordRow>, trx: Transaction<any>): Promise<Plan | typeof BULK_FALLBACK> {
  const { resource, authorize } = context;
  if (operation.op === 'create') {
    const { values, errors, confirming, files } = await writeAttributes({ input: { ...input, attributes: operation.data ?? {} }, context, action: 'create', record: null });
    await authorize('create', values);
    if (confirming.length > 0) await input.confirmFields?.(confirming);
    throwIfInvalid(errors);
    if (files.length > 0) return BULK_FALLBACK;
    return { kind: 'create', index, values: await prepareValues(resource, values) };
  }
  // A missing `ifMatch` where one is required is refused first, as the single endpoint's 428 is.
  requireIfMatch(input, operation);
  const id = operation.id!;
  const row = existing.get(idKey(id));
  if (!row) throw new RecordNotFoundError(resource.name, id);
  // The policy answers before the precondition (RFC 9110 §13.2.1): a refusal never depends on the tag.
  await authorize(operation.op === 'delete' ? 'destroy' : 'update', row);
  if (operation.ifMatch !== undefined) await checkIfMatch(input, operation.ifMatch, row, trx);
  if (operation.op === 'delete') return { kind: 'delete', index, id };
  const { values, errors, confirming, files } = await writeAttributes({ input: { ...input, attributes: operation.data ?? {} }, context, action: 'update', record: row });
  if (confirming.length > 0) await input.confirmFields?.(confirming);
  throwIfInvalid(errors);
  // A password change ends the user's sessions: the single update does it.
  if (files.length > 0 || changesSessionPassword(resource, values)) return BULK_FALLBACK;
  return { kind: 'update', index, id, values: await prepareValues(resource, values), existing: row };
}

/** Whether two writes set the same value of a `unique` field (one after the other, the second would be refused). */
function writesUniqueValueTwice(context: OperationContext, plans: readonly (Plan & { values: ColumnValues })[]): boolean {
  for (const field of context.resource.fields) {
    if (!field.definition.options.unique || !field.column) continue;
    const seen = new Set<string>();
    for (const plan of plans) {
      const value = plan.values[field.column];
      if (value === null || value === undefined) continue;
      const key = JSON.stringify(value);
      if (seen.has(key)) return true;
      seen.add(key);
    }
  }
  return false;
}

/** The batch's result from its outcomes by index. */
function result(operations: readonly BatchOperationInput[], outcomes: ReadonlyMap<number, BatchOutcomeKind>, atomic: boolean): BatchResult {
  const placedOutcomes: BatchOutcome[] = operations.map((operation, index) => placed(index, operation, outcomes.get(index) ?? { status: 'not_applied' }));
  return settle(placedOutcomes, atomic, 'bulk');
}
