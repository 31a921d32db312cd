import { Current, operations, type CompiledResource, type RecordRow, type RecordsSort } from '@panel/core';
import { pageRequest, pagination, type Pagination } from '../params/pagination-params.js';
import { associationFilter } from '../edition-b/association-filter.js';
import { BadRequestError } from '../errors/api-errors.js';
import { fieldsetRequest } from '../querying/fieldset-params.js';
import { listQuery } from '../querying/list-query.js';
import { queryValues } from '../querying/query-values.js';
import type { ControllerHooks, ListRequest } from '../controller/controller-hooks.js';
import type { RequestContext } from '../pipeline/request-context.js';

/** The name of the cookie that keeps the last `per_page` a client sent. */
export const PER_PAGE_COOKIE = 'per_page';

/**
 * The response header that says where `total_count` came from when it is not an exact count
 * started after the request: `estimate` or `cached` (the opt-in count strategies of the
 * panel's `count` option). Absent for the default exact count.
 */
export const TOTAL_COUNT_HEADER = 'Panel-Total-Count';

/** GET /<route_key>: a page of records on the index view with the pagination envelope. */
export async function indexAction(context: RequestContext): Promise<unknown> {
  const { controller, request, reply, panel } = context;
  const page = pageRequest((request.query ?? {}) as Record<string, unknown>, request.cookies?.[PER_PAGE_COOKIE], panel.config, context.route.defaults);
  const { sort, where, fields } = controller.listRequest(context.resource);
  const { rows, totalCount, totalCountSource } = await operations.list({ ...controller.operationInput(), page: page.page, perPage: page.perPage, sort, where, fields });
  if (totalCountSource) reply.header(TOTAL_COUNT_HEADER, totalCountSource);
  if (page.perPageFromQuery) reply.setCookie(PER_PAGE_COOKIE, String(page.perPage), { path: context.route.mountPath, httpOnly: true, sameSite: 'lax' });
  return controller.render(200, { records: controller.serializeRecords(rows, 'index'), pagination: pagination(page.page, page.perPage, totalCount) });
}

/** GET /<route_key>/:id: one record on the show view (`fields=` narrows it). */
export async function showAction(context: RequestContext): Promise<unknown> {
  const { controller, resource } = context;
  const id = controller.recordId();
  const query = context.query;
  // Without `fields` there is no fieldset to check: the actor's queryable fields are not worked out.
  const { fields, problems } = query.fields === undefined ? { fields: undefined, problems: [] } : fieldsetRequest(queryValues(query), controller.queryableFields(resource, 'show'), resource);
  if (problems.length > 0) throw new BadRequestError(problems.join('; '));
  context.fieldset = fields;
  const row = await operations.show({ ...controller.operationInput(), id, fields });
  return controller.render(200, { record: controller.serializeRecord(row, 'show') });
}

/** A page of a traversal's target records, with what its envelope needs. */
export interface RelatedPage {
  readonly rows: RecordRow[];
  readonly pagination: Pagination;
}

/**
 * Edition B, GET /<route_key>/:id/<association>, once the target's controller is ready
 * (`traversalTarget`): the parent is looked up as show looks it up, with this controller's
 * rules; then a page of the target's records, with the target's rules (its policy, scope and
 * list parameters).
 */
export async function relatedPage(context: RequestContext, target: ControllerHooks): Promise<RelatedPage> {
  const { controller, request, reply, panel } = context;
  const field = context.resource.fieldsByName.get(context.route.association!)!;
  // The app's Current.user follows whose rules run: the parent's for its lookup, then the target's.
  const targetUser = Current.user;
  Current.user = context.user;
  const parent = await operations.show({ ...controller.operationInput(), id: controller.recordId() });
  Current.user = targetUser;
  const page = pageRequest((request.query ?? {}) as Record<string, unknown>, undefined, panel.config, context.route.defaults);
  const { sort, where, fields } = target.listRequest(panel.resource(field.target!));
  const input = target.operationInput();
  const narrow = associationFilter(field, Number(parent.id));
  const { rows, totalCount, totalCountSource } = await operations.list({ ...input, scope: (query) => narrow(input.scope ? input.scope(query) : query), page: page.page, perPage: page.perPage, sort, where, fields });
  if (totalCountSource) reply.header(TOTAL_COUNT_HEADER, totalCountSource);
  return { rows, pagination: pagination(page.page, page.perPage, totalCount) };
}

/**
 * A list's parameters besides the page (index and traversal): `sort_by`/`sort_direction`,
 * `filter[…]`, `q` and `fields`, checked against what the request may read; every problem of
 * every parameter in one 400. Keeps the fieldset on the context for the serializer.
 */
export function listRequestOf(context: RequestContext, resource: CompiledResource, readSort: () => RecordsSort | undefined): ListRequest {
  const { controller } = context;
  const query = context.query;
  const problems: string[] = [];
  let sort: RecordsSort | undefined;
  try {
    sort = readSort();
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== 'PANEL_API_ERR_BAD_REQUEST') throw error;
    problems.push((error as Error).message);
  }
  const { where, fields, problems: more } = listQuery({ resource, queryable: controller.queryableFields(resource, 'index'), query, values: queryValues(query) });
  problems.push(...more);
  if (problems.length > 0) throw new BadRequestError(problems.join('; '));
  context.fieldset = fields;
  return { sort, where, fields };
}
