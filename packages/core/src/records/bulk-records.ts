import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { CompiledResource, ReadableRecords } from '../resources/compiled-types.js';
import type { View } from '../fields/field-types.js';
import { hasFileFields } from '../attachments/attachment-select.js';
import { ROW_ALIAS, narrowedSelections, selectRecords } from './record-select.js';
import type { ScopeFunction } from './records-query.js';
import type { ColumnValues, RecordRow } from './record-row.js';
import { resolveFileUrls } from './record-file-urls.js';
import { purgeAfterCommit } from './deferred-purges.js';
import type { RecordsLayer } from './records-layer.js';
import { writeQuery } from './judged-write.js';
import { WriteChecks } from '../validation/write-checks.js';

/** A record id as a map key: the same for `7` and `'7'` (a `bigint` key comes back as text from one driver). */
export const idKey = (id: unknown): string => String(id);

/**
 * `<column> = any(cast($1 as <key type>[]))`: the ids as one array parameter, so that a statement
 * is the same text (one prepared statement, one plan) for 1 id or 1,000, where `in ($1, …, $n)`
 * is a new statement for every n.
 */
function keyIn(resource: CompiledResource, column: string, ids: readonly unknown[]): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} = any(cast(${[...ids]} as ${sql.raw(resource.key.cast)}[]))`;
}

/**
 * The records of `ids` visible through `scope`, on `view` (every column, and the view's
 * association values, narrowed to `readable`), in one statement, by `idKey`. An id missing from
 * the answer is missing or outside the scope, alike.
 */
export async function findRecords(
  layer: RecordsLayer,
  input: { resource: CompiledResource; view: View; ids: readonly unknown[]; scope?: ScopeFunction | undefined; readable?: ReadableRecords | undefined },
): Promise<Map<string, RecordRow>> {
  const { db, registry } = layer;
  const { resource, view, ids, scope, readable } = input;
  if (ids.length === 0) return new Map();
  const query = selectRecords(db, resource, view, registry, 'all', undefined, narrowedSelections(db, resource, view, registry, readable));
  const rows = (await (scope ? scope(query) : query).where(keyIn(resource, `${ROW_ALIAS}.${resource.primaryKey}`, ids)).execute()) as RecordRow[];
  resolveFileUrls(layer, rows, resource, view);
  return new Map(rows.map((row) => [idKey(row[resource.primaryKey]), row]));
}

/** Locks the rows of `ids` (`select … for update`, one statement) until the end of the layer's transaction. */
export async function lockRecords(layer: RecordsLayer, resource: CompiledResource, ids: readonly unknown[]): Promise<void> {
  if (ids.length === 0) return;
  await layer.db.selectFrom(resource.table).select(resource.primaryKey).where(keyIn(resource, resource.primaryKey, ids)).orderBy(resource.primaryKey).forUpdate().execute();
}

/**
 * Inserts rows in one statement (`insert … values (…), (…) returning <primary key>`), a column
 * a row leaves out taking its default; answers the new ids in the rows' order.
 */
export async function insertRecords(layer: RecordsLayer, resource: CompiledResource, rows: readonly ColumnValues[]): Promise<unknown[]> {
  if (rows.length === 0) return [];
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const insert = layer.db.insertInto(resource.table);
  // Kysely writes `default` for a column a row leaves out; a row that sets none is all defaults.
  const written = await stale(layer, resource, () => (columns.length === 0 ? insertDefaults(layer, resource, rows.length) : insert.values(rows.map((row) => ({ ...row }))).returning(resource.primaryKey).execute()));
  return written.map((row) => (row as Record<string, unknown>)[resource.primaryKey]);
}

/**
 * Inserts rows and reads them back on `view` in one statement (`with written as (insert …
 * returning *) select r.*, <the view's association values> from written as r`), in the rows'
 * order: for a resource whose view has no association to its own table (the subqueries see the
 * tables as they were before the statement) and a write whose rows need no scope check after
 * it. Undefined when the rows set no column (all defaults): `insert` then `find` instead.
 */
export async function insertAndReadRecords(
  layer: RecordsLayer,
  input: { resource: CompiledResource; view: View; rows: readonly ColumnValues[]; readable?: ReadableRecords | undefined },
): Promise<RecordRow[] | undefined> {
  const { db, registry } = layer;
  const { resource, view, rows, readable } = input;
  if (rows.length === 0) return [];
  if (!rows.some((row) => Object.keys(row).length > 0)) return undefined;
  // The single writes' statement, with no checks: `with written as (insert …) select … from written as r`.
  const query = writeQuery(layer, db, {
    resource,
    view,
    checks: new WriteChecks(),
    write: (qc) => qc.insertInto(resource.table).values(rows.map((row) => ({ ...row }))).returningAll(),
    narrowed: narrowedSelections(db, resource, view, registry, readable),
    ownTable: false,
  });
  const read = (await stale(layer, resource, () => query.execute())) as RecordRow[];
  resolveFileUrls(layer, read, resource, view);
  return read;
}

async function insertDefaults(layer: RecordsLayer, resource: CompiledResource, count: number): Promise<Record<string, unknown>[]> {
  const pk = sql.ref(resource.primaryKey);
  const { rows } = await sql<Record<string, unknown>>`insert into ${sql.table(resource.table)} (${pk}) select ${sql.raw('default')} from generate_series(1, ${count}) returning ${pk}`.execute(layer.db);
  return rows;
}

/**
 * Updates rows in one statement per set of columns written (a batch that sets the same columns
 * everywhere is one statement): `update t set c = v.c … from (values (<typed nulls>), ($1, $2),
 * …) as v (id, c, …) where t.id = v.id [and t.id in (<scope>)] returning t.id`. The first row of
 * `values` is the table's own columns' types (scalar subqueries that find nothing), so every
 * parameter takes its column's type, as in a single update. Answers the ids updated (a row that
 * left the scope, or was deleted, is not).
 */
export async function updateRecords(layer: RecordsLayer, resource: CompiledResource, updates: readonly { readonly id: unknown; readonly values: ColumnValues }[], scope: ScopeFunction | undefined): Promise<Set<string>> {
  const updated = new Set<string>();
  const groups = new Map<string, { columns: string[]; updates: { id: unknown; values: ColumnValues }[] }>();
  for (const update of updates) {
    const columns = Object.keys(update.values);
    if (columns.length === 0) continue;
    const key = columns.join('\u0000');
    const group = groups.get(key) ?? { columns, updates: [] };
    group.updates.push(update);
    groups.set(key, group);
  }
  const pk = resource.primaryKey;
  for (const { columns, updates: group } of groups.values()) {
    const all = [pk, ...columns];
    const typed = sql`(${sql.join(all.map((column) => sql`(select ${sql.ref(column)} from ${sql.table(resource.table)} where false)`))})`;
    const rows = group.map((update) => sql`(${sql.join([update.id, ...columns.map((column) => update.values[column])].map((value) => sql`${value}`))})`);
    const set = sql.join(columns.map((column) => sql`${sql.ref(column)} = ${sql.ref(`v.${column}`)}`));
    const scoped = scopeCondition(layer, resource, scope, sql.ref(`t.${pk}`));
    const { rows: written } = await stale(layer, resource, () => sql<Record<string, unknown>>`update ${sql.table(resource.table)} as t set ${set}
      from (values ${sql.join([typed, ...rows])}) as v (${sql.join(all.map((column) => sql.ref(column)))})
      where ${sql.ref(`t.${pk}`)} = ${sql.ref(`v.${pk}`)}${scoped} returning ${sql.ref(`t.${pk}`)}`.execute(layer.db));
    for (const row of written) updated.add(idKey(row[pk]));
  }
  return updated;
}

/**
 * Deletes rows in one statement (their attachments and blob rows first, in the same
 * transaction; the bytes once it commits); answers the ids deleted.
 */
export async function deleteRecords(layer: RecordsLayer, resource: CompiledResource, ids: readonly unknown[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const attachments = hasFileFields(resource) ? layer.attachments : undefined;
  const purge = attachments ? await attachments.detachRecords(layer.db, resource, ids) : [];
  const deleted = await stale(layer, resource, () => layer.db.deleteFrom(resource.table).where(keyIn(resource, resource.primaryKey, ids)).returning(resource.primaryKey).execute());
  if (attachments) await purgeAfterCommit(layer.db, attachments, purge);
  return new Set(deleted.map((row) => idKey((row as Record<string, unknown>)[resource.primaryKey])));
}

/**
 * The ids among `ids` that `scope` lets through, in one statement (none when the scope lets
 * every row through: then all of them): the check of written rows against the actor's scope.
 */
export async function idsInScope(layer: RecordsLayer, resource: CompiledResource, ids: readonly unknown[], scope: ScopeFunction | undefined): Promise<Set<string>> {
  const all = new Set(ids.map(idKey));
  const scoped = ids.length === 0 ? undefined : scopedTable(layer, resource, scope);
  if (!scoped) return all;
  const rows = await scoped.select(`${ROW_ALIAS}.${resource.primaryKey}`).where(keyIn(resource, `${ROW_ALIAS}.${resource.primaryKey}`, ids)).execute();
  return new Set(rows.map((row) => idKey((row as Record<string, unknown>)[resource.primaryKey])));
}

/** The table's rows through `scope`, undefined when it does not narrow them (an admin's returns the query it was given: every row). */
function scopedTable(layer: RecordsLayer, resource: CompiledResource, scope: ScopeFunction | undefined) {
  if (!scope) return undefined;
  const table = layer.db.selectFrom(`${resource.table} as ${ROW_ALIAS}`);
  const scoped = scope(table);
  return scoped === table ? undefined : scoped;
}

/** Whether `scope` narrows the table's rows. */
export function scopeNarrows(layer: RecordsLayer, resource: CompiledResource, scope: ScopeFunction | undefined): boolean {
  return scopedTable(layer, resource, scope) !== undefined;
}

/** Runs a write of the table, then tells the counts that this table's counts may be stale (the `cached` strategy), whether it succeeded or not, as single writes do. */
async function stale<T>(layer: RecordsLayer, resource: CompiledResource, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } finally {
    await layer.counts.written(resource.table, resource.count ?? layer.countStrategy);
  }
}

/** ` and t.id in (<scope>)` when the scope narrows the rows (an admin's lets every row through: nothing). */
function scopeCondition(layer: RecordsLayer, resource: CompiledResource, scope: ScopeFunction | undefined, column: RawBuilder<unknown>): RawBuilder<unknown> {
  const scoped = scopedTable(layer, resource, scope);
  if (!scoped) return sql``;
  return sql` and ${column} in (${scoped.select(`${ROW_ALIAS}.${resource.primaryKey}`)})`;
}

export type { Kysely };
