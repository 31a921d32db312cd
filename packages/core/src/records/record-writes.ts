import type { Kysely, Transaction } from 'kysely';
import type { CompiledResource, ReadableRecords } from '../resources/compiled-types.js';
import type { FileChange } from '../uploads/file-changes.js';
import { purgeAfterCommit } from './deferred-purges.js';
import type { View } from '../fields/field-types.js';
import { ROW_ALIAS } from './record-select.js';
import type { ScopeFunction } from './records-query.js';
import type { ColumnValues, RecordRow } from './record-row.js';
import { prepareValues } from './prepare-values.js';
import { findRecord } from './record-reads.js';
import { judgeAndWrite, type WriteBuilder } from './judged-write.js';
import type { RecordsLayer } from './records-layer.js';
import { plainValues, type WriteShape } from './write-statements.js';
import type { RecordId } from '../resources/record-key.js';

/** What a write does to its file fields, and who uploaded the files it attaches. */
export interface FileWrites {
  /** The file fields' changes (`parseWriteValues`), their uploads already judged (`judgeUploads`). */
  files?: readonly FileChange[] | undefined;
  /** The owner key of the uploads named (`panel.uploads`): only this owner's live uploads attach. */
  uploader?: string | undefined;
}

/** What `RecordsRepository.create` takes. */
export interface CreateRecordInput extends FileWrites {
  resource: CompiledResource;
  view: View;
  values: ColumnValues;
  readable?: ReadableRecords | undefined;
}

/** What `RecordsRepository.update` takes. */
export interface UpdateRecordInput extends FileWrites {
  resource: CompiledResource;
  view: View;
  id: RecordId;
  values: ColumnValues;
  /** The stored row, when the caller found it (through the same scope, on the `edit` view). */
  existing?: RecordRow | undefined;
  scope?: ScopeFunction | undefined;
  beforeWrite?: ((context: { record: RecordRow }) => void | ColumnValues | Promise<void> | Promise<ColumnValues>) | undefined;
  readable?: ReadableRecords | undefined;
}

/** Inserts a record and returns it on `view` (see `RecordsRepository.create`). */
export async function createRecord(layer: RecordsLayer, input: CreateRecordInput): Promise<RecordRow> {
  const { resource, view, readable } = input;
  const values = await prepareValues(resource, input.values);
  const columns = Object.keys(values);
  const write = (values: ColumnValues): WriteBuilder => (db, gate) => {
    const insert = db.insertInto(resource.table);
    if (columns.length === 0) return insert.defaultValues().returningAll();
    if (!gate) return insert.values(values).returningAll();
    // `insert … select $1, $2 where <gate>`: PostgreSQL types the parameters by the target columns, as for `values`.
    return insert
      .columns(columns)
      .expression(db.selectNoFrom((eb) => columns.map((column) => eb.val(values[column]).as(column))).where(gate))
      .returningAll();
  };
  // The statement's text depends on the columns set, not their values: compiled once per column list.
  const ordered = columns.map((column) => values[column]);
  const shape: WriteShape<WriteBuilder> | undefined = plainValues(ordered)
    ? { key: `create\u0000${columns.join('\u0000')}`, values: ordered, builder: (values) => write(byColumn(columns, values)), checked: (values) => ({ changes: byColumn(columns, values), existing: undefined }) }
    : undefined;
  return withFileWrites(layer, resource, input, (afterWrite) => judgeAndWrite(layer, { resource, view, changes: values, existing: undefined, readable, afterWrite }, write(values), shape));
}

/** Updates a record visible through `scope` and returns it on `view` (see `RecordsRepository.update`). */
export async function updateRecord(layer: RecordsLayer, input: UpdateRecordInput): Promise<RecordRow> {
  const { resource, view, id, scope, beforeWrite, readable } = input;
  const existing = input.existing ?? (await findRecord(layer, { resource, view: 'edit', id, scope }));
  const replaced = beforeWrite ? await beforeWrite({ record: existing }) : undefined;
  const values = await prepareValues(resource, replaced ?? input.values);
  const columns = Object.keys(values);
  const writeOf =
    (values: ColumnValues, id: RecordId): WriteBuilder =>
    (db, gate) => {
      let update = db.updateTable(resource.table).set(values).where(resource.primaryKey, '=', id);
      const unscoped = db.selectFrom(`${resource.table} as ${ROW_ALIAS}`);
      const scoped = scope ? scope(unscoped) : unscoped;
      // A scope that returns its query unchanged (an admin's) sees every row: nothing to apply again.
      if (scoped !== unscoped) update = update.where(resource.primaryKey, 'in', scoped.select(`${ROW_ALIAS}.${resource.primaryKey}`).where(`${ROW_ALIAS}.${resource.primaryKey}`, '=', id));
      if (gate) update = update.where(gate);
      return update.returningAll();
    };
  const write = columns.length === 0 ? undefined : writeOf(values, id);
  // Without a scope that narrows this actor's writes (an admin's returns its query), the statement's text depends on the columns set alone: compiled once per column list.
  const ordered = [...columns.map((column) => values[column]), id];
  const unscoped = layer.db.selectFrom(`${resource.table} as ${ROW_ALIAS}`);
  const shape: WriteShape<WriteBuilder> | undefined =
    write && (scope === undefined || scope(unscoped) === unscoped) && plainValues(ordered)
      ? {
          key: `update\u0000${columns.join('\u0000')}`,
          values: ordered,
          builder: (values) => writeOf(byColumn(columns, values), values[columns.length] as RecordId),
          checked: (values) => ({ changes: byColumn(columns, values), existing: { [resource.primaryKey]: values[columns.length] } as RecordRow }),
        }
      : undefined;
  return withFileWrites(layer, resource, input, (afterWrite) => judgeAndWrite(layer, { resource, view, changes: values, existing, id, readable, afterWrite }, write, shape));
}

/**
 * Runs a write with what it does to its file fields (`afterWrite`, in its transaction), then
 * purges the bytes of the files it removed, once it has committed. A write without file
 * changes runs as it is.
 */
async function withFileWrites(
  layer: RecordsLayer,
  resource: CompiledResource,
  input: FileWrites,
  run: (afterWrite: ((db: Kysely<any>, id: RecordId) => Promise<void>) | undefined) => Promise<RecordRow>,
): Promise<RecordRow> {
  const { files, uploader } = input;
  const attachments = layer.attachments;
  if (!files || files.length === 0 || !attachments) return run(undefined);
  let purge: string[] = [];
  const row = await run(async (db, id) => {
    purge = await attachments.applyChanges(db as Transaction<any>, { resource, id, owner: uploader, changes: files });
  });
  await purgeAfterCommit(layer.db, attachments, purge);
  return row;
}

/** The values of a write's shape by column (the columns' values first, in order). */
function byColumn(columns: readonly string[], values: readonly unknown[]): ColumnValues {
  return Object.fromEntries(columns.map((column, i) => [column, values[i]]));
}
