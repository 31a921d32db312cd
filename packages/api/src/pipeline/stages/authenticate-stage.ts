import type { RequestGate } from '../../controller/request-gate.js';
import { isThenable } from '../call-method.js';
import type { RequestContext } from '../request-context.js';
import type { Stage } from '../request-context.js';

/** The controller's own authentication: `setupAuthentication` (throw `AuthenticationError` for a 401). */
const HOOK: Stage = { name: 'authenticate', method: 'setupAuthentication', run: (context) => context.controller.setupAuthentication() };

async function gateThenHook(context: RequestContext, gate: RequestGate, hook: boolean): Promise<void> {
  context.authenticated ??= await gate.authenticate(context.request);
  // A credential the gate verified authenticates the request: the controller's own authentication does not run.
  if (!hook || context.authenticated) return;
  const ran = context.controller.setupAuthentication();
  if (isThenable(ran)) await ran;
}

/**
 * The authentication stage, at the place of `setupAuthentication` in the before-action chain:
 * the extensions' gate first when one guards the controller (a credential it recognises wins,
 * a bad one is its 401), then `setupAuthentication` unless the gate authenticated the request
 * or the class skipped it for this action (`hook` false). Undefined when neither applies: the
 * route has no authentication stage.
 */
export function authenticateStage(gate: RequestGate | undefined, hook: boolean): Stage | undefined {
  if (!gate) return hook ? HOOK : undefined;
  return { name: 'authenticate', ...(hook ? { method: 'setupAuthentication' } : {}), run: (context) => gateThenHook(context, gate, hook) };
}
