import type { RecordsPage, RecordsSort } from '../records/records-repository.js';
import type { ScopeFunction } from '../records/records-query.js';
import { operationContext, type OperationInput } from './operation-input.js';

/** What `list` takes besides the resource and actor. */
export interface ListInput extends OperationInput {
  /** The page, from 1; default 1. */
  readonly page?: number;
  /** Records per page; default the panel's `perPage`, at most its `maxPerPage`. */
  readonly perPage?: number;
  /** The order; default the resource's own. */
  readonly sort?: RecordsSort | undefined;
  /** Narrows the list after the policy scope: filters and search (`recordsWhere`). */
  readonly where?: ScopeFunction | undefined;
  /** A sparse fieldset: the index view's field names to load; default every field of the view. */
  readonly fields?: ReadonlySet<string> | undefined;
}

/** One page of records on the index view, with what the pagination envelope needs. */
export interface ListResult extends RecordsPage {
  readonly page: number;
  readonly perPage: number;
}

/**
 * Lists a page of records the actor may see: authorizes `index`, then reads the page through
 * the policy scope and `where` (two statements, whatever the filters). Throws `NotAuthorizedError` when the policy refuses.
 *
 * @example
 * const { rows, totalCount } = await list({ panel, resource: 'BlogPost', actor: user, page: 2 });
 */
export async function list(input: ListInput): Promise<ListResult> {
  const { panel, resource, authorize, scope, readable } = operationContext(input);
  const page = input.page ?? 1;
  const perPage = Math.min(input.perPage ?? panel.config.perPage, panel.config.maxPerPage);
  await authorize('index');
  const result = await panel.records.list({ resource, view: 'index', page, perPage, sort: input.sort, scope, where: input.where, readable, fields: input.fields });
  return { ...result, page, perPage };
}
