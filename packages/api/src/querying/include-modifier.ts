import type { CompiledField, CompiledResource, JsonSchema } from '@panel/core';
import { includeRequest, isIncludeKey, MAX_INCLUDE_PER_PAGE } from './include-params.js';
import type { ListModifier, ListRequestContext, ParameterContext, QueryParameter } from './list-modifier.js';
import { PER_PAGE_COOKIE, pageRequest } from './page-modifier.js';
import { shown } from './query-values.js';
import { publicTargetOmits } from '../controller/request-gate.js';

/** Whether an association field may be named in `include` at all (as declared: its type embeds records and it is not `includable: false`). */
export function includableAssociation(field: CompiledField): boolean {
  return field.kind.association?.include !== undefined && field.target !== undefined && field.definition.options.includable !== false;
}

/** The most records of the root one answer holds: 1 for one record, else the page size this request asks for (as the page modifier reads it). */
function rootRows(request: ListRequestContext): number {
  if (request.view === 'show' || request.config === undefined) return 1;
  try {
    return pageRequest(request.sent ?? request.query, request.cookies?.[PER_PAGE_COOKIE], request.config, request.defaults).perPage;
  } catch {
    // The page modifier names a bad `per_page`; the cost is then counted at the largest page.
    return request.config.maxPerPage;
  }
}

/**
 * `include` as a list modifier, on lists and on one record: the association paths to embed and
 * their options (`includeRequest`), resolved against the graph this request's actor sees (an
 * association it may not include is answered exactly like one that does not exist) and costed
 * for the page size before any data statement. With `fields=`, each first-level path must be
 * one of the fields (the association's value is where its records go).
 */
export const includeModifier: ListModifier = {
  name: 'include',
  onShow: true,
  read(request) {
    const { values, includeGraph, resource } = request;
    if (![...values.keys()].some(isIncludeKey)) return { problems: [] };
    if (!includeGraph) return { problems: ['include is not served here'] };
    const include = includeRequest({ resource, view: request.view ?? 'index', values, graph: includeGraph, rootRows: rootRows(request) });
    if (include.problems.length > 0) return { problems: include.problems };
    const fields = values.get('fields')?.flatMap((value) => value.split(','));
    if (fields !== undefined) {
      const missing = include.paths.filter((path) => path.parentPath === undefined && !fields.includes(path.field.name));
      if (missing.length > 0) return { problems: missing.map((path) => `include: ${shown(path.path)} is not among fields (add it to fields, or leave fields out)`) };
    }
    return { problems: [], include };
  },
  parameters(context) {
    return includeParameters(context);
  },
};

/**
 * The includable paths from `resource`'s fields `fields`, down to the resource's `maxDepth`;
 * `resolve` answers undefined for a target the API does not serve; `showFields` gives a
 * target's show fields a nested path may follow (as declared, or those one actor reads).
 */
export function includablePaths(resource: CompiledResource, fields: readonly CompiledField[], resolve: (name: string) => CompiledResource | undefined, showFields: (target: CompiledResource) => readonly CompiledField[] = (target) => target.fieldsOn('show'), depth = resource.include.maxDepth, prefix = ''): { path: string; field: CompiledField; target: CompiledResource }[] {
  if (depth < 1) return [];
  return fields.filter(includableAssociation).flatMap((field) => {
    const target = resolve(field.target!);
    if (target === undefined) return [];
    const path = `${prefix}${field.name}`;
    return [{ path, field, target }, ...includablePaths(target, showFields(target), resolve, showFields, depth - 1, `${path}.`)];
  });
}

/** `include` (an enum of the includable paths) and, per path, `include_fields[…]` and a to-many path's page size and order. */
function includeParameters(context: ParameterContext): QueryParameter[] {
  const { resource, fields, resolve, queryableOf, guarded = new Set<string>() } = context;
  if (resolve === undefined) return [];
  // As one actor: a target's fields as the API's include graph reads them for it (`queryableFields`), else as declared; a public target's, without its associations to guarded resources.
  const selectable = (target: CompiledResource) => (queryableOf ? queryableOf(target, 'show').read : target.fieldsOn('show')).filter((field) => !publicTargetOmits(guarded, target, field));
  const sortableOf = (target: CompiledResource) => (queryableOf ? queryableOf(target, 'index').sort : target.fieldsOn('index')).filter((f) => f.sortable);
  const paths = includablePaths(resource, fields, resolve, selectable);
  if (paths.length === 0) return [];
  const parameters: QueryParameter[] = [
    {
      name: 'include',
      description: 'Associated records to embed, by association path (`author`, `comments.user`): a to-one value gains `record`, a to-many value `records`, `has_more` and `next`. A path implies its prefixes.',
      style: 'form',
      explode: false,
      // At most the paths the server takes (`include.maxPaths`, counted with their prefixes): a longer list is its 400.
      schema: { type: 'array', items: { type: 'string', enum: paths.map((p) => p.path) }, minItems: 1, uniqueItems: true, maxItems: Math.min(paths.length, resource.include.maxPaths) },
    },
  ];
  for (const { path, field, target } of paths) {
    const names = selectable(target).map((f) => f.name);
    parameters.push({ name: `include_fields[${path}]`, description: `The fields of each embedded ${target.naming.routeKey} record of \`${path}\` (default: its index fields).`, style: 'form', explode: false, schema: { type: 'array', items: { type: 'string', enum: names }, minItems: 1 } });
    if (field.kind.association!.include!.kind !== 'many') continue;
    const sortable = sortableOf(target).map((f) => f.name);
    parameters.push({ name: `include_per_page[${path}]`, description: `Records of \`${path}\` per parent (then \`has_more\` and \`next\`).`, schema: { type: 'integer', minimum: 1, maximum: MAX_INCLUDE_PER_PAGE, default: resource.include.perPage } });
    if (sortable.length > 0) parameters.push({ name: `include_sort_by[${path}]`, description: `The order of \`${path}\` (then the id).`, schema: { type: 'string', enum: sortable } satisfies JsonSchema });
    parameters.push({ name: `include_sort_direction[${path}]`, description: `The direction of \`include_sort_by[${path}]\`.`, schema: { type: 'string', enum: ['asc', 'desc'] } });
  }
  return parameters;
}
