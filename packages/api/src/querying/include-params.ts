import type { CompiledField, CompiledResource, IncludeLimits, RecordsSort, View } from '@panel/core';
import { shown } from './query-values.js';

/**
 * The resource graph as one request's actor sees it, which `include` is resolved against: an
 * association it may not include (hidden, not on the view, ungranted in Edition B, declared
 * not includable, or a target no controller serves) is absent here, and so answered exactly
 * like a name that does not exist.
 */
export interface IncludeGraph {
  /** The association fields of `resource` on `view` this actor may include, in declaration order. */
  includable(resource: CompiledResource, view: View): readonly CompiledField[];
  /** The fields of `resource` that `include_fields[…]` may name: those the actor reads on every record of its show view. */
  selectable(resource: CompiledResource): readonly CompiledField[];
  /** The fields an included record of `resource` carries without `include_fields[…]`: its index fields the actor reads (on show). */
  defaults(resource: CompiledResource): readonly CompiledField[];
  /** The fields `include_sort_by[…]` may name on `resource`: those its list may be sorted by for this actor. */
  sortable(resource: CompiledResource): readonly CompiledField[];
  /** A resource by name. */
  resource(name: string): CompiledResource;
}

/** The most records of a to-many path per parent (`include_per_page` takes 1 to this). */
export const MAX_INCLUDE_PER_PAGE = 20;

/** One included association path, resolved and checked. */
export interface IncludePath {
  /** As written in `include` (`comments.user`). */
  readonly path: string;
  /** The path it hangs from (`comments` for `comments.user`); undefined at the first level. */
  readonly parentPath: string | undefined;
  /** The association, a field of `parent`. */
  readonly field: CompiledField;
  readonly parent: CompiledResource;
  readonly target: CompiledResource;
  /** Whether the association is to-many (a page per parent) or to-one (a record or null). */
  readonly many: boolean;
  /** The target's fields to load and answer: `include_fields[…]` or the defaults, the primary key, and the associations its own paths include. */
  readonly fields: ReadonlySet<string>;
  /** To-many: the records per parent. */
  readonly perPage: number;
  /** To-many: the order (`include_sort_by`, `include_sort_direction`); undefined for the target's own. */
  readonly sort: RecordsSort | undefined;
}

/** What a request's `include` parameters ask for, checked. */
export interface IncludeRequest {
  /** Every path, each after the path it hangs from; empty without `include`. */
  readonly paths: readonly IncludePath[];
  /** The most records the paths may embed for `rootRows` parents (the `Include-Cost` header). */
  readonly cost: number;
  /** Every problem, each naming its parameter, for the one 400. */
  readonly problems: readonly string[];
}

/** `include_<option>[<path>]`. */
const OPTION_KEY = /^include_(fields|per_page|sort_by|sort_direction)\[([^[\]]+)\]$/;

/** Whether a query-string key belongs to `include` (every key that starts with `include`, so that a misspelt one is refused, never ignored). */
export function isIncludeKey(key: string): boolean {
  // `include_total` is cursor pagination's, bracketed or not.
  return key.startsWith('include') && key !== 'include_total' && !key.startsWith('include_total[');
}

/** A comma-separated parameter's names (a repeated parameter's values too). */
const namesOf = (raw: readonly string[]): string[] => raw.flatMap((value) => value.split(','));

/** The written paths and each one's prefixes, parents first, in the order they were written. */
function expand(written: readonly string[]): string[] {
  const paths: string[] = [];
  for (const path of written) {
    const segments = path.split('.');
    for (let depth = 1; depth <= segments.length; depth += 1) {
      const prefix = segments.slice(0, depth).join('.');
      if (!paths.includes(prefix)) paths.push(prefix);
    }
  }
  return paths;
}

/**
 * Reads `include`, `include_fields[<path>]`, `include_per_page[<path>]`,
 * `include_sort_by[<path>]` and `include_sort_direction[<path>]` against the graph this actor
 * sees: every path resolved from `resource` on `view` (index for lists, show for one record),
 * each level from the last one's show view; every problem collected (unknown or unreadable
 * names are answered alike). `rootRows` is the most records of the root (the page size, or 1),
 * for the cost: Σ over paths of `rootRows × Π per-page` along the path (a to-one level counts
 * 1), refused over the root resource's `include.maxEmbedded` before any data statement.
 */
export function includeRequest(input: { resource: CompiledResource; view: View; values: ReadonlyMap<string, readonly string[]>; graph: IncludeGraph; rootRows: number }): IncludeRequest {
  const { resource, view, values, graph, rootRows } = input;
  const limits: IncludeLimits = resource.include;
  const problems: string[] = [];
  const raw = values.get('include');
  const options = [...values].filter(([key]) => isIncludeKey(key) && key !== 'include');
  if (raw === undefined) {
    for (const [key] of options) problems.push(`${key}: there is no include`);
    return { paths: [], cost: 0, problems };
  }
  const written = [...new Set(namesOf(raw))];
  if (written.length === 0 || written.some((path) => path === '')) {
    problems.push('include must list association paths, comma-separated (include=author,comments.user)');
    return { paths: [], cost: 0, problems };
  }
  for (const path of written) {
    const depth = path.split('.').length;
    if (path.split('.').some((segment) => segment === '')) problems.push(`include: ${shown(path)} is not a path (write association names joined by ".")`);
    else if (depth > limits.maxDepth) problems.push(`include: ${shown(path)} is ${depth} levels deep; at most ${limits.maxDepth}`);
  }
  if (problems.length > 0) return { paths: [], cost: 0, problems };
  const expanded = expand(written);
  if (expanded.length > limits.maxPaths) {
    return { paths: [], cost: 0, problems: [`include names ${expanded.length} paths with their prefixes (${expanded.join(', ')}); at most ${limits.maxPaths}`] };
  }
  // Resolve every path, parents first; a path under an unresolved one is not looked at.
  const resolved = new Map<string, { field: CompiledField; parent: CompiledResource; target: CompiledResource }>();
  for (const path of expanded) {
    const dot = path.lastIndexOf('.');
    const parentPath = dot < 0 ? undefined : path.slice(0, dot);
    const name = path.slice(dot + 1);
    if (parentPath !== undefined && !resolved.has(parentPath)) continue;
    const parent = parentPath === undefined ? resource : resolved.get(parentPath)!.target;
    const includable = graph.includable(parent, parentPath === undefined ? view : 'show');
    const field = includable.find((candidate) => candidate.name === name);
    if (!field) {
      const where = parentPath === undefined ? '' : ` (in ${shown(path)})`;
      problems.push(`include: ${parent.naming.routeKey} has no includable association ${shown(name)}${where} (includable: ${includable.map((f) => f.name).join(', ') || 'none'})`);
      continue;
    }
    resolved.set(path, { field, parent, target: graph.resource(field.target!) });
  }
  const optionsOf = new Map<string, Map<string, readonly string[]>>();
  for (const [key, value] of options) {
    const match = OPTION_KEY.exec(key);
    if (!match) {
      problems.push(`${shown(key)} is not an include parameter: write include_fields[<path>], include_per_page[<path>], include_sort_by[<path>] or include_sort_direction[<path>]`);
      continue;
    }
    const [, option, path] = match as unknown as [string, string, string];
    // A path not included, or one that did not resolve, is answered alike.
    if (!expanded.includes(path)) {
      problems.push(`${key}: ${shown(path)} is not one of the included paths (${expanded.join(', ')})`);
      continue;
    }
    if (!resolved.has(path)) continue;
    if (value.length > 1 && option !== 'fields') {
      problems.push(`${key} takes one value, instead got ${value.length}`);
      continue;
    }
    const own = optionsOf.get(path) ?? new Map<string, readonly string[]>();
    own.set(option, value);
    optionsOf.set(path, own);
  }
  const paths: IncludePath[] = [];
  for (const path of expanded) {
    const found = resolved.get(path);
    if (!found) continue;
    const { field, parent, target } = found;
    const many = field.kind.association!.include!.kind === 'many';
    const own = optionsOf.get(path) ?? new Map<string, readonly string[]>();
    const children = expanded.filter((other) => other.startsWith(`${path}.`) && !other.slice(path.length + 1).includes('.')).map((child) => child.slice(path.length + 1));
    const fields = includedFields(path, target, own.get('fields'), children, graph, problems);
    let perPage = limits.perPage;
    let sort: RecordsSort | undefined;
    if (!many) {
      for (const option of ['per_page', 'sort_by', 'sort_direction']) {
        if (own.has(option)) problems.push(`include_${option}[${path}]: ${path} is a to-one association (one record or null); only a to-many path takes include_${option}`);
      }
    } else {
      const given = own.get('per_page')?.[0];
      if (given !== undefined) {
        if (/^\d{1,2}$/.test(given) && Number(given) >= 1 && Number(given) <= MAX_INCLUDE_PER_PAGE) perPage = Number(given);
        else problems.push(`include_per_page[${path}] must be an integer from 1 to ${MAX_INCLUDE_PER_PAGE}, instead got ${shown(given)}`);
      }
      sort = includedSort(path, target, own.get('sort_by')?.[0], own.get('sort_direction')?.[0], graph, problems);
    }
    paths.push({ path, parentPath: path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : undefined, field, parent, target, many, fields, perPage, sort });
  }
  const cost = includeCost(paths, rootRows);
  if (problems.length === 0 && cost > limits.maxEmbedded) {
    problems.push(`include would embed up to ${cost} records (${paths.map((p) => `${p.path}: ${pathCost(paths, p, rootRows)}`).join(', ')}); at most ${limits.maxEmbedded}: ask for fewer records per page (per_page, include_per_page[…]) or fewer paths`);
  }
  return { paths, cost, problems };
}

/** The target's fields an included path answers: the ones asked for (checked), or the defaults; the primary key; the associations its own paths include. */
function includedFields(path: string, target: CompiledResource, asked: readonly string[] | undefined, children: readonly string[], graph: IncludeGraph, problems: string[]): ReadonlySet<string> {
  const key = `include_fields[${path}]`;
  let names: string[];
  if (asked === undefined) names = graph.defaults(target).map((field) => field.name);
  else {
    names = namesOf(asked).filter((name) => name !== '');
    const selectable = graph.selectable(target).map((field) => field.name);
    if (names.length === 0) problems.push(`${key} must list at least one field`);
    for (const name of new Set(names)) {
      // A hidden or unreadable field gets exactly the answer of an unknown one.
      if (!selectable.includes(name)) problems.push(`${key}: ${target.naming.routeKey} has no field ${shown(name)} here (fields: ${selectable.join(', ')})`);
    }
  }
  const fields = new Set([...names, ...children]);
  for (const field of target.fields) if (field.column === target.primaryKey) fields.add(field.name);
  return fields;
}

/** A to-many path's order: `include_sort_by` among the fields this actor may sort the target by, `include_sort_direction` asc or desc. */
function includedSort(path: string, target: CompiledResource, sortBy: string | undefined, direction: string | undefined, graph: IncludeGraph, problems: string[]): RecordsSort | undefined {
  const sortable = graph.sortable(target).filter((field) => field.sortable);
  const field = sortBy === undefined ? undefined : sortable.find((candidate) => candidate.name === sortBy);
  if (sortBy !== undefined && !field) problems.push(`include_sort_by[${path}] must be one of ${sortable.map((f) => f.name).join(', ')}, instead got ${shown(sortBy)}`);
  if (direction !== undefined && direction !== 'asc' && direction !== 'desc') problems.push(`include_sort_direction[${path}] must be "asc" or "desc", instead got ${shown(direction)}`);
  const checked = direction === 'asc' || direction === 'desc' ? direction : undefined;
  if (field) return { column: field.column!, direction: checked ?? 'asc' };
  return checked === undefined ? undefined : { column: target.defaultOrder.column, direction: checked };
}

/** The most records one path embeds: the root's rows times the per-page of every to-many level down to it. */
function pathCost(paths: readonly IncludePath[], path: IncludePath, rootRows: number): number {
  let cost = rootRows;
  for (let at: IncludePath | undefined = path; at; at = paths.find((p) => p.path === at!.parentPath)) cost *= at.many ? at.perPage : 1;
  return cost;
}

/** Σ over paths of `pathCost`. */
export function includeCost(paths: readonly IncludePath[], rootRows: number): number {
  return paths.reduce((sum, path) => sum + pathCost(paths, path, rootRows), 0);
}
