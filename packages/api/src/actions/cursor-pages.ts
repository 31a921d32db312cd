import { operations, type OperationInput, type RecordRow } from '@panel/core';
import type { ListRequest } from '../controller/controller-hooks.js';
import type { RequestContext } from '../pipeline/request-context.js';
import type { CursorRequest } from '../querying/list-modifier.js';
import { queryValues } from '../querying/query-values.js';
import { FOREIGN_CURSOR } from '../querying/cursor-modifier.js';
import { BadRequestError } from '../errors/api-errors.js';

/** The pagination envelope of cursor mode. */
export interface CursorPagination {
  per_page: number;
  has_next_page: boolean;
  has_prev_page: boolean;
  /** The `after` of the next page; null on the last. */
  next_cursor: string | null;
  /** The `before` of the previous page; null on the first. */
  prev_cursor: string | null;
  /** With `include_total`. */
  total_count?: number;
  /** With `include_total=estimate`, when the total is the planner's estimate. */
  total_count_estimated?: boolean;
}

/**
 * The scheme and authority of a request line in absolute form (`GET http://host/path HTTP/1.1`,
 * which a server must accept, RFC 9112 §3.2.2): a `Link` URL keeps the path alone, so that it
 * never names a host the client put in the request line.
 */
const ABSOLUTE_FORM = /^[a-z][a-z\d+.-]*:\/\/[^/]*/i;

/** The paging parameters a `Link` URL replaces: the side's cursor is set anew. */
const PAGING = new Set(['after', 'before', 'pagination', 'page']);

/**
 * The request's URL with the page on `side` of `cursor` (other paging parameters dropped), for
 * the `Link` header: the path as sent (without a scheme and host, `ABSOLUTE_FORM`), and the query's values **as the server parsed them**
 * (`query`), each percent-encoded anew. Reparsing the raw query string instead would read it
 * another way than the server did (a `%FF` the parser kept as text would become U+FFFD), and the
 * filters, which the cursor is bound to, would no longer be the ones it was made for.
 */
function pageUrl(url: string, query: Readonly<Record<string, unknown>>, side: 'after' | 'before', cursor: string): string {
  const at = url.indexOf('?');
  const path = (at < 0 ? url : url.slice(0, at)).replace(ABSOLUTE_FORM, '');
  const pairs: string[] = [];
  for (const [name, values] of queryValues(query)) {
    if (PAGING.has(name)) continue;
    for (const value of values) pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  }
  pairs.push(`${side}=${encodeURIComponent(cursor)}`);
  return `${path}?${pairs.join('&')}`;
}

/**
 * One page of a list in cursor mode (`operations.keysetList`): the rows after or before the
 * cursor sent (the first page without one), through `input`'s scope and the query's filters
 * and order, in one statement; the envelope with the next and previous cursors, signed with the
 * request's binding, and the `Link` header (RFC 8288) with `rel="next"` and `rel="prev"`.
 */
export async function cursorPage(context: RequestContext, input: OperationInput, query: ListRequest, cursor: CursorRequest, perPage: number): Promise<{ rows: RecordRow[]; pagination: CursorPagination }> {
  const { opened, total, binding } = cursor;
  const page = await operations.keysetList({
    ...input,
    perPage,
    sort: query.sort,
    where: query.where,
    fields: query.fields,
    after: opened?.side === 'after' ? opened.position : undefined,
    before: opened?.side === 'before' ? opened.position : undefined,
    total,
  });
  // A place too long to carry is read from its row: gone, or holding another value, the cursor no longer places a page of this query.
  if (page.staleCursor) throw new BadRequestError(FOREIGN_CURSOR(opened!.side));
  const codec = context.route.cursors;
  const next = page.hasNextPage && page.last ? codec.sign('after', page.last, binding) : null;
  const prev = page.hasPrevPage && page.first ? codec.sign('before', page.first, binding) : null;
  const { url, query: sent } = context.request;
  const parsed = (sent ?? {}) as Record<string, unknown>;
  const links = [...(next === null ? [] : [`<${pageUrl(url, parsed, 'after', next)}>; rel="next"`]), ...(prev === null ? [] : [`<${pageUrl(url, parsed, 'before', prev)}>; rel="prev"`])];
  if (links.length > 0) context.reply.header('link', links.join(', '));
  const pagination: CursorPagination = { per_page: page.perPage, has_next_page: page.hasNextPage, has_prev_page: page.hasPrevPage, next_cursor: next, prev_cursor: prev };
  if (page.totalCount !== undefined) {
    pagination.total_count = page.totalCount;
    if (page.totalCountSource === 'estimate') pagination.total_count_estimated = true;
  }
  return { rows: page.rows, pagination };
}
