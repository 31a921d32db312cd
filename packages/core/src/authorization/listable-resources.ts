import { NO_RECORDS } from '../records/no-records-scope.js';
import type { RecordsQuery } from '../records/records-query.js';
import type { CompiledResource, ReadableRecords } from '../resources/compiled-types.js';
import type { AuthorizationClient } from './authorization-client.js';

/**
 * The resources reachable from `resource` through its association fields, and theirs in turn
 * (labels, `include`, traversal): the ones whose read rule an answer about `resource` may ask.
 */
export function associatedResources(resources: ReadonlyMap<string, CompiledResource>, resource: CompiledResource): CompiledResource[] {
  const seen = new Set<CompiledResource>();
  const queue = [resource];
  while (queue.length > 0) {
    for (const field of queue.shift()!.fields) {
      const target = field.target === undefined ? undefined : resources.get(field.target);
      if (target && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return [...seen];
}

/**
 * Of `targets`, those the actor may not list: the policy's `index` (with no record) answers
 * anything but `true`, or throws. What `readableRecordsFor` refuses every record of.
 */
export async function unlistedResources(client: AuthorizationClient, user: unknown, targets: readonly CompiledResource[]): Promise<Set<CompiledResource>> {
  const refused = new Set<CompiledResource>();
  for (const target of targets) {
    let allowed: boolean;
    try {
      allowed = (await client.authorize({ user, resource: target, action: 'index', record: null })) === true;
    } catch {
      allowed = false;
    }
    if (!allowed) refused.add(target);
  }
  return refused;
}

/**
 * The read rule of other resources' records for one actor under the policies: none of a
 * resource the actor may not list (`unlisted`, from `unlistedResources`), else the records the
 * target's scope lets through. What labels, association values, `include` and the ids a write
 * names follow, on the API and the screens alike (an anonymous client gets `{ id, label: null }`
 * for a category it may not list).
 */
export function readableRecordsFor(client: AuthorizationClient, user: unknown, unlisted: ReadonlySet<CompiledResource>): ReadableRecords {
  return (target) => (unlisted.has(target) ? NO_RECORDS : (query: RecordsQuery) => client.scope({ user, resource: target, query }));
}
