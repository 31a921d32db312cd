import { CompiledQuery } from 'kysely';

/** The two statements of an index page besides its view's select: the page's ids and the count. */
export interface ListStatements {
  readonly ids: CompiledQuery;
  readonly count: CompiledQuery;
}

/** A statement compiled for a shape: its text, its parameters, and where each of a list's values goes among them (-1: a parameter of its own). */
interface Template {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  readonly slots: readonly number[];
}

/** Both statements' templates, or null for a shape whose statements are not its values as parameters (then built per request). */
type ListTemplate = { readonly ids: Template; readonly count: Template } | null;

/**
 * The most list shapes kept per records layer. A shape is the set of filters and operators a
 * client sends with a sort, so a client could otherwise grow the cache without bound; past this
 * many, a new shape is built per request, as before, and nothing more is kept.
 */
export const MAX_LIST_SHAPES = 256;

/**
 * The ids' and count's statements of lists narrowed only by filters whose SQL is fixed by their
 * shape (`whereShape`): built and compiled once per shape with markers in place of the values,
 * then filled with each request's values, as writes are (`write-statements.ts`). A shape is kept
 * only when its statements take every value as a parameter and, filled with the first
 * request's values, are exactly what that request builds itself.
 */
export class ListTemplates {
  readonly #templates = new Map<string, ListTemplate>();

  /**
   * The statements of the shape `key` with `values`, or undefined when the shape has none (its
   * SQL depends on a value) or the cache is full. `compile` builds both with the values it is
   * given: markers once, then the request's own, to check them.
   */
  statements(key: string, values: readonly unknown[], compile: (values: readonly unknown[]) => ListStatements): ListStatements | undefined {
    let template = this.#templates.get(key);
    if (template === undefined) {
      if (this.#templates.size >= MAX_LIST_SHAPES) return undefined;
      template = templateOf(values, compile);
      this.#templates.set(key, template);
    }
    return template === null ? undefined : { ids: filled(template.ids, values), count: filled(template.count, values) };
  }

  /** How many shapes are kept (bounded by `MAX_LIST_SHAPES`), and how many of them have statements (the others are built per request). */
  get shapes(): { readonly kept: number; readonly compiled: number } {
    let compiled = 0;
    for (const template of this.#templates.values()) if (template !== null) compiled += 1;
    return { kept: this.#templates.size, compiled };
  }
}

function templateOf(values: readonly unknown[], compile: (values: readonly unknown[]) => ListStatements): ListTemplate {
  const markers = values.map((_, i) => Symbol(`value ${i}`));
  let marked: ListStatements;
  try {
    marked = compile(markers);
  } catch {
    return null; // a condition that cannot take a marker for its value
  }
  const at = new Map<unknown, number>(markers.map((marker, i) => [marker, i]));
  const slotted = (query: CompiledQuery): Template => ({ sql: query.sql, parameters: query.parameters, slots: query.parameters.map((parameter) => at.get(parameter) ?? -1) });
  const template = { ids: slotted(marked.ids), count: slotted(marked.count) };
  if (!markers.every((_, i) => template.ids.slots.includes(i))) return null;
  const own = compile(values);
  return same(own.ids, filled(template.ids, values)) && same(own.count, filled(template.count, values)) ? template : null;
}

function filled(template: Template, values: readonly unknown[]): CompiledQuery {
  const { sql, parameters, slots } = template;
  return CompiledQuery.raw(sql, parameters.map((parameter, i) => (slots[i]! >= 0 ? values[slots[i]!] : parameter)));
}

function same(a: CompiledQuery, b: CompiledQuery): boolean {
  return a.sql === b.sql && a.parameters.length === b.parameters.length && a.parameters.every((parameter, i) => Object.is(parameter, b.parameters[i]));
}
