import { humanize, operations, type CompiledField, type CompiledResource, type RecordRow, type ScopeFunction } from '@panel/core';
import { listRequest, pageRequest, queryableFields, PER_PAGE_COOKIE } from '@panel/api';
import type { ScreenActor } from './screen-actor.js';
import type { ResourceScreensContext } from './screen-request.js';
import { withQuery, type QueryPairs } from './resource-paths.js';
import { shownValue, type ShownValue } from './shown-value.js';
import { appliedFilters, filterControls, filtersFormHidden, type FilterControl } from './list-filters.js';

/** What a list screen (a resource's index, or an association's list) is made from. */
export interface ListScreenInput {
  readonly context: ResourceScreensContext;
  readonly actor: ScreenActor;
  readonly resource: CompiledResource;
  /** The query string as parsed, and as pairs (literal names). */
  readonly query: Readonly<Record<string, unknown>>;
  readonly pairs: QueryPairs;
  /** The `per_page` cookie of the screens. */
  readonly cookiePerPage: string | undefined;
  /** This list's own URL (the links keep its query). */
  readonly path: string;
  /** An association's list: its records among the policy scope's (the scope is then passed whole). */
  readonly narrow?: ScopeFunction | undefined;
}

/** A list screen's model, and whether `per_page` came from the query (then the cookie keeps it). */
export interface ListScreen {
  readonly model: Record<string, unknown>;
  readonly perPage: number;
  readonly perPageFromQuery: boolean;
}

/** The per-page choices: the configured default and 10, 25, 50, 100, never above the maximum. */
function perPageChoices(config: { perPage: number; maxPerPage: number }, current: number): { value: number; selected: boolean }[] {
  const values = [...new Set([config.perPage, 10, 25, 50, 100, current])].filter((n) => n <= config.maxPerPage).sort((a, b) => a - b);
  return values.map((value) => ({ value, selected: value === current }));
}

/** The pages the pagination links: the first, the last, and two either side of the current one. */
function pageNumbers(page: number, totalPages: number): (number | null)[] {
  const shown = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, totalPages])].filter((n) => n >= 1 && n <= totalPages).sort((a, b) => a - b);
  const withGaps: (number | null)[] = [];
  for (const [index, n] of shown.entries()) {
    if (index > 0 && n - shown[index - 1]! > 1) withGaps.push(null);
    withGaps.push(n);
  }
  return withGaps;
}

/** The field whose value names a record in a list (the resource's title column), else its id. */
function titleField(resource: CompiledResource, columns: readonly CompiledField[]): CompiledField | undefined {
  return columns.find((field) => field.column === resource.titleColumn && field.kind.storage === 'column') ?? columns.find((field) => field.column === resource.primaryKey);
}

/**
 * Reads a list screen's query as the API's index reads it (`pageRequest`, then `listRequest`:
 * the same messages in the same 400), runs `operations.list` as the signed-in user (the
 * records layer's page and count: two statements, whatever the page size), and builds the
 * model: the index-view fields the user reads as columns (sortable headers for the fields the
 * user may sort by), the rows, the result line ("about" for an estimated count), pagination,
 * search, filters and the rows-per-page choice.
 */
export async function listScreen(input: ListScreenInput): Promise<ListScreen> {
  const { context, actor, resource, query, pairs, path } = input;
  const { config } = context.panel;
  const page = pageRequest(query as Record<string, unknown>, input.cookiePerPage, config);
  const access = actor.access(resource);
  const { sort, where, fields } = listRequest({ resource, access, query });
  const policyScope = actor.scope(resource);
  const narrow = input.narrow;
  const scoped = narrow ? { scope: (q: Parameters<ScopeFunction>[0]) => narrow(policyScope ? policyScope(q) : q) } : {};
  const result = await operations.list({ ...actor.input(resource), ...scoped, page: page.page, perPage: page.perPage, sort, where, fields });

  const columns = access.readable('index').filter((field) => fields === undefined || fields.has(field.name));
  const sortable = new Set(access.queryable('index').filter((field) => field.sortable));
  const sortBy = typeof query.sort_by === 'string' ? query.sort_by : undefined;
  const direction = query.sort_direction === 'desc' ? 'desc' : 'asc';
  const sortedField = sortBy ?? columns.find((field) => field.column === resource.defaultOrder.column)?.name;
  const sortedDirection = sortBy ? direction : (query.sort_direction as string | undefined) ?? resource.defaultOrder.direction;
  const headers = columns.map((field) => {
    const current = field.name === sortedField;
    const nextDirection = current && sortedDirection === 'asc' ? 'desc' : 'asc';
    return {
      label: humanize(field.name),
      sortHref: sortable.has(field) ? withQuery(path, pairs, { sort_by: field.name, sort_direction: nextDirection, page: undefined }) : undefined,
      ariaSort: current ? (sortedDirection === 'desc' ? 'descending' : 'ascending') : undefined,
      arrow: current ? (sortedDirection === 'desc' ? '▼' : '▲') : undefined,
      nextDirection: nextDirection === 'asc' ? 'ascending' : 'descending',
    };
  });
  const title = titleField(resource, columns);
  const rows = result.rows.map((row: RecordRow) => ({
    cells: columns.map((field) => {
      const value: ShownValue = access.shows(field, 'index', row) ? shownValue(context.panel, context.resourcePaths, resource, field, row, 'index') : { empty: true };
      const isTitle = field === title;
      return { value: isTitle && !value.empty ? { ...value, href: context.resourcePaths.record(resource.naming.routeKey, row[resource.primaryKey]) } : value, rowHeader: isTitle };
    }),
  }));

  const totalPages = Math.max(1, Math.ceil(result.totalCount / page.perPage));
  const from = result.rows.length === 0 ? 0 : (page.page - 1) * page.perPage + 1;
  const to = from === 0 ? 0 : from + result.rows.length - 1;
  const plural = resource.naming.routeKey.replace(/_/g, ' ');
  // "1 blog post", "2 blog posts": the count's own noun.
  const noun = (count: number) => (count === 1 ? resource.naming.humanName.toLowerCase() : plural);
  const about = result.totalCountSource === 'estimate' ? 'about ' : '';
  // A page after the last of a list that has records is no empty list: it says so and links back.
  // The last page is the one before this at most, should an estimated count run past the rows.
  const pastEnd = result.rows.length === 0 && page.page > 1 && result.totalCount > 0;
  const lastPage = Math.min(totalPages, page.page - 1);
  const current = pastEnd ? lastPage : page.page;
  const queryable = queryableFields({ resource, view: 'index', access });
  const keep = (names: readonly string[]) => pairs.filter(([name]) => names.includes(name) || name.startsWith('filter['));
  const model = {
    resultLine: pastEnd
      ? `Page ${page.page} is past the end of ${about}${result.totalCount} ${noun(result.totalCount)}.`
      : result.rows.length === 0 ? `0 of ${about}${result.totalCount} ${noun(result.totalCount)}` : `${from}–${to} of ${about}${result.totalCount} ${noun(result.totalCount)}`,
    headers,
    rows,
    hasRows: rows.length > 0,
    pastEnd: pastEnd ? { href: withQuery(path, pairs, { page: String(lastPage) }), label: `Go to the last page (page ${lastPage})` } : undefined,
    caption: humanize(resource.naming.routeKey),
    pagination: totalPages > 1 || pastEnd ? {
      prevHref: page.page > 1 ? withQuery(path, pairs, { page: String(pastEnd ? lastPage : page.page - 1) }) : undefined,
      nextHref: page.page < totalPages ? withQuery(path, pairs, { page: String(page.page + 1) }) : undefined,
      pages: pageNumbers(current, totalPages).map((n) => (n === null ? { gap: true } : { number: n, href: withQuery(path, pairs, { page: String(n) }), current: n === page.page })),
    } : undefined,
    perPage: { choices: perPageChoices(config, page.perPage), hidden: keep(['q', 'sort_by', 'sort_direction']).map(([name, value]) => ({ name, value })) },
    search: queryable.search.length > 0 ? { value: typeof query.q === 'string' ? query.q : '', label: `Search ${plural}`, hidden: keep(['sort_by', 'sort_direction', 'per_page']).map(([name, value]) => ({ name, value })) } : undefined,
    filters: queryable.filter.size > 0 ? filtersForm(filterControls(queryable.filter, pairs, context.panel.resources), pairs) : undefined,
    applied: appliedFilters(pairs, path),
    filtered: pairs.some(([name]) => name === 'q' || name.startsWith('filter[')),
    path,
  };
  return { model, perPage: page.perPage, perPageFromQuery: page.perPageFromQuery };
}

/** The filters form: its controls, and as hidden fields what it must keep (`filtersFormHidden`). */
function filtersForm(controls: FilterControl[], pairs: QueryPairs) {
  return { controls, hidden: filtersFormHidden(pairs, controls) };
}

/** The cookie that keeps the screens' last rows-per-page choice (the API's name, under the screens' path). */
export const SCREENS_PER_PAGE_COOKIE = PER_PAGE_COOKIE;
