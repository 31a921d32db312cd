import type { CompiledQuery, Kysely } from 'kysely';
import type { StatementCache } from './statement-cache.js';
import type { CompiledResource } from '../resources/compiled-types.js';
import type { View } from '../fields/field-types.js';
import type { ColumnValues, RecordRow } from './record-row.js';

/**
 * A write whose statement depends only on its shape, not on its values: the kind of write, the
 * columns it sets (in order) and the view it reads back. `values` fill its parameters in order
 * (for an update, the id last); `builder` builds the same statement with other values in their
 * place (markers, when it is compiled for the shape), and `checked` gives the changes and the
 * stored row its checks are built from, with those values.
 */
export interface WriteShape<Builder> {
  readonly key: string;
  readonly values: readonly unknown[];
  readonly builder: (values: readonly unknown[]) => Builder;
  readonly checked: (values: readonly unknown[]) => { readonly changes: ColumnValues; readonly existing: RecordRow | undefined };
}

/**
 * The most shapes kept per resource. A shape is the set of columns a client sends, so a client
 * could otherwise grow the cache without bound (2^n subsets of n writable fields); past this
 * many, a new shape is built per write, as before the cache, and nothing more is kept.
 */
export const MAX_WRITE_SHAPES = 256;

/** Whether a value goes into a statement as one parameter whatever it is (so a statement with a marker in its place has the same text). */
const PLAIN = new Set(['string', 'number', 'boolean', 'bigint']);
export function plainValues(values: readonly unknown[]): boolean {
  return values.every((value) => value === null || PLAIN.has(typeof value) || value instanceof Date);
}

/**
 * The statement of a write of this shape on `resource` and `view` with the shape's values, from
 * the statement cache (`StatementCache`: compiled once per resource, view and shape; `compile`
 * builds and compiles it with the values it is given, markers then the write's own), as show's
 * find statement is. The caller checks that the statement depends on nothing but the shape (no
 * per-request scope, nor a check or association value narrowed to the actor). Undefined when the
 * cache keeps none for the shape: the cache is off or holds `MAX_WRITE_SHAPES` of the resource's
 * shapes, the statement does not take each value as a parameter (unless `everyValue` is false: a
 * statement of some of the values, such as a write's checks alone), or it builds other SQL with
 * markers than with the first write's values (a check whose SQL depends on its value). Then each
 * write builds its own.
 */
export async function compiledWrite(
  cache: StatementCache,
  resource: CompiledResource,
  view: View,
  shape: WriteShape<unknown>,
  compile: (values: readonly unknown[]) => Promise<CompiledQuery>,
  options: { readonly everyValue?: boolean } = {},
): Promise<CompiledQuery | undefined> {
  const statements = await cache.statementsAsync(
    { bucket: resource, max: MAX_WRITE_SHAPES, key: `${view}\u0000${shape.key}`, values: shape.values, everyValue: options.everyValue },
    async (values) => ({ write: await compile(values) }),
  );
  return statements?.write;
}

/** Runs a compiled write on `db`: its first row. */
export async function executeCompiledWrite(db: Kysely<any>, query: CompiledQuery): Promise<Record<string, unknown> | undefined> {
  return (await db.executeQuery(query)).rows[0] as Record<string, unknown> | undefined;
}
