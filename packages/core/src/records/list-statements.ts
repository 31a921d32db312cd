import type { CompiledQuery } from 'kysely';
import { filled, markersFor, sameStatement, takesEveryValue, templateOf, type StatementTemplate } from './statement-templates.js';

/** The two statements of an index page besides its view's select: the page's ids and the count. */
export interface ListStatements {
  readonly ids: CompiledQuery;
  readonly count: CompiledQuery;
}

/** Both statements' templates, or null for a shape whose statements are not its values as parameters (then built per request). */
type ListTemplate = { readonly ids: StatementTemplate; readonly count: StatementTemplate } | null;

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
      template = listTemplate(values, compile);
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

function listTemplate(values: readonly unknown[], compile: (values: readonly unknown[]) => ListStatements): ListTemplate {
  const markers = markersFor(values);
  let marked: ListStatements;
  try {
    marked = compile(markers);
  } catch {
    return null; // a condition that cannot take a marker for its value
  }
  const template = { ids: templateOf(marked.ids, markers), count: templateOf(marked.count, markers) };
  if (!takesEveryValue(template.ids, markers.length)) return null;
  const own = compile(values);
  return sameStatement(own.ids, filled(template.ids, values)) && sameStatement(own.count, filled(template.count, values)) ? template : null;
}
