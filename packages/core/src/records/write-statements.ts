import { CompiledQuery, type Kysely } from 'kysely';
import type { CompiledResource } from '../resources/compiled-types.js';
import type { View } from '../fields/field-types.js';

/**
 * A write whose statement depends only on its shape, not on its values: the kind of write, the
 * columns it sets (in order) and the view it reads back. `values` fill its parameters in order
 * (for an update, the id last); `builder` builds the same statement with `markers[i]` in place
 * of `values[i]`.
 */
export interface WriteShape<Builder> {
  readonly key: string;
  readonly values: readonly unknown[];
  readonly builder: (markers: readonly unknown[]) => Builder;
}

/** A statement compiled once, and where each of a write's values goes among its parameters (-1: a value of the statement's own). */
type WriteTemplate = {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  readonly slots: readonly number[];
} | null;

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
 * text compiled once per resource, view and shape (`compile` builds it from the shape's builder,
 * given markers), as show's find statement is. The caller checks that the statement depends on
 * nothing but the shape (no per-request scope, check or association rule in it). Undefined
 * when the statement does not take each value as a parameter: then the write builds its own.
 */
export function compiledWrite<Builder>(resource: CompiledResource, view: View, shape: WriteShape<Builder>, compile: (builder: Builder) => CompiledQuery): CompiledQuery | undefined {
  let byKey = templates.get(resource);
  if (!byKey) {
    byKey = new Map();
    templates.set(resource, byKey);
  }
  const key = `${view}\u0000${shape.key}`;
  let template = byKey.get(key);
  if (template === undefined) {
    if (byKey.size >= MAX_WRITE_SHAPES) return undefined;
    const markers = shape.values.map((_, i) => Symbol(`value ${i}`));
    const compiled = compile(shape.builder(markers));
    const at = new Map<unknown, number>(markers.map((marker, i) => [marker, i]));
    const slots = compiled.parameters.map((parameter) => at.get(parameter) ?? -1);
    template = markers.every((_, i) => slots.includes(i)) ? { sql: compiled.sql, parameters: compiled.parameters, slots } : null;
    byKey.set(key, template);
  }
  if (template === null) return undefined;
  const { sql, parameters, slots } = template;
  return CompiledQuery.raw(sql, parameters.map((parameter, i) => (slots[i]! >= 0 ? shape.values[slots[i]!] : parameter)));
}

/** Runs a compiled write on `db`: its first row. */
export async function executeCompiledWrite(db: Kysely<any>, query: CompiledQuery): Promise<Record<string, unknown> | undefined> {
  return (await db.executeQuery(query)).rows[0] as Record<string, unknown> | undefined;
}
