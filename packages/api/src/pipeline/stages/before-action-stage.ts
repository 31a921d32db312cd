import { callMethod } from '../call-method.js';
import type { Stage } from '../request-context.js';

/**
 * One before-action of the controller (`verifyAuthenticityToken`, the app's own
 * `beforeAction`s), called by name; it stops the request by rendering, by sending the reply,
 * or by throwing. Only the before-actions that run for the route's action are in its list.
 */
export function beforeActionStage(method: string): Stage {
  return { name: 'before-action', method, run: (context) => callMethod(context.controller, method) };
}
