// Over 250 lines: reads, writes, deletes, the statement cache and file URLs of one records layer; issue 21 splits it.
import { CompiledQuery, sql, type InsertQueryBuilder, type Kysely, type QueryCreator, type SqlBool, type Expression, type Transaction, type UpdateQueryBuilder } from 'kysely';
import type { CompiledResource, ReadableRecords } from '../resources/compiled-types.js';
import type { View } from '../fields/field-types.js';
import { RecordInvalidError, RecordNotFoundError } from '../errors/panel-errors.js';
import { WriteChecks } from '../validation/write-checks.js';
import { LazyTransaction } from './lazy-transaction.js';
import { RecordErrors } from '../validation/record-errors.js';
import { ROW_ALIAS, loadSelectedValues, narrowsAssociations, selectRecords, } from './record-select.js';
import type { RecordsQuery, ScopeFunction } from './records-query.js';
import type { ColumnValues, RecordRow } from './record-row.js';
import { RecordCounts, type TotalCountSource } from './record-counts.js';
import type { ChangeNotifications } from '../database/change-notifications.js';
import { EXACT_COUNT, type CountStrategy } from './count-strategy.js';
import { constraintViolation } from './constraint-errors.js';
import { PAGE_ALIAS, pageOfRecords } from './page-of-records.js';
import { prepareValues } from './prepare-values.js';
import { hasFileFields } from '../attachments/attachment-select.js';
import { attachmentUrl } from '../attachments/attachment-url.js';
import { DEFAULT_ROOT_PATH } from '../config/panel-config.js';
import type { PanelAttachments } from '../attachments/attachments-service.js';

export type { ColumnValues, RecordRow } from './record-row.js';

/** A column to sort an index by, already checked against the resource's sortable fields. */
export interface RecordsSort {
  readonly column: string;
  readonly direction: 'asc' | 'desc';
}

/** One index page and the total the pagination envelope needs. */
export interface RecordsPage {
  readonly rows: RecordRow[];
  readonly totalCount: number;
  /**
   * Present when `totalCount` is not an exact count started after the request, under an
   * opt-in count strategy: `estimate` (the planner's figure) or `cached` (an exact count at
   * most the strategy's `maxAgeMs` old). Absent for the default exact count.
   */
  readonly totalCountSource?: TotalCountSource;
}

const identity: ScopeFunction = (query) => query;

/** The name of the written row in a write that reads itself back (`with written as (…)`). */
const WRITTEN = 'written';
/** The name of the write's checks in its statement (`with checks as (select exists(…) as panel_check_0, …)`). */
const CHECKS = 'checks';

/** An insert or update with `returning *`, as `#writeAndRead` takes it. */
type WriteReturningAll = InsertQueryBuilder<any, any, any> | UpdateQueryBuilder<any, any, any, any>;

/**
 * Builds the write on `db` (a query creator: the write is a CTE of its statement); `gate`, when
 * given, is the condition the write must be made under (every check of the statement holds).
 */
type WriteBuilder = (db: QueryCreator<any>, gate: Expression<SqlBool> | undefined) => WriteReturningAll;

/** Whether an association of the view reads the resource's own table (then a write cannot read itself back in one statement). */
function readsOwnTable(resource: CompiledResource, view: View, registry: ReadonlyMap<string, CompiledResource>): boolean {
  return resource.fieldsOn(view).some((field) => field.target !== undefined && registry.get(field.target)?.table === resource.table);
}

/**
 * The records layer: reads and writes a resource's table through Kysely. An index page costs
 * two statements run in parallel (the page with its association values, through a deferred
 * join, and the count), whatever the page size, its depth and the number of association
 * fields. A write is as few statements as its checks allow: the checks that need the
 * database are computed by the statement that writes (and reads the record back), a
 * transaction is begun only when a hook queries or a check needs one, and constraint
 * violations become `RecordInvalidError`.
 */
export class RecordsRepository {
  readonly #db: Kysely<any>;
  readonly #registry: ReadonlyMap<string, CompiledResource>;
  readonly #attachments: PanelAttachments | undefined;
  readonly #counts: RecordCounts;
  readonly #findBases = new Map<string, { query: RecordsQuery; sql: string; parameters: readonly unknown[]; idAt: number }>();
  readonly #countStrategy: CountStrategy;

  readonly #rootPath: string;

  /**
   * `options.attachments` (what `createPanel` passes) makes the URLs of file values and
   * removes a record's attachments when it is deleted; without it, URLs are under
   * `options.rootPath` (default the config's default root path) and a delete leaves
   * attachments alone. `options.count` is how a list's total is found unless the resource's
   * own `count` says otherwise (default the exact count).
   */
  constructor(
    db: Kysely<any>,
    registry: ReadonlyMap<string, CompiledResource>,
    options: { attachments?: PanelAttachments; rootPath?: string; count?: CountStrategy; counts?: RecordCounts; changes?: ChangeNotifications | undefined } = {},
  ) {
    this.#db = db;
    this.#counts = options.counts ?? new RecordCounts(db, options.changes);
    this.#countStrategy = options.count ?? EXACT_COUNT;
    this.#registry = registry;
    this.#attachments = options.attachments;
    this.#rootPath = options.rootPath ?? DEFAULT_ROOT_PATH;
  }

  /**
   * The same records layer on a transaction the caller began and ends: every statement of its
   * reads and writes runs in `trx`, and a write begins no transaction of its own. The API runs a
   * write under `If-Match` or `Idempotency-Key` this way, so that the precondition's row lock,
   * the write and the stored answer commit together.
   *
   * @example
   * await db.transaction().execute((trx) => panel.records.within(trx).update({ resource, view: 'show', id, values }));
   */
  within(trx: Transaction<any>): RecordsRepository {
    return new RecordsRepository(trx, this.#registry, { attachments: this.#attachments, rootPath: this.#rootPath, count: this.#countStrategy, counts: this.#counts });
  }

  /**
   * Locks the row of `id` (`select … for update`) until the end of the transaction `trx`, so
   * that a check made on the record and the write after it see no change in between.
   */
  async lockRow(input: { resource: CompiledResource; id: number }, trx: Transaction<any>): Promise<void> {
    const { resource, id } = input;
    await trx.selectFrom(resource.table).select(resource.primaryKey).where(resource.primaryKey, '=', id).forUpdate().execute();
  }

  /**
   * One page of records, visible through `scope`, with the view's association values. The
   * count is shared with identical counts requested while it waits to start (never with one
   * already running), so that concurrent pages of the same list count once. Under the
   * `estimate` and `cached` strategies the total is bounded by the page itself: it is at
   * least the rows up to the end of this page, and a page shorter than `perPage` (with rows,
   * or page 1) ends the list, which gives the exact total.
   */
  async list(input: {
    resource: CompiledResource;
    view: View;
    page: number;
    perPage: number;
    sort?: RecordsSort | undefined;
    scope?: ScopeFunction | undefined;
    /** The actor's scope of each association target: labels, ids and counts cover only what it may read. */
    readable?: ReadableRecords | undefined;
    /** A sparse fieldset: the view's field names to load (the others' subqueries are not run). */
    fields?: ReadonlySet<string> | undefined;
  }): Promise<RecordsPage> {
    const { resource, view, page, perPage, readable, fields } = input;
    const scope = input.scope ?? identity;
    const order = input.sort ?? resource.defaultOrder;
    const from = pageOfRecords(this.#db, resource, { scope, order, limit: perPage, offset: (page - 1) * perPage });
    const pageQuery = selectRecords(this.#db, resource, view, this.#registry, 'view', from, readable, fields).orderBy(`${PAGE_ALIAS}.position`);
    // A scope may order its query; `count(*)` with an `order by` is refused by PostgreSQL (42803).
    const scoped = scope(this.#db.selectFrom(`${resource.table} as ${ROW_ALIAS}`)).clearOrderBy();
    const strategy = resource.count ?? this.#countStrategy;
    const [rows, counted] = await Promise.all([pageQuery.execute(), this.#counts.count({ table: resource.table, rows: scoped, strategy })]);
    this.#resolveFiles(rows as RecordRow[], resource, view, fields);
    if (counted.source === undefined) return { rows: rows as RecordRow[], totalCount: counted.count };
    const seen = (page - 1) * perPage + rows.length;
    if (rows.length < perPage && (rows.length > 0 || page === 1)) return { rows: rows as RecordRow[], totalCount: seen };
    return { rows: rows as RecordRow[], totalCount: Math.max(counted.count, seen), totalCountSource: counted.source };
  }

  /** The record with that id visible through `scope` (every column, and the view's associations), or `RecordNotFoundError`. */
  async find(
    input: { resource: CompiledResource; view: View; id: number; scope?: ScopeFunction | undefined; readable?: ReadableRecords | undefined; fields?: ReadonlySet<string> | undefined },
    db: Kysely<any> = this.#db,
  ): Promise<RecordRow> {
    const { resource, view, id, readable, fields } = input;
    const scope = input.scope ?? identity;
    const narrowed = narrowsAssociations(db, resource, view, this.#registry, readable);
    // A sparse fieldset, or association values narrowed to the actor's scopes, is built for this
    // request; the full view's statement is compiled once.
    const base = db === this.#db && !narrowed && fields === undefined ? this.#findBase(resource, view) : undefined;
    const scoped = scope(base?.query ?? selectRecords(db, resource, view, this.#registry, 'all', undefined, narrowed ? readable : undefined, fields));
    // A scope that lets every record through (no policy, an admin's) returns the query it was
    // given: the statement compiled once for the resource and view is sent with this id.
    const row =
      base !== undefined && base.idAt >= 0 && scoped === base.query
        ? ((await db.executeQuery(CompiledQuery.raw(base.sql, base.parameters.with(base.idAt, id)))).rows[0] as RecordRow | undefined)
        : await scoped.where(`${ROW_ALIAS}.${resource.primaryKey}`, '=', id).executeTakeFirst();
    if (!row) throw new RecordNotFoundError(resource.name, id);
    this.#resolveFiles([row as RecordRow], resource, view, fields);
    return row as RecordRow;
  }

  /**
   * Inserts a record and returns it on `view`. The checks that need the database (uniqueness,
   * `belongs_to` targets) are computed by the insert's own statement, which writes only if they
   * all hold: with a `validate` hook that runs no query, a create is one statement. A hook that
   * queries through its `db` begins a transaction, and the write is made in it (see `#judgeAndWrite`).
   * `readable` narrows the `belongs_to` targets to the records the actor may read.
   */
  async create(input: { resource: CompiledResource; view: View; values: ColumnValues; readable?: ReadableRecords | undefined }): Promise<RecordRow> {
    const { resource, view, readable } = input;
    const values = await prepareValues(resource, input.values);
    const columns = Object.keys(values);
    return this.#judgeAndWrite({ resource, view, changes: values, existing: undefined, readable }, (db, gate) => {
      const insert = db.insertInto(resource.table);
      if (columns.length === 0) return insert.defaultValues().returningAll();
      if (!gate) return insert.values(values).returningAll();
      // `insert … select $1, $2 where <gate>`: PostgreSQL types the parameters by the target columns, as for `values`.
      return insert
        .columns(columns)
        .expression(db.selectNoFrom((eb) => columns.map((column) => eb.val(values[column]).as(column))).where(gate))
        .returningAll();
    });
  }

  /**
   * Updates a record visible through `scope` and returns it on `view`, with the same checks as
   * `create`. `existing` is the stored row (every column, read through the scope on the `edit`
   * view) when the caller already found it, as the `update` operation does before it
   * authorizes; without it the row is read first. `beforeWrite`, when given, runs with the row
   * before the checks and the write; it may throw to refuse the update (nothing has been
   * written then), or return the values to write instead of `values`. Values are prepared (a
   * password digested) after it, so a refused write costs no digest. The update re-applies the
   * scope (`where id = $1 and id in (<scope>)`): a record that left the scope since it was read
   * is not written (404).
   */
  async update(input: {
    resource: CompiledResource;
    view: View;
    id: number;
    values: ColumnValues;
    /** The stored row, when the caller found it (through the same scope, on the `edit` view). */
    existing?: RecordRow | undefined;
    scope?: ScopeFunction | undefined;
    beforeWrite?: ((context: { record: RecordRow }) => void | ColumnValues | Promise<void> | Promise<ColumnValues>) | undefined;
    readable?: ReadableRecords | undefined;
  }): Promise<RecordRow> {
    const { resource, view, id, scope, beforeWrite, readable } = input;
    const existing = input.existing ?? (await this.find({ resource, view: 'edit', id, scope }));
    const replaced = beforeWrite ? await beforeWrite({ record: existing }) : undefined;
    const values = await prepareValues(resource, replaced ?? input.values);
    const write: WriteBuilder | undefined =
      Object.keys(values).length === 0
        ? undefined
        : (db, gate) => {
            let update = db.updateTable(resource.table).set(values).where(resource.primaryKey, '=', id);
            const unscoped = db.selectFrom(`${resource.table} as ${ROW_ALIAS}`) as unknown as RecordsQuery;
            const scoped = scope ? scope(unscoped) : unscoped;
            // A scope that returns its query unchanged (an admin's) sees every row: nothing to apply again.
            if (scoped !== unscoped) update = update.where(resource.primaryKey, 'in', scoped.select(`${ROW_ALIAS}.${resource.primaryKey}`).where(`${ROW_ALIAS}.${resource.primaryKey}`, '=', id));
            if (gate) update = update.where(gate);
            return update.returningAll();
          };
    return this.#judgeAndWrite({ resource, view, changes: values, existing, id, readable }, write);
  }

  /**
   * Deletes a record visible through `scope`, in one transaction; the resource's
   * `beforeDestroy` may refuse it. The record's attachments go in the same transaction; their
   * bytes are purged from storage after it commits, never before.
   */
  async destroy(input: { resource: CompiledResource; id: number; scope?: ScopeFunction | undefined }): Promise<void> {
    const { resource, id, scope } = input;
    const attachments = hasFileFields(resource) ? this.#attachments : undefined;
    let purge: string[] = [];
    await this.#deleteInTransaction(resource, async (trx) => {
      const record = await this.find({ resource, view: 'show', id, scope }, trx);
      if (resource.hooks.beforeDestroy) {
        const errors = new RecordErrors();
        await resource.hooks.beforeDestroy({ record, errors, db: trx });
        if (errors.has()) throw new RecordInvalidError(errors.toJSON());
      }
      if (attachments) purge = await attachments.detachRecord(trx, resource, id);
      await trx.deleteFrom(resource.table).where(resource.primaryKey, '=', id).execute();
    });
    if (attachments) await attachments.purge(purge);
  }

  /**
   * Judges a write and makes it: the checks that need the database (`WriteChecks`), the
   * resource's `validate` hook, then one statement that writes only if the checks hold and
   * reads the record back (see `#writeAndRead`).
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
   */
  async #judgeAndWrite(
    input: { resource: CompiledResource; view: View; changes: ColumnValues; existing: RecordRow | undefined; id?: number; readable?: ReadableRecords | undefined },
    write: WriteBuilder | undefined,
  ): Promise<RecordRow> {
    const { resource, view, changes, existing, id, readable } = input;
    const lazy = new LazyTransaction(this.#db);
    try {
      const checks = await WriteChecks.collect({ resource, registry: this.#registry, changes, existing, readable, transaction: () => lazy.trx });
      const hook = resource.hooks.validate;
      let errors: RecordErrors | undefined;
      if (hook) {
        errors = checks.errors(await checks.compute(lazy.begun ? lazy.trx : this.#db));
        const context = { operation: existing ? ('update' as const) : ('create' as const), changes, record: { ...(existing ?? {}), ...changes }, errors, get db() { return lazy.trx; } };
        await hook(context);
      }
      // A read-back in a second statement (see `#writeAndRead`) needs the transaction: a failed read leaves no row.
      if (write && readsOwnTable(resource, view, this.#registry)) await lazy.begin();
      return await lazy.finish(async (db) => {
        errors ??= checks.failedInTransaction || !write ? checks.errors(await checks.compute(db)) : undefined;
        if (errors?.has()) throw new RecordInvalidError(errors.toJSON());
        return write ? this.#writeAndRead(db, resource, view, checks, write, id, readable) : this.find({ resource, view, id: id!, readable }, db);
      });
    } catch (error) {
      await lazy.abandon();
      throw constraintViolation(error, resource, 'write', changes) ?? error;
    } finally {
      // The `cached` count strategy's counts of this table may be stale now (a failed write
      // may still have committed, as far as this process can tell).
      await this.#counts.written(resource.table, resource.count ?? this.#countStrategy);
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
  async #writeAndRead(db: Kysely<any>, resource: CompiledResource, view: View, checks: WriteChecks, write: WriteBuilder, id?: number, readable?: ReadableRecords): Promise<RecordRow> {
    const ownTable = readsOwnTable(resource, view, this.#registry);
    const gated = checks.statement.length > 0;
    const gate = gated ? sql<SqlBool>`(select ${sql.join(checks.statement.map((check) => sql.ref(check.alias)), sql` and `)} from ${sql.table(CHECKS)})` : undefined;
    const base = gated ? db.with(CHECKS, (qc) => qc.selectNoFrom(checks.selections())) : db;
    const withWrite = base.with(WRITTEN, (qc) => write(qc, gate));
    const from = gated
      ? withWrite.selectFrom(CHECKS).leftJoin(`${WRITTEN} as ${ROW_ALIAS}`, (join) => join.onTrue()).select(checks.statement.map((check) => `${CHECKS}.${check.alias}`))
      : withWrite.selectFrom(`${WRITTEN} as ${ROW_ALIAS}`);
    const query = ownTable ? from.selectAll(ROW_ALIAS) : selectRecords(db, resource, view, this.#registry, 'all', from, readable);
    const result = (await query.executeTakeFirst()) as Record<string, unknown> | undefined;
    if (gated) {
      const errors = checks.errors(result!);
      if (errors.has()) throw new RecordInvalidError(errors.toJSON());
    }
    // An update finds nothing when the row was deleted, or left the scope, since it was read.
    const row = result && result[resource.primaryKey] !== null && result[resource.primaryKey] !== undefined ? (result as RecordRow) : undefined;
    if (!row) throw new RecordNotFoundError(resource.name, id);
    if (gated) for (const check of checks.statement) delete row[check.alias];
    if (ownTable) return this.find({ resource, view, id: row[resource.primaryKey] as number, readable }, db);
    this.#resolveFiles([row], resource, view);
    return row;
  }

  /**
   * The select of one record on `view` (every column and the view's associations), built once
   * per resource and view, with its statement compiled for the primary key, whose value sits
   * at `idAt` among the parameters.
   */
  #findBase(resource: CompiledResource, view: View): { query: RecordsQuery; sql: string; parameters: readonly unknown[]; idAt: number } {
    const key = `${resource.name}\u0000${view}`;
    let base = this.#findBases.get(key);
    if (!base) {
      const query = selectRecords(this.#db, resource, view, this.#registry, 'all');
      const marker = Symbol('id');
      const compiled = query.where(`${ROW_ALIAS}.${resource.primaryKey}`, '=', marker as unknown as number).compile();
      base = { query, sql: compiled.sql, parameters: compiled.parameters, idAt: compiled.parameters.indexOf(marker) };
      this.#findBases.set(key, base);
    }
    return base;
  }

  #resolveFiles(rows: RecordRow[], resource: CompiledResource, view: View, only?: ReadonlySet<string>): void {
    const attachments = this.#attachments;
    loadSelectedValues(rows, resource, view, { fileUrl: (blob) => (attachments ? attachments.url(blob) : attachmentUrl(this.#rootPath, blob)) }, only);
  }

  /** Runs a delete in a transaction, turning a constraint violation (a record still referenced) into `RecordInvalidError`. */
  async #deleteInTransaction(resource: CompiledResource, work: (trx: Transaction<any>) => Promise<void>): Promise<void> {
    try {
      // Within the caller's transaction (see `within`), the delete is made in it.
      if (this.#db.isTransaction) await work(this.#db as Transaction<any>);
      else await this.#db.transaction().execute(work);
    } catch (error) {
      throw constraintViolation(error, resource, 'delete', {}) ?? error;
    } finally {
      // The `cached` count strategy's counts of this table may be stale now (a failed write
      // may still have committed, as far as this process can tell).
      await this.#counts.written(resource.table, resource.count ?? this.#countStrategy);
    }
  }
}
