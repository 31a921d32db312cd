import { recordsWhere, textProblem, type CompiledResource, type RecordSearch } from '@panel/core';
import type { ListModifier, QueryParameter } from './list-modifier.js';
import type { QueryableFields } from './queryable-fields.js';
import { bracketedSpellings } from './query-values.js';

/** The longest `q`, in characters. */
export const MAX_SEARCH_LENGTH = 200;
/** The most words of `q`. */
export const MAX_SEARCH_WORDS = 10;

/**
 * `q=<text>`: the words of the text (split on white space, at most 10, the text at most 200
 * characters) must each be contained, case-insensitively, in at least one of the search fields
 * the actor reads (`queryable.search`). A resource without search fields answers `q` with a
 * problem naming it; an empty `q` searches nothing.
 */
export function searchRequest(values: ReadonlyMap<string, readonly string[]>, queryable: QueryableFields, resource: CompiledResource): { search?: RecordSearch; problems: string[] } {
  const raw = values.get('q');
  if (raw === undefined) return { problems: [] };
  if (raw.length > 1) return { problems: [`q takes one value, instead got ${raw.length}`] };
  const text = raw[0]!;
  if (queryable.search.length === 0) return { problems: [`q cannot search ${resource.naming.routeKey}: the resource ${resource.name} declares no search fields`] };
  const problems: string[] = [];
  const length = [...text].length;
  if (length > MAX_SEARCH_LENGTH) problems.push(`q must be at most ${MAX_SEARCH_LENGTH} characters, instead got ${length}`);
  const unstorable = textProblem(text);
  if (unstorable) problems.push(`q ${unstorable}`);
  const words = text.split(/\s+/u).filter((word) => word !== '');
  if (words.length > MAX_SEARCH_WORDS) problems.push(`q must have at most ${MAX_SEARCH_WORDS} words, instead got ${words.length}`);
  if (problems.length > 0) return { problems };
  return { search: { fields: queryable.search, words }, problems };
}

/** The parameter `q`, on a list whose resource has search fields. */
export function searchParameters(queryable: QueryableFields): QueryParameter[] {
  if (queryable.search.length === 0) return [];
  const names = queryable.search.map((field) => field.name).join(', ');
  return [{ name: 'q', description: `Search: each word (at most ${MAX_SEARCH_WORDS}) is contained, case-insensitively, in at least one of ${names}.`, schema: { type: 'string', maxLength: MAX_SEARCH_LENGTH } }];
}

/** Search as a list modifier: `q`, one condition of the page and the count. */
export const searchModifier: ListModifier = {
  name: 'search',
  parameters: ({ queryable }) => searchParameters(queryable),
  read({ values, queryable, resource }) {
    const misspelt = bracketedSpellings(values, ['q']);
    if (misspelt.length > 0) return { problems: misspelt };
    const { search, problems } = searchRequest(values, queryable, resource);
    return { where: recordsWhere({ search }), problems };
  },
};
