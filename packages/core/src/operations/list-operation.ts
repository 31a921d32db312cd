import type { KeysetPage, RecordsPage, RecordsSort } from '../records/records-repository.js';
import type { KeysetPosition } from '../records/keyset-order.js';
import type { ScopeFunction } from '../records/records-query.js';
import type { RecordRow } from '../records/record-row.js';
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
  /**
   * Work on the page's rows that needs no total (serializing them, loading what `include`
   * embeds), run as soon as they arrive, while the count is still being read; `list` resolves
   * once both are done.
   */
  readonly withRows?: ((rows: RecordRow[]) => Promise<void> | void) | undefined;
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
  const result = await panel.records.list({ resource, view: 'index', page, perPage, sort: input.sort, scope, where: input.where, readable, fields: input.fields, withRows: input.withRows });
  return { ...result, page, perPage };
}

/** What `keysetList` takes: a list's parameters, and where the page starts (neither: the first page). */
export interface KeysetListInput extends Omit<ListInput, 'page'> {
  /** The page after this place (a cursor's). */
  readonly after?: KeysetPosition | undefined;
  /** The page before this place; exclusive with `after`. */
  readonly before?: KeysetPosition | undefined;
  /** A total besides the page: `exact` or `estimate`; none by default. */
  readonly total?: 'exact' | 'estimate' | undefined;
}

/** One page of records in keyset (cursor) mode, with its size. */
export interface KeysetListResult extends KeysetPage {
  readonly perPage: number;
}

/**
 * Lists a page of records the actor may see in keyset (cursor) mode: authorizes `index`, then
 * reads the rows after (or before) a place in the order through the policy scope and `where`,
 * in one statement whatever the page's depth (`RecordsRepository.keysetPage`); a count only when
 * `total` asks. Throws `NotAuthorizedError` when the policy refuses.
 *
 * @example
 * const { rows, hasNextPage, last } = await keysetList({ panel, resource: 'BlogPost', actor: user, perPage: 50 });
 */
export async function keysetList(input: KeysetListInput): Promise<KeysetListResult> {
  const { panel, resource, authorize, scope, readable } = operationContext(input);
  const perPage = Math.min(input.perPage ?? panel.config.perPage, panel.config.maxPerPage);
  await authorize('index');
  const page = await panel.records.keysetPage({ resource, view: 'index', perPage, sort: input.sort, scope, where: input.where, readable, fields: input.fields, after: input.after, before: input.before, total: input.total });
  return { ...page, perPage };
}
