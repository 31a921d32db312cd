import { Current, operations, type CompiledResource, type RecordId, type RecordRow, type RecordsQuery, type View } from '@panel/core';
import { includeGraphOf } from '../controller/include-graph.js';
import { associationFilter } from './association-filter.js';
import { BadRequestError } from '../errors/api-errors.js';
import type { ControllerHooks, ListRequest } from '../controller/controller-hooks.js';
import type { RequestContext } from '../pipeline/request-context.js';
import type { ListModifier, PageRequest } from '../querying/list-modifier.js';
import { listQuery } from '../querying/list-query.js';
import { ListRequestReader } from '../querying/list-request-reader.js';
import { cursorPage, type CursorPagination } from './cursor-pages.js';
import { cursorActor, cursorList, embedIncluded } from './included-answer.js';
import { PER_PAGE_COOKIE, pagination, type Pagination } from '../querying/page-modifier.js';

export { PER_PAGE_COOKIE } from '../querying/page-modifier.js';

/**
 * The response header that says where `total_count` came from when it is not an exact count
 * started after the request: `estimate` or `cached` (the opt-in count strategies of the
 * panel's `count` option). Absent for the default exact count.
 */
export const TOTAL_COUNT_HEADER = 'Panel-Total-Count';

/** The page of a list whose modifiers read none: the first, of the configured size. */
const firstPage = (config: { readonly perPage: number }): PageRequest => ({ page: 1, perPage: config.perPage, perPageFromQuery: false });

/**
 * Reads a request's query with `modifiers` on `view` of `resource` (one 400 naming every
 * problem), asking the controller's `queryableFields` which fields this actor may query;
 * `only` keeps the parameters it accepts (a write's answer reads `include` alone).
 */
export function readQuery(context: RequestContext, resource: CompiledResource, view: View, modifiers: readonly ListModifier[], only?: (name: string) => boolean): ListRequest {
  const { request, panel, route } = context;
  const pick = (query: Record<string, unknown>) => (only === undefined ? query : Object.fromEntries(Object.entries(query).filter(([name]) => only(name))));
  const reader = new ListRequestReader({
    resource,
    view,
    query: pick(context.query),
    sent: pick((request.query ?? {}) as Record<string, unknown>),
    // A traversal keeps no `per_page` cookie (it is the index's).
    cookies: route.traversing ? undefined : request.cookies,
    config: panel.config,
    defaults: route.defaults,
    decider: context.controller,
    graph: () => includeGraphOf(context),
    cursors: { codec: context.route.cursors, list: cursorList(resource, context.traversal), actor: cursorActor(context) },
  });
  const { problems, ...query } = listQuery(reader, modifiers);
  if (problems.length > 0) throw new BadRequestError(problems.join('; '));
  return query;
}

/**
 * A list's query parameters (index and traversal), read by the route's list modifiers against
 * what the request may read, every problem in one 400; kept on the context (`listQuery`,
 * and the fieldset the serializer narrows to).
 */
export function listRequestOf(context: RequestContext, resource: CompiledResource): ListRequest {
  const query = readQuery(context, resource, 'index', context.route.modifiers);
  context.listQuery = query;
  context.fieldset = query.fields;
  return query;
}

/** What `operations.list` takes of a list's query. */
function listInput(query: ListRequest, config: { readonly perPage: number }) {
  const { page = firstPage(config), include: _include, cursor: _cursor, ...parts } = query;
  return { ...parts, page: page.page, perPage: page.perPage };
}

/** GET /<route_key>: a page of records on the index view with the pagination envelope. */
export async function indexAction(context: RequestContext): Promise<unknown> {
  const { controller, reply, panel } = context;
  const query = controller.listRequest(context.resource);
  const page = query.page ?? firstPage(panel.config);
  if (page.perPageFromQuery) reply.setCookie(PER_PAGE_COOKIE, String(page.perPage), { path: context.route.mountPath, httpOnly: true, sameSite: 'lax' });
  if (query.cursor) {
    const cursored = await cursorPage(context, controller.operationInput(), query, query.cursor, page.perPage);
    const records = controller.serializeRecords(cursored.rows, 'index');
    await embedIncluded(context, query.include, cursored.rows, records);
    return controller.render(200, { records, pagination: cursored.pagination });
  }
  // The records are serialized, and what `include` embeds loaded, while the count is still being read.
  let records: Record<string, unknown>[] = [];
  const withRows = async (rows: RecordRow[]) => {
    records = controller.serializeRecords(rows, 'index');
    await embedIncluded(context, query.include, rows, records);
  };
  const { totalCount, totalCountSource } = await operations.list({ ...controller.operationInput(), ...listInput(query, panel.config), withRows });
  if (totalCountSource) reply.header(TOTAL_COUNT_HEADER, totalCountSource);
  return controller.render(200, { records, pagination: pagination(page.page, page.perPage, totalCount) });
}

/** What a show reads of a query string that names nothing (`RouteRuntime.recordQueryFree`): no fieldset, no include. */
const NOTHING_ASKED: Pick<ListRequest, 'fields' | 'include'> = Object.freeze({ fields: undefined, include: undefined });

/** Whether the request's query string has no parameter at all. */
function queryIsEmpty(query: unknown): boolean {
  for (const _ in (query ?? {}) as object) return false;
  return true;
}

/** GET /<route_key>/:id: one record on the show view, read with the route's modifiers that apply to one record (`fields=`). */
export async function showAction(context: RequestContext): Promise<unknown> {
  const { controller, resource } = context;
  const id = controller.recordId();
  const asked = context.route.recordQueryFree && queryIsEmpty(context.request.query) ? NOTHING_ASKED : readQuery(context, resource, 'show', context.route.recordModifiers);
  const { fields, include } = asked;
  context.fieldset = fields;
  // With `include`, every column: an included path reads the row's own keys.
  const row = await operations.show({ ...controller.operationInput(), id, fields, columns: include === undefined ? context.route.showColumns : 'all' });
  const record = controller.serializeRecord(row, 'show');
  await embedIncluded(context, include, [row], [record]);
  return controller.render(200, { record });
}

/** A page of a traversal's target records, with what its envelope needs. */
export interface RelatedPage {
  readonly rows: RecordRow[];
  readonly pagination: Pagination | CursorPagination;
  /** Embeds the records `include` asks for into the serialized `rows`, with the target's rules. */
  readonly embed: (records: readonly Record<string, unknown>[]) => Promise<void>;
}

/**
 * Edition B, GET /<route_key>/:id/<association>, once the target's controller is ready
 * (`traversalTarget`): the parent is looked up as show looks it up, with this controller's
 * rules; then a page of the target's records, with the target's rules (its policy, scope and
 * list modifiers).
 */
export async function relatedPage(context: RequestContext, target: ControllerHooks): Promise<RelatedPage> {
  const { controller, reply, panel } = context;
  const field = context.resource.fieldsByName.get(context.route.association!)!;
  // The app's Current.user follows whose rules run: the parent's for its lookup, then the target's.
  const targetUser = Current.user;
  Current.user = context.user;
  const parent = await operations.show({ ...controller.operationInput(), id: controller.recordId() });
  Current.user = targetUser;
  const query = target.listRequest(panel.resource(field.target!));
  const page = query.page ?? firstPage(panel.config);
  const input = target.operationInput();
  const narrow = associationFilter(field, parent[context.resource.primaryKey] as RecordId);
  const scope = (scoped: RecordsQuery) => narrow(input.scope ? input.scope(scoped) : scoped);
  // The target's controller serializes the records: its context embeds them too (its graph read `include`).
  const targetContext = (target as unknown as { context: RequestContext }).context;
  const embedFor = (rows: RecordRow[]) => (records: readonly Record<string, unknown>[]) => embedIncluded(targetContext, query.include, rows, records);
  if (query.cursor) {
    const cursored = await cursorPage(context, { ...input, scope }, query, query.cursor, page.perPage);
    return { ...cursored, embed: embedFor(cursored.rows) };
  }
  const { rows, totalCount, totalCountSource } = await operations.list({ ...input, ...listInput(query, panel.config), scope });
  if (totalCountSource) reply.header(TOTAL_COUNT_HEADER, totalCountSource);
  return { rows, pagination: pagination(page.page, page.perPage, totalCount), embed: embedFor(rows) };
}
