import type { CompiledField, CompiledResource, RecordsSort } from '@panel/core';
import { BadRequestError } from '../errors/api-errors.js';
import type { ListModifier } from './list-modifier.js';
import { bracketedSpellings } from './query-values.js';

/**
 * `sort_by` (a sortable field among `fields`: the index fields this actor reads on every
 * record, `FieldAccess.queryable('index')`) and `sort_direction` (`asc` or `desc`, default
 * `asc`; alone, it applies to the resource's default order column). Both are checked against a
 * whitelist; neither ever reaches SQL as text. A field a rule hides is refused exactly like an
 * unknown one (the message lists only the fields this actor may sort by).
 */
export function sortRequest(resource: CompiledResource, query: Readonly<Record<string, unknown>>, fields: readonly CompiledField[]): RecordsSort | undefined {
  const { sort_by: sortBy, sort_direction: direction } = query;
  const sortable = fields.filter((f) => f.sortable);
  const field = typeof sortBy === 'string' ? sortable.find((f) => f.name === sortBy) : undefined;
  // Every mistake at once (`sort_by=nope&sort_direction=sideways` names both), sort_by first.
  const problems: string[] = [];
  if (sortBy !== undefined && !field) {
    problems.push(`sort_by must be one of ${sortable.map((f) => f.name).join(', ')}, instead got ${Array.isArray(sortBy) ? 'several values' : JSON.stringify(sortBy)}`);
  }
  if (direction !== undefined && direction !== 'asc' && direction !== 'desc') {
    problems.push(`sort_direction must be "asc" or "desc", instead got ${Array.isArray(direction) ? 'several values' : JSON.stringify(direction)}`);
  }
  if (problems.length > 0) throw new BadRequestError(problems.join('; '));
  const checked = direction as 'asc' | 'desc' | undefined;
  // sort_direction alone turns the resource's default order around.
  if (field === undefined) return checked === undefined ? undefined : { column: resource.defaultOrder.column, direction: checked };
  return { column: field.column!, direction: checked ?? 'asc' };
}

/** How a list is ordered without `sort_by`: the resource's default order, then the id. */
export function defaultOrder(resource: CompiledResource): string {
  const { column, direction } = resource.defaultOrder;
  const by = `\`${column}\` ${direction === 'desc' ? 'descending' : 'ascending'}`;
  return column === resource.primaryKey ? by : `${by}, then \`${resource.primaryKey}\``;
}

/**
 * The order as a list modifier: `sort_by` (only on a list with a sortable field) and
 * `sort_direction`, read against the fields this actor may sort by (`queryable.sort`).
 */
export const sortModifier: ListModifier = {
  name: 'sort',
  logged: ['sort_by', 'sort_direction'],
  read({ resource, query, queryable, values }) {
    const misspelt = bracketedSpellings(values, ['sort_by', 'sort_direction']);
    if (misspelt.length > 0) return { problems: misspelt };
    try {
      return { problems: [], sort: sortRequest(resource, query, queryable.sort) };
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'PANEL_API_ERR_BAD_REQUEST') throw error;
      return { problems: [(error as Error).message] };
    }
  },
  parameters({ resource, queryable }) {
    // The fields this actor may sort by: as declared for the document every actor reads, or one actor's.
    const sortable = queryable.sort.map((field) => field.name);
    return [
      ...(sortable.length > 0 ? [{ name: 'sort_by', description: `The field to sort by (then the id, so pages are stable). Without it, records are ordered by ${defaultOrder(resource)}.`, schema: { type: 'string', enum: sortable } }] : []),
      { name: 'sort_direction', description: 'The direction of `sort_by`.', schema: { type: 'string', enum: ['asc', 'desc'], default: 'asc' } },
    ];
  },
};
