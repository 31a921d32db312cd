import type { RecordsSort } from '@panel/core';
import { cursorBinding, MAX_CURSOR_LENGTH, type OpenedCursor } from './cursor-codec.js';
import type { ListModification, ListModifier, ListRequestContext, QueryParameter } from './list-modifier.js';
import { bracketedSpellings, shown } from './query-values.js';
import { sortRequest } from './sort-modifier.js';

/** The answer to a cursor that does not open: the same for an altered one and one minted for another list, query or caller. */
export const FOREIGN_CURSOR = (name: 'after' | 'before') => `${name} is not a cursor of this list for this query and caller (it was altered, or made for another list, filter, search, order or caller): start again from pagination=cursor`;

/** The one value of a parameter, or a problem when it is repeated. */
function single(values: ReadonlyMap<string, readonly string[]>, name: string, problems: string[]): string | undefined {
  const given = values.get(name);
  if (given === undefined) return undefined;
  if (given.length > 1) problems.push(`${name} takes one value, instead got ${given.length}`);
  return given[0];
}

/**
 * Cursor pagination as a list modifier: `pagination=cursor` on the first page, `after` or
 * `before` (a cursor of an earlier answer) on the others, `include_total=exact|estimate` for a
 * count. A cursor opens only for the list, filters, search, order and actor it was signed for
 * (`cursorBinding`); anything else is one 400 whose text does not tell forged from foreign. It
 * never authorizes: the scope, grants and filters apply again to every page.
 */
export const cursorModifier: ListModifier = {
  name: 'cursor',
  read(request) {
    const { values } = request;
    const problems: string[] = bracketedSpellings(values, ['pagination', 'after', 'before', 'include_total']);
    const mode = single(values, 'pagination', problems);
    const after = single(values, 'after', problems);
    const before = single(values, 'before', problems);
    const total = single(values, 'include_total', problems);
    if (mode === undefined && after === undefined && before === undefined && total === undefined) return { problems };
    if (mode !== undefined && mode !== 'cursor') problems.push(`pagination must be "cursor" (page numbers are the default: leave it out), instead got ${shown(mode)}`);
    const cursorMode = mode === 'cursor' || after !== undefined || before !== undefined;
    if (total !== undefined && total !== 'exact' && total !== 'estimate') problems.push(`include_total must be "exact" or "estimate", instead got ${shown(total)}`);
    else if (total !== undefined && !cursorMode) problems.push('include_total applies to cursor pagination (pagination=cursor, after or before); page numbers always count');
    if (after !== undefined && before !== undefined) problems.push('after and before cannot be sent together: after for the next page, before for the previous one');
    if (cursorMode && (request.sent ?? request.query).page !== undefined) problems.push('page cannot be sent in cursor mode (pagination=cursor, after or before): follow next_cursor and prev_cursor instead');
    if (!cursorMode || problems.length > 0) return { problems };
    if (!request.cursors) return { problems: ['cursor pagination is not served here'] };
    return cursorPart(request, after ?? before, after !== undefined ? 'after' : 'before', total as 'exact' | 'estimate' | undefined);
  },
  parameters({ queryable }) {
    const sortable = queryable.sort.length > 0;
    const cursor = (side: 'after' | 'before'): QueryParameter => ({ name: side, description: `A \`pagination.${side === 'after' ? 'next' : 'prev'}_cursor\` of an earlier answer of this list: the page ${side} it, in cursor mode. Bound to the list, its filters, search and order, and the caller.`, schema: { type: 'string', maxLength: MAX_CURSOR_LENGTH } });
    return [
      { name: 'pagination', description: `\`cursor\`: keyset pages (\`next_cursor\`, \`prev_cursor\`, the \`Link\` header) instead of page numbers; no count unless \`include_total\` asks.${sortable ? ' Any `sort_by`; the id breaks ties.' : ''}`, schema: { type: 'string', enum: ['cursor'] } },
      cursor('after'),
      cursor('before'),
      { name: 'include_total', description: 'In cursor mode: `exact` adds `pagination.total_count`; `estimate` the planner\'s estimate (`total_count_estimated: true`) when the list is large.', schema: { type: 'string', enum: ['exact', 'estimate'] } },
    ];
  },
};

/** The cursor part of the list's query: the order as the sort modifier reads it, the binding, and the cursor sent, opened. */
function cursorPart(request: ListRequestContext, raw: string | undefined, side: 'after' | 'before', total: 'exact' | 'estimate' | undefined): ListModification {
  const { resource, query, queryable, values, cursors } = request;
  let sort: RecordsSort | undefined;
  try {
    sort = sortRequest(resource, query, queryable.sort);
  } catch {
    // The sort modifier names the problem.
    return { problems: [] };
  }
  const order = sort ?? resource.defaultOrder;
  const binding = cursorBinding({ list: cursors!.list, values, order, actor: cursors!.actor });
  let opened: OpenedCursor | undefined;
  if (raw !== undefined) {
    opened = cursors!.codec.open(raw, binding);
    if (opened === undefined || opened.side !== side) return { problems: [FOREIGN_CURSOR(side)] };
  }
  return { problems: [], cursor: { opened, total, binding } };
}
