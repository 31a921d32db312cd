import type { CompiledResource } from '@panel/core';
import type { ListModifier, QueryParameter } from './list-modifier.js';
import type { QueryableFields } from './queryable-fields.js';
import { bracketedSpellings, shown } from './query-values.js';

/**
 * `fields=<field>,<field>` (or the parameter repeated): a sparse fieldset. Each name is a field
 * the request reads on its view (`queryable.read`); the records then carry `id` and exactly
 * those fields, and the work of the others (association subqueries, file lookups) is not done.
 * Returns the field names to load (with the primary key's), or every problem found.
 */
export function fieldsetRequest(values: ReadonlyMap<string, readonly string[]>, queryable: QueryableFields, resource: CompiledResource): { fields?: ReadonlySet<string>; problems: string[] } {
  const raw = values.get('fields');
  if (raw === undefined) return { problems: [] };
  const names = raw.flatMap((value) => value.split(',')).filter((name) => name !== '');
  if (names.length === 0) return { problems: ['fields must list at least one field'] };
  const readable = new Set(queryable.read.map((field) => field.name));
  const unknown = [...new Set(names.filter((name) => !readable.has(name)))];
  if (unknown.length > 0) {
    // A hidden or unreadable field gets exactly the answer of an unknown one.
    return { problems: unknown.map((name) => `fields: ${resource.naming.routeKey} has no field ${shown(name)} here (fields: ${[...readable].join(', ')})`) };
  }
  const fields = new Set(names);
  for (const field of queryable.read) if (field.column === resource.primaryKey) fields.add(field.name);
  return { fields, problems: [] };
}

/** The parameter `fields`: an array of the view's field names, comma-separated. */
export function fieldsetParameters(queryable: QueryableFields): QueryParameter[] {
  const names = queryable.read.map((field) => field.name);
  return [
    {
      name: 'fields',
      description: 'A sparse fieldset: the records carry `id` and exactly these fields (the schema\'s other properties are absent).',
      style: 'form',
      explode: false,
      schema: { type: 'array', items: { type: 'string', enum: names }, minItems: 1, uniqueItems: true },
    },
  ];
}

/** The sparse fieldset as a list modifier: `fields`, on lists and on one record (show). */
export const fieldsetModifier: ListModifier = {
  name: 'fields',
  onShow: true,
  parameters: ({ queryable }) => fieldsetParameters(queryable),
  read: ({ values, queryable, resource }) => {
    const misspelt = bracketedSpellings(values, ['fields']);
    return misspelt.length > 0 ? { problems: misspelt } : fieldsetRequest(values, queryable, resource);
  },
};
