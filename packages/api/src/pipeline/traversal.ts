import type { ControllerHooks } from '../controller/controller-hooks.js';
import { RequestContext } from './request-context.js';
import { runStages } from './run-pipeline.js';

/**
 * For `related`: the controller of the traversal's target resource, after its stages for
 * `index` up to the current user ran (its before-actions, the gate's authentication and
 * permission for `index` or `show`, its current user), so the target answers with its own
 * rules: a public parent never opens a gated target. It is given the credential this request's
 * gate already verified and the session cookie already loaded; it runs before any record is
 * loaded. Undefined when one of the target's stages rendered an answer (then it is this
 * request's answer); `Current.user` is the target's user afterwards.
 */
export async function traversalTarget(parent: RequestContext): Promise<ControllerHooks | undefined> {
  const route = parent.route.target;
  const field = parent.resource.fieldsByName.get(parent.route.association ?? '');
  if (!route || !field?.target) throw new TypeError(`${parent.controller.constructor.name}: related needs the target resource's controller.`);
  const context = new RequestContext(route, parent.request, parent.reply, parent.session.share());
  context.authenticated = parent.authenticated;
  context.traversal = { parent: parent.resource, id: String(parent.params.id), association: field.name };
  new route.controller(context);
  if (await runStages(context, route.stages)) {
    parent.rendered = context.rendered;
    return undefined;
  }
  return context.controller;
}
