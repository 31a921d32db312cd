import { sql } from 'kysely';
import type { CompiledField, CompiledResource, ReadableRecords } from '../resources/compiled-types.js';
import type { View } from '../fields/field-types.js';
import { ROW_ALIAS, narrowedSelections, selectRecords } from './record-select.js';
import type { ScopeFunction } from './records-query.js';
import type { RecordRow } from './record-row.js';
import type { RecordsSort } from './record-reads.js';
import { KEYSET_ID, KEYSET_VALUE, keysetColumns, takePosition, type KeysetOrder, type KeysetPosition } from './keyset-order.js';
import { resolveFileUrls } from './record-file-urls.js';
import { MAX_LIST_SHAPES } from './list-statements.js';
import type { RecordsLayer } from './records-layer.js';

/** What the included records of one association path are read with, whatever its kind. */
interface IncludedInput {
  /** The association field, on the resource whose records include the target's. */
  field: CompiledField;
  /** The view the target's records are read on. */
  view: View;
  /** The target's rows the actor may read (its policy scope, or Edition B's grant); undefined: every row. */
  scope?: ScopeFunction | undefined;
  /** The actor's scope of each association target of the included records (their own labels and counts). */
  readable?: ReadableRecords | undefined;
  /** The target's field names to load; default every field of the view. */
  fields?: ReadonlySet<string> | undefined;
}

/** What `RecordsRepository.includeOne` takes: the primary keys of the target records the parents name. */
export interface IncludeOneInput extends IncludedInput {
  /** The target's primary keys (duplicates and nulls are dropped). */
  ids: readonly unknown[];
}

/** What `RecordsRepository.includeMany` takes: the parents whose first page of the target's records to read. */
export interface IncludeManyInput extends IncludedInput {
  /** The resource of the parents (the field's own). */
  parent: CompiledResource;
  /** The parents' primary keys (duplicates are dropped). */
  parentIds: readonly unknown[];
  /** The most records per parent. */
  perPage: number;
  /** The order of each parent's records; default the target's own. The primary key breaks ties. */
  sort?: RecordsSort | undefined;
}

/** The first page of one parent's records, whether more follow, and where the next page starts. */
export interface IncludedPage {
  readonly rows: RecordRow[];
  readonly hasMore: boolean;
  /** The place of the last row in the page's order (the next page starts after it); undefined when the page is empty. */
  readonly last: KeysetPosition | undefined;
}

/** The statement cache's buckets of included records (`statement-cache.ts`). */
export const INCLUDE_ONE = 'include one';
export const INCLUDE_MANY = 'include many';

/** The alias of a to-many row's parent key. */
const PARENT_KEY = 'panel_parent_key';

/** The alias of the parents' table in a to-many statement (the target is `r`, as scopes expect). */
const PARENT_ALIAS = 'parent';

const distinct = (values: readonly unknown[]): unknown[] => [...new Set(values.filter((value) => value !== null && value !== undefined))];

/** A fieldset in a statement shape's key: its names in the order the statement selects them, or `*` for every field of the view. */
const fieldsetKey = (fields: ReadonlySet<string> | undefined): string => (fields === undefined ? '*' : [...fields].join(','));

/** A primary key as a map key: rows give numbers, positions and ids may be text. */
export const keyOf = (value: unknown): string => String(value);

/**
 * The records of a to-one association (`belongs_to`, `has_one`) for a page of parents, in one
 * statement whatever their number: `target.pk = any($ids) and <scope>`, on the target's view,
 * with its own association values and file URLs. A key whose record is missing, or outside the
 * scope, has no entry: the caller answers both as `null`, exactly as a null key.
 */
export async function includeOne(layer: RecordsLayer, input: IncludeOneInput): Promise<Map<string, RecordRow>> {
  const { db, registry } = layer;
  const target = registry.get(input.field.target!)!;
  const table = db.selectFrom(`${target.table} as ${ROW_ALIAS}`);
  const scoped = input.scope ? input.scope(table) : table;
  const narrowed = narrowedSelections(db, target, input.view, registry, input.readable);
  const build = (values: readonly unknown[]) => ({
    include: selectRecords(db, target, input.view, registry, 'view', scoped.clearOrderBy(), narrowed, input.fields)
      .where(`${ROW_ALIAS}.${target.primaryKey}`, '=', sql<unknown>`any(${values[0]})`)
      .compile(),
  });
  // Kept per target, view and fieldset when no scope narrows the statement for this request (an admin's, or no policies); a client picks the fieldset, so the shapes are bounded as a list's.
  const whole = narrowed === undefined && scoped === table;
  const values = [distinct(input.ids)];
  const shape = `${target.name}\u0000${input.view}\u0000${fieldsetKey(input.fields)}`;
  const statements = (whole && layer.statements.statements({ bucket: INCLUDE_ONE, max: MAX_LIST_SHAPES, key: shape, values }, build)) || build(values);
  const rows = (await db.executeQuery(statements.include)).rows as RecordRow[];
  resolveFileUrls(layer, rows, target, input.view, input.fields);
  return new Map(rows.map((row) => [keyOf(row[target.primaryKey]), row]));
}

/**
 * The first page of a to-many association's records (`has_many`, `has_and_belongs_to_many`) of
 * every parent, in one statement whatever their number: per parent, a lateral subquery of the
 * target's rows related to it (the type's `related`, with the parent's key as a column), through
 * the scope, ordered and limited to `perPage + 1` (the extra row says whether more follow),
 * joined back to the target's table for the view's columns and association values.
 */
export async function includeMany(layer: RecordsLayer, input: IncludeManyInput): Promise<Map<string, IncludedPage>> {
  const { db, registry } = layer;
  const { field, parent, view, perPage } = input;
  const target = registry.get(field.target!)!;
  const sort = input.sort ?? target.defaultOrder;
  const order: KeysetOrder = { column: sort.column, direction: sort.direction, primaryKey: target.primaryKey };
  const column = `${ROW_ALIAS}.${order.column}`;
  const key = `${ROW_ALIAS}.${target.primaryKey}`;
  const parentKey = `${PARENT_ALIAS}.${parent.primaryKey}`;
  const related = field.kind.association!.related!(field, sql.ref(parentKey));
  const table = db.selectFrom(`${target.table} as ${ROW_ALIAS}`);
  const scoped = input.scope ? input.scope(table) : table;
  const narrowed = narrowedSelections(db, target, view, registry, input.readable);
  const build = (values: readonly unknown[]) => {
    let page = related(scoped.clearOrderBy()).select(`${key} as id`);
    if (order.column !== order.primaryKey) page = page.orderBy(column, order.direction);
    page = page.orderBy(key, order.direction).limit(perPage + 1);
    // The parents are read from their own table by key (`= any($ids)` takes its type from the
    // column, whatever the key's type), each with its lateral page of the target's ids.
    const from = db
      .selectFrom(`${parent.table} as ${PARENT_ALIAS}`)
      .innerJoinLateral(page.as('x'), (join) => join.onTrue())
      .innerJoin(`${target.table} as ${ROW_ALIAS}`, key, 'x.id')
      .where(parentKey, '=', sql<unknown>`any(${values[0]})`);
    const [value, id] = keysetColumns(order);
    let query = selectRecords(db, target, view, registry, 'view', from, narrowed, input.fields).select([sql.ref(parentKey).as(PARENT_KEY), value.as(KEYSET_VALUE), id.as(KEYSET_ID)]).orderBy(parentKey);
    if (order.column !== order.primaryKey) query = query.orderBy(column, order.direction);
    return { include: query.orderBy(key, order.direction).compile() };
  };
  // Kept per association, view, fieldset, page size and order when no scope narrows the statement for this request; a client picks the last four, so the shapes are bounded as a list's.
  const whole = narrowed === undefined && scoped === table;
  const values = [distinct(input.parentIds)];
  const shape = `${parent.name}\u0000${field.name}\u0000${view}\u0000${fieldsetKey(input.fields)}\u0000${perPage}\u0000${order.column}\u0000${order.direction}`;
  const statements = (whole && layer.statements.statements({ bucket: INCLUDE_MANY, max: MAX_LIST_SHAPES, key: shape, values }, build)) || build(values);
  const rows = (await db.executeQuery(statements.include)).rows as RecordRow[];
  const pages = new Map<string, { rows: RecordRow[]; hasMore: boolean; last: KeysetPosition | undefined }>();
  const kept: RecordRow[] = [];
  for (const row of rows) {
    const owner = keyOf(row[PARENT_KEY]);
    delete row[PARENT_KEY];
    const position = takePosition(row);
    let entry = pages.get(owner);
    if (!entry) {
      entry = { rows: [], hasMore: false, last: undefined };
      pages.set(owner, entry);
    }
    if (entry.rows.length === perPage) {
      entry.hasMore = true;
      continue;
    }
    entry.rows.push(row);
    entry.last = position;
    kept.push(row);
  }
  resolveFileUrls(layer, kept, target, view, input.fields);
  return pages;
}
