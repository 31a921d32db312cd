import type { CompiledQuery } from 'kysely';

/**
 * A statement compiled once for a shape, with markers in place of its values: its text, its
 * parameters, and where each value goes among them (-1: a parameter of its own). Writes,
 * lists and finds keep theirs in the statement cache (`statement-cache.ts`), and fill them per request.
 */
export interface StatementTemplate {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  readonly slots: readonly number[];
  /** The compiled statement's operation node and query id, which every filled statement shares (no plugin reads them apart). */
  readonly query: CompiledQuery['query'];
  readonly queryId: CompiledQuery['queryId'];
}

/** One marker per value: a symbol no value equals, so that each becomes a parameter of its own. */
export function markersFor(values: readonly unknown[]): symbol[] {
  return values.map((_, i) => Symbol(`value ${i}`));
}

/** The template of a statement compiled with `markers` in place of the values. */
export function templateOf(compiled: CompiledQuery, markers: readonly symbol[]): StatementTemplate {
  const at = new Map<unknown, number>(markers.map((marker, i) => [marker, i]));
  return { sql: compiled.sql, parameters: compiled.parameters, slots: compiled.parameters.map((parameter) => at.get(parameter) ?? -1), query: compiled.query, queryId: compiled.queryId };
}

/**
 * The template's statement with `values` in their places. Built as a plain object: Kysely's
 * `CompiledQuery.raw` makes a raw node, a random query id and three frozen objects per call,
 * which was most of what filling cost on every request.
 */
export function filled(template: StatementTemplate, values: readonly unknown[]): CompiledQuery {
  const { sql, parameters, slots, query, queryId } = template;
  const filledParameters = new Array<unknown>(parameters.length);
  for (let i = 0; i < parameters.length; i += 1) filledParameters[i] = slots[i]! >= 0 ? values[slots[i]!] : parameters[i];
  return { sql, parameters: filledParameters, query, queryId };
}

/** Whether two statements have the same text and the same parameters (`Object.is`, so a Date must be the same Date). */
export function sameStatement(a: CompiledQuery, b: CompiledQuery): boolean {
  return a.sql === b.sql && a.parameters.length === b.parameters.length && a.parameters.every((parameter, i) => Object.is(parameter, b.parameters[i]));
}
