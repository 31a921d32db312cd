import { createHash } from 'node:crypto';
import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import { ROW_ALIAS } from './record-select.js';

/**
 * A place in a keyset order, between two rows: the sort column's value and the primary key's,
 * each as PostgreSQL writes it in text (`r.<column>::text`; null for NULL). Text keeps every
 * value exact: a timestamp's microseconds, a numeric's digits, a key past 2^53.
 */
export interface KeysetPosition {
  readonly value: string | null;
  readonly id: string;
  /**
   * Set when the value is too long to be carried (a cursor stays small): the SHA-256 of the
   * value's text (`keysetValueDigest`), `value` being null. The page then reads the value from
   * the row `id` in its own statement, and holds to it only while that row is there with this
   * value (else `KeysetPage.staleCursor`).
   */
  readonly digest?: string | undefined;
}

/** The digest a position too long to carry holds of its value's text (base64url of SHA-256). */
export function keysetValueDigest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/** A list's order as a keyset: one sortable column, then the primary key in the same direction as the tie-breaker. */
export interface KeysetOrder {
  readonly column: string;
  readonly direction: 'asc' | 'desc';
  readonly primaryKey: string;
}

/** The same order read backwards: PostgreSQL's default NULL placement flips with the direction (last ascending, first descending), so it is the exact reverse. */
export function reversedOrder(order: KeysetOrder): KeysetOrder {
  return { ...order, direction: order.direction === 'asc' ? 'desc' : 'asc' };
}

/**
 * The rows after `position` in `order` (with `inclusive`, from `position` on: the row there,
 * when one still is, too), as one or two conditions whose union they are. Each condition is
 * one range of an index on `(column, primary key)` — a row comparison, or `is null` with a
 * range of the key — so a page seeks instead of skipping rows: the caller reads each in order
 * with its own limit (`union all`) rather than one `or`, which PostgreSQL cannot read in index
 * order. NULLs sit where PostgreSQL puts them without `NULLS FIRST/LAST`: after every value
 * ascending, before every value descending.
 *
 * | order | value | rows after |
 * |---|---|---|
 * | asc | v | `(c, pk) > (v, id)`, then `c is null` |
 * | asc | null | `c is null and pk > id` |
 * | desc | v | `(c, pk) < (v, id)` |
 * | desc | null | `c is null and pk < id`, then `c is not null` |
 *
 * A position whose value was too long to carry (`digest`) compares with `anchored`, the
 * expression that reads the value from its row, as with a value.
 */
export function rowsAfter(eb: ExpressionBuilder<any, any>, order: KeysetOrder, position: KeysetPosition, inclusive = false, anchored?: Expression<unknown>): Expression<SqlBool>[] {
  const column = `${ROW_ALIAS}.${order.column}`;
  const key = `${ROW_ALIAS}.${order.primaryKey}`;
  const ascending = order.direction === 'asc';
  const comparison = ascending ? (inclusive ? '>=' : '>') : inclusive ? '<=' : '<';
  if (order.column === order.primaryKey) return [eb(key, comparison, position.id)];
  if (position.digest !== undefined) {
    // A value too long to carry is read from its row (`anchored`), which holds a value: never NULL.
    if (anchored === undefined) throw new TypeError('rowsAfter: a position without its value needs the expression that reads it (anchored).');
    const past = eb(eb.refTuple(column, key), comparison, eb.tuple(anchored, position.id));
    return ascending ? [past, eb(column, 'is', null)] : [past];
  }
  if (position.value === null) {
    const amongNulls = eb.and([eb(column, 'is', null), eb(key, comparison, position.id)]);
    return ascending ? [amongNulls] : [amongNulls, eb(column, 'is not', null)];
  }
  const past = eb(eb.refTuple(column, key), comparison, eb.tuple(position.value, position.id));
  return ascending ? [past, eb(column, 'is', null)] : [past];
}

/** The text of a row's place in a keyset order, selected beside its columns (`KEYSET_VALUE`, `KEYSET_ID`). */
export function keysetColumns(order: KeysetOrder): [RawBuilder<string | null>, RawBuilder<string>] {
  return [sql<string | null>`${sql.ref(`${ROW_ALIAS}.${order.column}`)}::text`, sql<string>`${sql.ref(`${ROW_ALIAS}.${order.primaryKey}`)}::text`];
}

/** The alias a row's sort value (as text) is selected as, beside its columns. */
export const KEYSET_VALUE = 'panel_keyset_value';

/** The alias a row's primary key (as text) is selected as, beside its columns. */
export const KEYSET_ID = 'panel_keyset_id';

/** A row's place, read from the columns `keysetColumns` selected, which are taken off the row. */
export function takePosition(row: Record<string, unknown>): KeysetPosition {
  const position = { value: (row[KEYSET_VALUE] ?? null) as string | null, id: String(row[KEYSET_ID]) };
  delete row[KEYSET_VALUE];
  delete row[KEYSET_ID];
  return position;
}
