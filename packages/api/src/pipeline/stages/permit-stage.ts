import type { RequestGate } from '../../controller/request-gate.js';
import type { RequestContext } from '../request-context.js';
import type { Stage } from '../request-context.js';

async function permit(context: RequestContext, gate: RequestGate): Promise<void> {
  const { request, resource, action, route, authenticated } = context;
  context.actor = await gate.permit({ request, resource, action, traversing: route.traversing, authenticated });
}

/**
 * The extensions' permission check, right after authentication and before any other
 * before-action or any record is loaded (Edition B: the token's grants, or the default
 * permissions list; 403 without one). It decides the request's actor. In the list only when a
 * gate guards the controller.
 */
export function permitStage(gate: RequestGate): Stage {
  return { name: 'permit', run: (context) => permit(context, gate) };
}
