import { sql, type Expression, type InsertQueryBuilder, type Kysely, type QueryCreator, type SqlBool, type UpdateQueryBuilder } from 'kysely';
import type { CompiledResource, ReadableRecords } from '../resources/compiled-types.js';
import type { View } from '../fields/field-types.js';
import { RecordInvalidError, RecordNotFoundError } from '../errors/panel-errors.js';
import { WriteChecks } from '../validation/write-checks.js';
import type { RecordErrors } from '../validation/record-errors.js';
import { LazyTransaction } from './lazy-transaction.js';
import { retryAfterStalePlan } from '../database/stale-plan.js';
import { ROW_ALIAS, narrowedSelections, selectRecords, type NarrowedSelections } from './record-select.js';
import type { ColumnValues, RecordRow } from './record-row.js';
import { constraintViolation } from './constraint-errors.js';
import { findRecord } from './record-reads.js';
import { resolveFileUrls } from './record-file-urls.js';
import type { RecordsLayer } from './records-layer.js';
import { compiledWrite, executeCompiledWrite, type WriteShape } from './write-statements.js';
import type { RecordId } from '../resources/record-key.js';

/** The name of the written row in a write that reads itself back (`with written as (…)`). */
const WRITTEN = 'written';
/** The name of the write's checks in its statement (`with checks as (select exists(…) as panel_check_0, …)`). */
const CHECKS = 'checks';

/** An insert or update with `returning *`, as `writeAndRead` takes it. */
type WriteReturningAll = InsertQueryBuilder<any, any, any> | UpdateQueryBuilder<any, any, any, any>;

/**
 * Builds the write on `db` (a query creator: the write is a CTE of its statement); `gate`, when
 * given, is the condition the write must be made under (every check of the statement holds).
 */
export type WriteBuilder = (db: QueryCreator<any>, gate: Expression<SqlBool> | undefined) => WriteReturningAll;

/** A write to judge and make: the record's changes, the stored row on update, and the view it is read back on. */
export interface JudgedWriteInput {
  readonly resource: CompiledResource;
  readonly view: View;
  readonly changes: ColumnValues;
  readonly existing: RecordRow | undefined;
  readonly id?: RecordId | undefined;
  readonly readable?: ReadableRecords | undefined;
  /**
   * Runs in the write's transaction once the row is written (an update that sets no column:
   * once the row is locked), before it is read back: what the write does besides its columns
   * (its file fields). The write then runs in a transaction and reads back in a second statement.
   */
  readonly afterWrite?: ((db: Kysely<any>, id: RecordId) => Promise<void>) | undefined;
}

/**
 * Judges a write and makes it: the checks that need the database (`WriteChecks`), the
 * resource's `validate` hook, then one statement that writes only if the checks hold and
 * reads the record back (see `writeAndRead`).
 *
 * - Without a hook, the checks are computed by the write's statement itself: a write is one
 *   statement, autocommitted, which is atomic by itself.
 * - With a hook, the checks are computed first (one select), so that the hook finds their
 *   messages in `errors` as it always has, then the hook runs, once. Its `db` is a
 *   transaction that begins at its first query: a hook that runs none leaves the write
 *   alone and autocommitted; once it began, the write runs in it, and it commits after, or
 *   rolls back if the write is refused. The write's statement computes the checks again,
 *   so that what the hook did in between (or another request) is judged too.
 *
 * A write that reads its record back in a second statement runs in a transaction too.
 * Without `write` (an update that changes nothing) the record is read back on `view`.
 * Constraint violations become `RecordInvalidError`. A write whose transaction met a plan
 * refused after a migration runs once more (`retryAfterStalePlan`).
 */
export function judgeAndWrite(layer: RecordsLayer, input: JudgedWriteInput, write: WriteBuilder | undefined, shape?: WriteShape<WriteBuilder>): Promise<RecordRow> {
  const once = () => judgeAndWriteOnce(layer, input, write, shape);
  // A plan refused in the write's own transaction (a migration changed the table meanwhile)
  // rolled the write back: it is judged and made once more. In the caller's transaction, the
  // caller runs its transaction again.
  return layer.db.isTransaction ? once() : retryAfterStalePlan(once);
}

/** One attempt of `judgeAndWrite`. */
async function judgeAndWriteOnce(layer: RecordsLayer, input: JudgedWriteInput, write: WriteBuilder | undefined, shape?: WriteShape<WriteBuilder>): Promise<RecordRow> {
  const { resource, view, changes, existing, id, readable, afterWrite } = input;
  const lazy = new LazyTransaction(layer.db);
  try {
    const checks = await WriteChecks.collect({ resource, registry: layer.registry, changes, existing, readable, transaction: () => lazy.trx });
    const hook = resource.hooks.validate;
    let errors: RecordErrors | undefined;
    if (hook) {
      errors = checks.errors(await computeChecks(layer, lazy.begun ? lazy.trx : layer.db, resource, checks, shape));
      const context = { operation: existing ? ('update' as const) : ('create' as const), changes, record: { ...(existing ?? {}), ...changes }, errors, get db() { return lazy.trx; } };
      await hook(context);
    }
    // A read-back in a second statement (see `writeAndRead`) needs the transaction: a failed read leaves no row.
    if ((write && layer.readsOwnTable(resource, view)) || afterWrite) await lazy.begin();
    return await lazy.finish(async (db) => {
      errors ??= checks.failedInTransaction || !write ? checks.errors(await computeChecks(layer, db, resource, checks, shape)) : undefined;
      if (errors?.has()) throw new RecordInvalidError(errors.toJSON());
      if (write) return writeAndRead(layer, db, { resource, view, checks, write, shape, id, readable, afterWrite });
      if (afterWrite) {
        // Nothing to set on the row: it is locked, so that what the write does besides stays in step with it.
        const locked = await db.selectFrom(resource.table).select(resource.primaryKey).where(resource.primaryKey, '=', id!).forUpdate().executeTakeFirst();
        if (!locked) throw new RecordNotFoundError(resource.name, id);
        await afterWrite(db, id!);
      }
      return findRecord(layer, { resource, view, id: id!, readable }, db);
    });
  } catch (error) {
    await lazy.abandon();
    throw constraintViolation(error, resource, 'write', changes) ?? error;
  } finally {
    // The `cached` count strategy's counts of this table may be stale now (a failed write
    // may still have committed, as far as this process can tell).
    await layer.counts.written(resource.table, resource.count ?? layer.countStrategy);
  }
}

/**
 * Runs an insert or update that returns the row, and reads the row back on `view` (every
 * column and the view's association values) in the same statement:
 * `with written as (<write> returning *) select … from written as r`. With checks, they are a
 * CTE the write is gated on, selected with the row:
 * `with checks as (select exists(…) as panel_check_0), written as (insert … select … where
 * (select panel_check_0 from checks) returning *) select checks.*, … from checks left join written as r on true`.
 * The association subqueries see the tables as they were before the statement, which is
 * what they are for every other table; a resource with an association to its own table (a
 * post's parent post) could read its own row from before the write, so it reads back in a
 * second statement.
 */
async function writeAndRead(
  layer: RecordsLayer,
  db: Kysely<any>,
  input: {
    resource: CompiledResource;
    view: View;
    checks: WriteChecks;
    write: WriteBuilder;
    shape?: WriteShape<WriteBuilder> | undefined;
    id?: RecordId | undefined;
    readable?: ReadableRecords | undefined;
    afterWrite?: ((db: Kysely<any>, id: RecordId) => Promise<void>) | undefined;
  },
): Promise<RecordRow> {
  const { resource, view, checks, write, shape, id, readable, afterWrite } = input;
  // What runs after the write changes what the read-back shows: the record is read in a second statement.
  const ownTable = layer.readsOwnTable(resource, view) || afterWrite !== undefined;
  // Worked out once for the write: whether the read-back's association subqueries are narrowed to the actor's scopes.
  const narrowed = ownTable ? undefined : narrowedSelections(db, resource, view, layer.registry, readable);
  const gated = checks.statement.length > 0;
  // Without a second read, nor checks or association values narrowed to the actor (an admin's
  // scopes let every record through), the statement depends on its shape alone: its columns and
  // which of them have checks. It is compiled once per resource, view and shape, with markers in
  // place of the values (the checks' values included), and later writes send it with theirs.
  const compiled =
    shape && !ownTable && checks.shapeOnly && narrowed === undefined
      ? await compiledWrite(layer.statements, resource, view, checkedShape(shape, checks, 'write'), async (values) => {
          const shapeChecks = gated ? await checksWith(layer, resource, shape, values) : checks;
          return writeQuery(layer, db, { resource, view, checks: shapeChecks, write: shape.builder(values), narrowed: undefined, ownTable }).compile();
        })
      : undefined;
  const result = compiled ? await executeCompiledWrite(db, compiled) : ((await writeQuery(layer, db, { resource, view, checks, write, narrowed, ownTable }).executeTakeFirst()) as Record<string, unknown> | undefined);
  if (gated) {
    const errors = checks.errors(result!);
    if (errors.has()) throw new RecordInvalidError(errors.toJSON());
  }
  // An update finds nothing when the row was deleted, or left the scope, since it was read.
  const row = result && result[resource.primaryKey] !== null && result[resource.primaryKey] !== undefined ? (result as RecordRow) : undefined;
  if (!row) throw new RecordNotFoundError(resource.name, id);
  if (gated) for (const check of checks.statement) delete row[check.alias];
  if (afterWrite) await afterWrite(db, row[resource.primaryKey] as RecordId);
  if (ownTable) return findRecord(layer, { resource, view, id: row[resource.primaryKey] as RecordId, readable }, db);
  resolveFileUrls(layer, [row], resource, view);
  return row;
}

/**
 * The write statement of `writeAndRead`, built for this write (its checks, its association
 * rules): the select whose rows are the written records with the checks' results. A batch's
 * creates (`insertAndReadRecords`) read their rows back through it too, with no checks.
 */
export function writeQuery(
  layer: RecordsLayer,
  db: Kysely<any>,
  input: { resource: CompiledResource; view: View; checks: WriteChecks; write: WriteBuilder; narrowed: NarrowedSelections | undefined; ownTable: boolean },
) {
  const { resource, view, checks, write, narrowed, ownTable } = input;
  const gated = checks.statement.length > 0;
  const gate = gated ? sql<SqlBool>`(select ${sql.join(checks.statement.map((check) => sql.ref(check.alias)), sql` and `)} from ${sql.table(CHECKS)})` : undefined;
  const base = gated ? db.with(CHECKS, (qc) => qc.selectNoFrom(checks.selections())) : db;
  const withWrite = base.with(WRITTEN, (qc) => write(qc, gate));
  const from = gated
    ? withWrite.selectFrom(CHECKS).leftJoin(`${WRITTEN} as ${ROW_ALIAS}`, (join) => join.onTrue()).select(checks.statement.map((check) => `${CHECKS}.${check.alias}`))
    : withWrite.selectFrom(`${WRITTEN} as ${ROW_ALIAS}`);
  return ownTable ? from.selectAll(ROW_ALIAS) : selectRecords(db, resource, view, layer.registry, 'all', from, narrowed);
}

/**
 * The statement checks alone, in one select (for a `validate` hook, which reads their messages
 * before the write): compiled once per shape when the checks depend on the shape alone (see
 * `writeAndRead`), else built for this write.
 */
async function computeChecks(layer: RecordsLayer, db: Kysely<any>, resource: CompiledResource, checks: WriteChecks, shape: WriteShape<WriteBuilder> | undefined): Promise<Record<string, unknown>> {
  if (checks.statement.length === 0 || !shape || !checks.shapeOnly) return checks.compute(db);
  const compiled = await compiledWrite(
    layer.statements,
    resource,
    'edit',
    checkedShape(shape, checks, 'checks'),
    async (values) => db.selectNoFrom((await checksWith(layer, resource, shape, values)).selections()).compile(),
    // The checks use the values of the fields that have one; the others are not in this statement.
    { everyValue: false },
  );
  return compiled ? ((await db.executeQuery(compiled)).rows[0] as Record<string, unknown>) : checks.compute(db);
}

/**
 * A write's shape keyed for its compiled statement (`what`: the write, or its checks alone):
 * its columns, which of them have which checks, and each value's JavaScript type.
 */
function checkedShape(shape: WriteShape<WriteBuilder>, checks: WriteChecks, what: 'write' | 'checks'): WriteShape<WriteBuilder> {
  return { ...shape, key: `${what}\u0000${shape.key}\u0000${checks.signature}\u0000${shape.values.map((value) => typeof value).join(',')}` };
}

/** The checks of a shape's write built with `values` (markers, or the write's own) in place of its values. */
function checksWith(layer: RecordsLayer, resource: CompiledResource, shape: WriteShape<WriteBuilder>, values: readonly unknown[]): Promise<WriteChecks> {
  const { changes, existing } = shape.checked(values);
  return WriteChecks.collect({ resource, registry: layer.registry, changes, existing, transaction: noTransaction });
}

/** The transaction of the checks a compiled write is built with: never asked for (such a write has no transaction check). */
function noTransaction(): never {
  throw new Error('A write compiled for its shape has no check in a transaction.');
}
