import type { CompiledResource, KeysetPosition, RecordRow } from '@panel/core';
import { isTraversable } from './association-filter.js';
import { credentialKey } from '../http-semantics/credential-key.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { cursorBinding } from '../querying/cursor-codec.js';
import { loadIncludes } from '../querying/include-loader.js';
import type { IncludePath, IncludeRequest } from '../querying/include-params.js';
import { attachIncluded } from '../serialization/included-values.js';
import { serializeIncludedFor } from '../serialization/record-serializer.js';

/** The response header that gives what `include` may embed at most (the cost checked against the budget). */
export const INCLUDE_COST_HEADER = 'Include-Cost';

/** What a cursor's list is called in its binding: the resource's list, or one parent's traversal. */
export function cursorList(resource: CompiledResource, traversal?: { parent: CompiledResource; id: unknown; association: string }): string {
  return traversal === undefined ? resource.name : `${traversal.parent.name}/${String(traversal.id)}/${traversal.association}`;
}

/** Who a cursor is bound to: the credential the gate verified, else the current user, else `public`. */
export const cursorActor = (context: RequestContext): string => credentialKey(context, 'public');

/**
 * Embeds the records `include` asks for into serialized `records` (`records[i]` from
 * `rows[i]`), one statement per path, and says the cost (`Include-Cost`). Each target is read
 * through the actor's readable records of it (its policy scope, Edition B's grant) and
 * serialized as its show answers this actor.
 */
export async function embedIncluded(context: RequestContext, include: IncludeRequest | undefined, rows: readonly RecordRow[], records: readonly Record<string, unknown>[]): Promise<void> {
  if (include === undefined || include.paths.length === 0) return;
  context.reply.header(INCLUDE_COST_HEADER, String(include.cost));
  const { controller } = context;
  const loaded = await loadIncludes({ records: context.panel.records, paths: include.paths, rows, readable: controller.readableRecords() });
  attachIncluded({
    records: records as Record<string, unknown>[],
    rows,
    paths: include.paths,
    loaded,
    serialize: (resource, row, fields) => serializeIncludedFor(context, resource, row, fields),
    nextPage: (path, parent, last) => includedNextPage(context, path, parent, last),
  });
}

/**
 * The URL of the next page of one parent's records of a to-many path, in cursor mode: the
 * traversal (`/blog_posts/7/comments`) where the mount serves it and the actor may call it (a
 * gate's `mayCall`: Edition B needs `show` on the parent), else the target's list filtered by
 * the foreign key (`/comments?filter[blog_post_id]=7`) when this actor may call it and filter by
 * it; null when no URL this actor can call expresses the page (a habtm without traversal).
 */
export function includedNextPage(context: RequestContext, path: IncludePath, parent: RecordRow, last: KeysetPosition): string | null {
  const { route, controller } = context;
  const { target, field } = path;
  const parentId = parent[path.parent.primaryKey];
  const order = path.sort ?? target.defaultOrder;
  const query: [string, string][] = [['per_page', String(path.perPage)]];
  const sortField = target.fields.find((candidate) => candidate.column === order.column && candidate.sortable);
  if (path.sort !== undefined) {
    // `sort_direction` alone turns the target's default order around, as the list reads it.
    if (sortField && order.column !== target.defaultOrder.column) query.push(['sort_by', sortField.name]);
    query.push(['sort_direction', order.direction]);
  }
  let base: string;
  let list: string;
  const filters = new Map<string, string[]>();
  const parentPath = route.served.get(path.parent.name);
  // A guarded resource's route as the gate permits it; a public one's, as it is served.
  const callable = (resource: CompiledResource, action: 'index' | 'related') => !route.guarded.has(resource.name) || context.actor.mayCall?.(resource, action) !== false;
  if (route.traverses && isTraversable(field) && parentPath !== undefined && callable(path.parent, 'related')) {
    base = `${route.mountPath}${parentPath}/${String(parentId)}/${field.name}`;
    list = cursorList(target, { parent: path.parent, id: parentId, association: field.name });
  } else {
    const key = field.foreignKey;
    const targetPath = route.served.get(target.name);
    const byKey = key === undefined ? undefined : controller.queryableFields(target, 'index').filter.get(key);
    if (field.kind.association?.include?.kind !== 'many' || byKey === undefined || byKey.column !== key || targetPath === undefined || !callable(target, 'index')) return null;
    base = `${route.mountPath}${targetPath}`;
    list = cursorList(target);
    filters.set(`filter[${key}]`, [String(parentId)]);
    query.push([`filter[${key}]`, String(parentId)]);
  }
  const cursor = route.cursors.sign('after', last, cursorBinding({ list, values: filters, order, actor: cursorActor(context) }));
  query.push(['after', cursor]);
  return `${base}?${new URLSearchParams(query).toString()}`;
}
