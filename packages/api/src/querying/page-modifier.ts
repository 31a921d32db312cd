import { BadRequestError } from '../errors/api-errors.js';
import type { ListModifier, PageRequest } from './list-modifier.js';
import { bracketedSpellings } from './query-values.js';

export type { PageRequest } from './list-modifier.js';

/** The name of the cookie that keeps the last `per_page` a client sent. */
export const PER_PAGE_COOKIE = 'per_page';

/** The spec's pagination envelope. */
export interface Pagination {
  page: number;
  per_page: number;
  total_pages: number;
  total_count: number;
  has_next_page: boolean;
  has_prev_page: boolean;
}

/** The largest `page` (and `per_page`) the server reads: the document states it as `page`'s maximum. */
const MAX_PAGE = 1_000_000_000;

/** Reads one positive whole number from the query string, or says what is wrong. */
export function positiveIntegerParam(name: string, raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_PAGE) {
    const shown = Array.isArray(raw) ? 'several values' : JSON.stringify(raw);
    throw new BadRequestError(`${name} must be a positive integer (at most ${MAX_PAGE}), instead got ${shown}`);
  }
  return Number(raw);
}

/**
 * `page` (default 1) and `per_page`: the query's, else the `per_page` cookie, else the mount's
 * `defaults`, else the configured value; clamped to `maxPerPage`.
 */
export function pageRequest(
  query: Readonly<Record<string, unknown>>,
  cookiePerPage: string | undefined,
  config: { perPage: number; maxPerPage: number },
  defaults: Readonly<Record<string, string>> = {},
): PageRequest {
  const page = positiveIntegerParam('page', query.page ?? defaults.page) ?? 1;
  const fromQuery = positiveIntegerParam('per_page', query.per_page);
  const fromCookie = fromQuery === undefined && cookiePerPage !== undefined && /^\d{1,4}$/.test(cookiePerPage) && Number(cookiePerPage) >= 1 ? Number(cookiePerPage) : undefined;
  const fromDefaults = positiveIntegerParam('per_page', defaults.per_page);
  const perPage = Math.min(fromQuery ?? fromCookie ?? fromDefaults ?? config.perPage, config.maxPerPage);
  return { page, perPage, perPageFromQuery: fromQuery !== undefined };
}

/** The pagination envelope for a page of a list of `totalCount` records. */
export function pagination(page: number, perPage: number, totalCount: number): Pagination {
  const totalPages = Math.max(1, Math.ceil(totalCount / perPage));
  return {
    page,
    per_page: perPage,
    total_pages: totalPages,
    total_count: totalCount,
    has_next_page: page < totalPages,
    has_prev_page: page > 1,
  };
}

/**
 * The page as a list modifier: `page` and `per_page` (`pageRequest`: the query's, else the
 * `per_page` cookie, else the mount's `defaults`, else the configured size, clamped to the
 * maximum). Read without the mount's settings (`config`), it leaves the page to the action's
 * default.
 */
export const pageModifier: ListModifier = {
  name: 'page',
  logged: ['page', 'per_page'],
  read({ query, sent, cookies, config, defaults, values }) {
    const misspelt = bracketedSpellings(values, ['page', 'per_page']);
    if (misspelt.length > 0) return { problems: misspelt };
    if (config === undefined) return { problems: [] };
    try {
      return { problems: [], page: pageRequest(sent ?? query, cookies?.[PER_PAGE_COOKIE], config, defaults) };
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'PANEL_API_ERR_BAD_REQUEST') throw error;
      return { problems: [(error as Error).message] };
    }
  },
  parameters({ config, defaults }) {
    const defaultPerPage = Math.min(Number(defaults.per_page ?? config.perPage), config.maxPerPage);
    return [
      { name: 'page', schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: Number(defaults.page ?? 1) } },
      // No `maximum`: a validating client would refuse what the server accepts (and clamps).
      { name: 'per_page', description: `Records per page. A larger value than ${config.maxPerPage} is not refused: the server clamps it to ${config.maxPerPage} (\`pagination.per_page\` says what was used).`, schema: { type: 'integer', minimum: 1, default: defaultPerPage } },
    ];
  },
};
