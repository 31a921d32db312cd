import { FILTER_OPERATORS, recordsWhere, type CompiledField, type FilterOperator, type RecordFilter } from '@panel/core';
import type { ListModifier, QueryParameter } from './list-modifier.js';
import type { QueryableFields } from './queryable-fields.js';
import { shown } from './query-values.js';

/** The most values one `in` list takes. */
export const MAX_IN_VALUES = 100;

/** `filter[<field>]` or `filter[<field>][<operator>]`, nothing else. */
const FILTER_KEY = /^filter\[([^[\]]+)\](?:\[([^[\]]+)\])?$/;

/** Whether a query-string key belongs to the filters (every key that starts with `filter`, so that a misspelt one is refused, never ignored). */
export function isFilterKey(key: string): boolean {
  return key.startsWith('filter');
}

/** The values of an `in` filter: one parameter is a comma-separated list; a repeated parameter gives one value per parameter. */
function inValues(raw: readonly string[]): string[] {
  return raw.length === 1 ? raw[0]!.split(',') : [...raw];
}

/** One filter parameter → its checked filter, or the problems with it (every one of them). */
function parseFilter(key: string, raw: readonly string[], queryable: QueryableFields, routeKey: string): { filter?: RecordFilter; problems: string[] } {
  const match = FILTER_KEY.exec(key);
  if (!match) return { problems: [`${shown(key)} is not a filter: write filter[<field>]=<value> or filter[<field>][<operator>]=<value>`] };
  const [, name, given] = match as unknown as [string, string, string | undefined];
  const field = queryable.filter.get(name);
  // A hidden, unreadable or unfilterable field gets exactly the answer of an unknown one.
  if (!field) return { problems: [`filter[${name}]: ${routeKey} has no filterable field ${shown(name)} (filterable: ${[...queryable.filter.keys()].join(', ') || 'none'})`] };
  const spec = field.kind.filter!;
  const operator = (given ?? 'eq') as FilterOperator;
  if (!FILTER_OPERATORS.includes(operator) || !spec.operators.includes(operator)) {
    return { problems: [`${key}: ${shown(operator)} is not an operator of ${name} (operators: ${spec.operators.join(', ')})`] };
  }
  if (operator !== 'in' && raw.length > 1) return { problems: [`${key} takes one value, instead got ${raw.length}`] };
  if (operator === 'null') {
    const value = raw[0]!;
    return value === 'true' || value === 'false' ? { filter: { field, operator, value: value === 'true' }, problems: [] } : { problems: [`${key} must be true or false, instead got ${shown(value)}`] };
  }
  const texts = operator === 'in' ? inValues(raw) : [raw[0]!];
  if (operator === 'in' && texts.every((text) => text === '')) return { problems: [`${key} must list at least one value`] };
  if (texts.length > MAX_IN_VALUES) return { problems: [`${key} takes at most ${MAX_IN_VALUES} values, instead got ${texts.length}`] };
  const values: unknown[] = [];
  const problems: string[] = [];
  for (const text of texts) {
    const parsed = spec.parse(text, field);
    if (parsed.ok) values.push(parsed.value);
    else problems.push(`${key} ${parsed.message}, instead got ${shown(text)}`);
  }
  if (problems.length > 0) return { problems };
  return { filter: { field, operator, value: operator === 'in' ? values : values[0] }, problems: [] };
}

/**
 * `filter[<field>]=<value>` (equality) and `filter[<field>][<operator>]=<value>`, all ANDed:
 * each field one of `queryable.filter` (its key: `author_id` for a `belongs_to`), each
 * operator one of its type's, each value parsed by the type's own rules. Returns the checked
 * filters and every problem found (the caller answers them in one 400).
 */
export function filterRequest(values: ReadonlyMap<string, readonly string[]>, queryable: QueryableFields, routeKey: string): { filters: RecordFilter[]; problems: string[] } {
  const filters: RecordFilter[] = [];
  const problems: string[] = [];
  for (const [key, raw] of values) {
    if (!isFilterKey(key)) continue;
    const parsed = parseFilter(key, raw, queryable, routeKey);
    if (parsed.filter) filters.push(parsed.filter);
    problems.push(...parsed.problems);
  }
  return { filters, problems };
}

/** The query parameter of one filter: its literal name and the schema of its value (`in` an array, comma-separated; `null` a boolean). */
function filterParameter(key: string, field: CompiledField, operator: FilterOperator | undefined): QueryParameter {
  const value = field.kind.filter!.schema(field);
  const name = operator === undefined ? `filter[${key}]` : `filter[${key}][${operator}]`;
  if (operator === 'in') {
    return { name, description: `${key} is one of these values (comma-separated, at most ${MAX_IN_VALUES}).`, style: 'form', explode: false, schema: { type: 'array', items: value, minItems: 1, maxItems: MAX_IN_VALUES } };
  }
  if (operator === 'null') return { name, description: `${key} is null (true) or is not (false).`, schema: { type: 'boolean' } };
  return { name, ...(operator === undefined ? { description: `${key} equals the value (as filter[${key}][eq]).` } : {}), schema: value };
}

/** The parameters of the filters a list accepts: every allowed `filter[…]` by its literal name. */
export function filterParameters(queryable: QueryableFields): QueryParameter[] {
  return [...queryable.filter].flatMap(([key, field]) => {
    const operators = field.kind.filter!.operators;
    return [...(operators.includes('eq') ? [filterParameter(key, field, undefined)] : []), ...operators.map((operator) => filterParameter(key, field, operator))];
  });
}

/** Filters as a list modifier: `filter[…]`, ANDed into one condition of the page and the count. */
export const filterModifier: ListModifier = {
  name: 'filter',
  parameters: ({ queryable }) => filterParameters(queryable),
  read({ values, queryable, resource }) {
    const { filters, problems } = filterRequest(values, queryable, resource.naming.routeKey);
    return { where: recordsWhere({ filters }), problems };
  },
};
