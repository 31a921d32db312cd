import type { CompiledQuery, Kysely } from 'kysely';
import { filled, markersFor, sameStatement, takesEveryValue, templateOf, type StatementTemplate } from './statement-templates.js';
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

/** A write's statement compiled once (`StatementTemplate`), or null for a shape built per write. */
type WriteTemplate = StatementTemplate | null;

const templates = new WeakMap<CompiledResource, Map<string, WriteTemplate>>();
// null: a shape whose statement did not take each value as a parameter (then it is built per write).

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
 * The statement of a write of this shape on `resource` and `view` with the shape's values, its
 * text compiled once per resource, view and shape (`compile` builds and compiles it with the
 * values it is given: markers, then the write's own), as show's find statement is. The caller
 * checks that the statement depends on nothing but the shape (no per-request scope, nor a check
 * or association value narrowed to the actor). Undefined when the statement does not take each
 * value as a parameter (unless `everyValue` is false: a statement of some of the values, such as
 * a write's checks alone), or builds other SQL with markers than with the first write's values
 * (a check whose SQL depends on its value): then each write builds its own.
 */
export async function compiledWrite(
  resource: CompiledResource,
  view: View,
  shape: WriteShape<unknown>,
  compile: (values: readonly unknown[]) => Promise<CompiledQuery>,
  options: { readonly everyValue?: boolean } = {},
): Promise<CompiledQuery | undefined> {
  let byKey = templates.get(resource);
  if (!byKey) {
    byKey = new Map();
    templates.set(resource, byKey);
  }
  const key = `${view}\u0000${shape.key}`;
  let template = byKey.get(key);
  if (template === undefined) {
    if (byKey.size >= MAX_WRITE_SHAPES) return undefined;
    template = await shapeTemplate(shape, compile, options.everyValue ?? true);
    byKey.set(key, template);
  }
  if (template === null) return undefined;
  return filled(template, shape.values);
}

/** Compiles a shape's statement with markers, and checks it against the same statement compiled with the write's values. */
async function shapeTemplate(shape: WriteShape<unknown>, compile: (values: readonly unknown[]) => Promise<CompiledQuery>, everyValue: boolean): Promise<WriteTemplate> {
  const markers = markersFor(shape.values);
  let compiled: CompiledQuery;
  try {
    compiled = await compile(markers);
  } catch {
    return null; // a check that cannot take a marker for its value
  }
  const template = templateOf(compiled, markers);
  if (everyValue && !takesEveryValue(template, markers.length)) return null;
  return sameStatement(await compile(shape.values), filled(template, shape.values)) ? template : null;
}

/** Runs a compiled write on `db`: its first row. */
export async function executeCompiledWrite(db: Kysely<any>, query: CompiledQuery): Promise<Record<string, unknown> | undefined> {
  return (await db.executeQuery(query)).rows[0] as Record<string, unknown> | undefined;
}
