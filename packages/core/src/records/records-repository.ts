import type { Kysely, SelectQueryBuilder, Transaction } from 'kysely';
import type { CompiledResource } from '../resources/compiled-types.js';
import type { View } from '../fields/field-types.js';
import type { ChangeNotifications } from '../database/change-notifications.js';
import type { PanelAttachments } from '../attachments/attachments-service.js';
import { DEFAULT_ROOT_PATH } from '../config/panel-config.js';
import type { RecordRow } from './record-row.js';
import { RecordCounts } from './record-counts.js';
import { EXACT_COUNT, type CountStrategy } from './count-strategy.js';
import { LIST_SHAPES } from './list-statements.js';
import { NO_STATEMENT_CACHE, ShapeStatementCache, type KeptShapes, type StatementCache } from './statement-cache.js';
import { findRecord, listRecords, type FindRecordInput, type ListRecordsInput, type RecordsPage } from './record-reads.js';
import { createRecord, updateRecord, type CreateRecordInput, type UpdateRecordInput } from './record-writes.js';
import { destroyRecord, type DestroyRecordInput } from './record-deletes.js';
import { keysetPage, type KeysetPage, type KeysetPageInput } from './keyset-page.js';
import { INCLUDE_MANY, INCLUDE_ONE, includeMany, includeOne, type IncludedPage, type IncludeManyInput, type IncludeOneInput } from './included-records.js';
import type { RecordsLayer } from './records-layer.js';
import { deleteRecords, findRecords, idsInScope, insertAndReadRecords, insertRecords, lockRecords, scopeNarrows, updateRecords } from './bulk-records.js';
import type { ColumnValues as BulkValues } from './record-row.js';
import type { ScopeFunction } from './records-query.js';
import type { ReadableRecords } from '../resources/compiled-types.js';
import type { RecordId } from '../resources/record-key.js';

export type { ColumnValues, RecordRow } from './record-row.js';
export type { RecordsPage, RecordsSort } from './record-reads.js';
export type { KeysetPage, KeysetPageInput } from './keyset-page.js';
export type { IncludedPage, IncludeManyInput, IncludeOneInput } from './included-records.js';

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
  readonly #layer: RecordsLayer;

  /**
   * `options.attachments` (what `createPanel` passes) makes the URLs of file values and
   * removes a record's attachments when it is deleted; without it, URLs are under
   * `options.rootPath` (default the config's default root path) and a delete leaves
   * attachments alone. `options.count` is how a list's total is found unless the resource's
   * own `count` says otherwise (default the exact count). `options.statements` keeps the
   * statements compiled once per shape: `true` (the default) a cache of this layer's own,
   * `false` none (every statement built for its request: `openDatabase({ statementCache: false })`,
   * which `createPanel` passes on), or a cache to share (a transaction's layer shares its parent's).
   */
  constructor(
    db: Kysely<any>,
    registry: ReadonlyMap<string, CompiledResource>,
    options: { attachments?: PanelAttachments; rootPath?: string; count?: CountStrategy; counts?: RecordCounts; changes?: ChangeNotifications | undefined; statements?: boolean | StatementCache } = {},
  ) {
    const statements = options.statements ?? true;
    this.#layer = {
      db,
      registry,
      attachments: options.attachments,
      rootPath: options.rootPath ?? DEFAULT_ROOT_PATH,
      counts: options.counts ?? new RecordCounts(db, options.changes),
      countStrategy: options.count ?? EXACT_COUNT,
      readsOwnTable: (resource, view) => readsOwnTable(resource, view, registry),
      statements: statements === true ? new ShapeStatementCache() : statements === false ? NO_STATEMENT_CACHE : statements,
    };
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
    const { registry, attachments, rootPath, countStrategy, counts, statements } = this.#layer;
    return new RecordsRepository(trx, registry, { ...(attachments ? { attachments } : {}), rootPath, count: countStrategy, counts, statements });
  }

  /**
   * Locks the row of `id` (`select … for update`) until the end of the transaction `trx`, so
   * that a check made on the record and the write after it see no change in between.
   */
  async lockRow(input: { resource: CompiledResource; id: RecordId }, trx: Transaction<any>): Promise<void> {
    await this.rowLock(input, trx).execute();
  }

  /**
   * The select that `lockRow` runs (`select id from <table> where id = $1 for update`), to run
   * or to embed in another statement of `trx` (the API's `If-Match` takes the lock in the
   * statement that looks up an `Idempotency-Key`: one round trip for both).
   */
  rowLock(input: { resource: CompiledResource; id: RecordId }, trx: Transaction<any>): SelectQueryBuilder<any, any, any> {
    const { resource, id } = input;
    return trx.selectFrom(resource.table).select(resource.primaryKey).where(resource.primaryKey, '=', id).forUpdate();
  }

  /**
   * One page of records, visible through `scope`, with the view's association values. The
   * count is shared with identical counts requested while it waits to start (never with one
   * already running), so that concurrent pages of the same list count once. Under the
   * `estimate` and `cached` strategies the total is bounded by the page itself: it is at
   * least the rows up to the end of this page, and a page shorter than `perPage` (with rows,
   * or page 1) ends the list, which gives the exact total.
   */
  list(input: ListRecordsInput): Promise<RecordsPage> {
    return listRecords(this.#layer, input);
  }

  /**
   * One page of a list in keyset (cursor) mode: the rows after `after` (or before `before`) in
   * the list's order, one statement whatever the page's depth (an index seek, no `OFFSET`), with
   * whether more rows lie on each side; a total only when `total` asks (a second statement).
   */
  keysetPage(input: KeysetPageInput): Promise<KeysetPage> {
    return keysetPage(this.#layer, input);
  }

  /**
   * The records of a to-one association (`belongs_to`, `has_one`) that a page of records names,
   * by primary key, through the target's scope: one statement whatever their number. A key
   * whose record is missing or outside the scope has no entry.
   */
  includeOne(input: IncludeOneInput): Promise<Map<string, RecordRow>> {
    return includeOne(this.#layer, input);
  }

  /**
   * The first page of a to-many association's records (`has_many`, `has_and_belongs_to_many`)
   * for each of a page of parents, through the target's scope: one statement whatever the
   * number of parents and records, by parent key.
   */
  includeMany(input: IncludeManyInput): Promise<Map<string, IncludedPage>> {
    return includeMany(this.#layer, input);
  }

  /** The list shapes the records layer keeps (at most `MAX_LIST_SHAPES`) and how many have compiled statements, for tests. */
  get listShapes(): KeptShapes {
    return this.#layer.statements.shapes(LIST_SHAPES);
  }

  /** The included-records shapes the records layer keeps (to-one per target, view and fieldset; to-many per association, view, fieldset, page size and order), for tests. */
  get includeShapes(): { readonly one: KeptShapes; readonly many: KeptShapes } {
    return { one: this.#layer.statements.shapes(INCLUDE_ONE), many: this.#layer.statements.shapes(INCLUDE_MANY) };
  }

  /** Whether this records layer keeps statements compiled once per shape (false: every statement is built for its request). */
  get cachesStatements(): boolean {
    return this.#layer.statements.enabled;
  }

  /** The record with that id visible through `scope` (every column, and the view's associations), or `RecordNotFoundError`. */
  find(input: FindRecordInput, db: Kysely<any> = this.#layer.db): Promise<RecordRow> {
    return findRecord(this.#layer, input, db);
  }

  /**
   * Inserts a record and returns it on `view`. The checks that need the database (uniqueness,
   * `belongs_to` targets) are computed by the insert's own statement, which writes only if they
   * all hold: with a `validate` hook that runs no query, a create is one statement. A hook that
   * queries through its `db` begins a transaction, and the write is made in it (see `judgeAndWrite`).
   * `readable` narrows the `belongs_to` targets to the records the actor may read.
   */
  create(input: CreateRecordInput): Promise<RecordRow> {
    return createRecord(this.#layer, input);
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
  update(input: UpdateRecordInput): Promise<RecordRow> {
    return updateRecord(this.#layer, input);
  }

  /**
   * The statements of a batch of writes, each constant in the number of records (see
   * `operations.batch`): the records of several ids on a view (`find`), their rows locked
   * (`lock`), rows inserted (`insert`, the new ids in order), updated (`update`, one statement
   * per set of columns written; the ids updated), deleted (`delete`, with their attachments;
   * the ids deleted), and the ids a scope lets through (`inScope`). No checks, hooks or
   * policies: the batch operation runs those.
   */
  get bulk() {
    const layer = this.#layer;
    return {
      find: (input: { resource: CompiledResource; view: View; ids: readonly unknown[]; scope?: ScopeFunction | undefined; readable?: ReadableRecords | undefined }) => findRecords(layer, input),
      lock: (resource: CompiledResource, ids: readonly unknown[]) => lockRecords(layer, resource, ids),
      insert: (resource: CompiledResource, rows: readonly BulkValues[]) => insertRecords(layer, resource, rows),
      insertAndRead: (input: { resource: CompiledResource; view: View; rows: readonly BulkValues[]; readable?: ReadableRecords | undefined }) => insertAndReadRecords(layer, input),
      narrows: (resource: CompiledResource, scope: ScopeFunction | undefined) => scopeNarrows(layer, resource, scope),
      update: (resource: CompiledResource, updates: readonly { id: unknown; values: BulkValues }[], scope: ScopeFunction | undefined) => updateRecords(layer, resource, updates, scope),
      delete: (resource: CompiledResource, ids: readonly unknown[]) => deleteRecords(layer, resource, ids),
      inScope: (resource: CompiledResource, ids: readonly unknown[], scope: ScopeFunction | undefined) => idsInScope(layer, resource, ids, scope),
      readsOwnTable: (resource: CompiledResource, view: View) => layer.readsOwnTable(resource, view),
    };
  }

  /**
   * Deletes a record visible through `scope`, in one transaction; the resource's
   * `beforeDestroy` may refuse it. The record's attachments go in the same transaction; their
   * bytes are purged from storage after it commits, never before.
   */
  destroy(input: DestroyRecordInput): Promise<void> {
    return destroyRecord(this.#layer, input);
  }
}
