import { unlistedResources, type CompiledResource } from '@panel/core';
import { policyClientOf } from '../../controller/record-access.js';
import type { RequestContext, Stage } from '../request-context.js';

/**
 * Which of the resources an answer about the route's resource may name (its associations',
 * transitively: `targets`, worked out at boot) the actor may not list, asked of the policy's
 * `index` once per request: their records answer no label, no association value, no included
 * record, and are not ids a write may name (`readableRecordsOf`). Only in the list of a route
 * whose resource has associations, when the panel has policies and a current user.
 */
export function listableResourcesStage(targets: readonly CompiledResource[]): Stage {
  return {
    name: 'listable-resources',
    run(context: RequestContext) {
      const client = policyClientOf(context);
      if (!client) return undefined;
      return unlistedResources(client, context.user, targets).then((unlisted) => {
        context.unlistedResources = unlisted;
      });
    },
  };
}
