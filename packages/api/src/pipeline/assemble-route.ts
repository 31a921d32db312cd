import { associatedResources, viewHasNoFieldRules } from '@panel/core';
import type { CursorCodec } from '../querying/cursor-codec.js';
import { beforeActionChain } from '../controller/before-action-chain.js';
import type { ActionName } from '../controller/callback-chain.js';
import type { ControllerHooks } from '../controller/controller-hooks.js';
import { POLICY_ACTOR, publicActor, type RequestGate } from '../controller/request-gate.js';
import { ResourcesController } from '../controller/resources-controller.js';
import type { RouteRuntime, Stage } from './request-context.js';
import { actionStage } from './stages/action-stage.js';
import { authenticateStage } from './stages/authenticate-stage.js';
import { beforeActionStage } from './stages/before-action-stage.js';
import { currentUserStage } from './stages/current-user-stage.js';
import { listableResourcesStage } from './stages/listable-resources-stage.js';
import { permitStage } from './stages/permit-stage.js';
import { preconditionsStage } from './stages/preconditions-stage.js';
import { rateLimitStage } from './stages/rate-limit-stage.js';
import { sessionStage } from './stages/session-stage.js';
import { LIST_MODIFIERS } from '../querying/list-query.js';

/**
 * What a route is assembled from: its controller and action, and the mount's options (the
 * fields it shares with the runtime mean what `RouteRuntime` says of them; `modifiers` are the
 * mount's, a controller's own `listModifiers` win, and `gate` the extensions' whatever the controller).
 */
export interface RouteInput extends Pick<RouteRuntime, 'panel' | 'resource' | 'action' | 'mountPath' | 'defaults' | 'unpermittedAttributes' | 'gate' | 'semantics' | 'modifiers'> {
  readonly controller: typeof ResourcesController;
  /** For `related`: the association traversed, and the controller serving its target. */
  readonly association?: string | undefined;
  readonly targetController?: typeof ResourcesController | undefined;
  /** The resources this route's version serves, each with its collection's path under the mount. */
  readonly served: ReadonlyMap<string, string>;
  /** The served resources whose collection the mount's gate guards (a public route never opens them). */
  readonly guarded: ReadonlySet<string>;
  /** Whether the mount serves traversal (Edition B). */
  readonly traverses: boolean;
  /** The mount's cursor signer. */
  readonly cursors: CursorCodec;
}

/** Whether a controller class keeps the runtime's own `method` (no override of it). */
const keepsDefault = (controller: typeof ResourcesController, method: keyof ControllerHooks) =>
  (controller.prototype as unknown as ControllerHooks)[method] === (ResourcesController.prototype as unknown as ControllerHooks)[method];

const WRITES: ReadonlySet<ActionName> = new Set(['create', 'update', 'destroy', 'batch']);

/** Whether a controller's before-action chain for `action` runs its authentication step (`setupAuthentication`). */
const authenticates = (controller: typeof ResourcesController, action: ActionName, gated: boolean): boolean =>
  beforeActionChain(controller, action, gated).some((step) => step.kind === 'method' && step.authenticates);

/** The controller's methods that receive a record's row: show reads every column unless each is the runtime's own. */
const ROW_READERS: readonly (keyof ControllerHooks)[] = ['authorize', 'serializeRecord', 'serializeRecords', 'serializeFieldValue'];

/**
 * The before-action chain of (controller, action) as stages: each before-action that runs for
 * the action, with the gate's authentication merged into the `setupAuthentication` step and
 * its permission right after (see `beforeActionChain`).
 */
function chainStages(controller: typeof ResourcesController, action: ActionName, gate: RequestGate | undefined): Stage[] {
  const stages: Stage[] = [];
  const chain = beforeActionChain(controller, action, gate !== undefined);
  for (let i = 0; i < chain.length; i += 1) {
    const step = chain[i]!;
    if (step.kind === 'permit') stages.push(permitStage(gate!));
    else if (step.kind === 'authenticate') {
      const next = chain[i + 1];
      const hook = next?.kind === 'method' && next.authenticates;
      if (hook) i += 1;
      stages.push(authenticateStage(gate, hook)!);
    } else if (step.authenticates) stages.push(authenticateStage(undefined, true)!);
    else stages.push(beforeActionStage(step.name));
  }
  return stages;
}

/**
 * Assembles one route at boot: its stages as data, in order — the session (when the panel has
 * sessions), the before-actions with authentication and the gate's permission, the current
 * user (unless `currentUserMethod` is null), the rate limit (when the mount has one), and the
 * action (for a write, inside its preconditions when the mount has HTTP semantics). A stage
 * the route does not use is not in the list. For `related`, the target's route is assembled
 * too (its stages up to the current user, which the traversal runs).
 */
export function assembleRoute(input: RouteInput, traversing = false): RouteRuntime {
  const { panel, controller, action, semantics } = input;
  const gate = controller.gated ? input.gate : undefined;
  const requireIfMatch = semantics !== undefined && (semantics.requireIfMatch || controller.requireIfMatch);
  const method = panel.config.currentUserMethod;
  const identify: Stage[] = [...(panel.sessions && !traversing ? [sessionStage] : []), ...chainStages(controller, action, gate), ...(method === null ? [] : [currentUserStage(method)])];
  const stages = [...identify];
  // Under policies, the associated resources the actor may not list, asked once per request (labels and includes follow it).
  const targets = panel.authorization && method !== null ? associatedResources(panel.resources, input.resource) : [];
  const listable = targets.length > 0 ? [listableResourcesStage(targets)] : [];
  if (traversing) stages.push(...listable);
  else {
    if (semantics?.rateLimit) stages.push(rateLimitStage);
    stages.push(...listable);
    const act = actionStage(action);
    stages.push(semantics && WRITES.has(action) ? preconditionsStage(semantics, { requireIfMatch, member: action === 'update' || action === 'destroy' }, act) : act);
  }
  const modifiers = controller.listModifiers ?? input.modifiers;
  const recordModifiers = modifiers.filter((modifier) => modifier.onShow === true);
  const target = input.targetController && input.association !== undefined ? targetRoute(input, input.targetController) : undefined;
  // A write whose controller shows records without the authentication it runs itself: its ETags are show's for the client (`showEntityTag`).
  const tagsAsShow = !traversing && semantics !== undefined && (action === 'create' || action === 'update' || action === 'destroy' || action === 'batch') && authenticates(controller, action, gate !== undefined) && !authenticates(controller, 'show', gate !== undefined);
  return {
    panel,
    resource: input.resource,
    action,
    controller,
    mountPath: input.mountPath,
    defaults: input.defaults,
    unpermittedAttributes: controller.unpermittedAttributes ?? input.unpermittedAttributes,
    gate,
    semantics,
    requireIfMatch,
    modifiers,
    recordModifiers,
    recordQueryFree: Object.keys(input.defaults).length === 0 && recordModifiers.every((modifier) => LIST_MODIFIERS.includes(modifier)),
    stages,
    identify,
    association: input.association,
    target,
    showRoute: tagsAsShow ? showRoute(input) : undefined,
    traversing,
    defaultHidesAssociation: keepsDefault(controller, 'hidesAssociation'),
    defaultFieldValues: keepsDefault(controller, 'serializeFieldValue'),
    // A `visible` rule may read any column of the record on show (docs/authorization.md), so a view with one reads them all.
    showColumns: !panel.authorization && ROW_READERS.every((method) => keepsDefault(controller, method)) && viewHasNoFieldRules(input.resource, 'show') ? 'view' : 'all',
    served: input.served,
    guarded: input.guarded,
    // A public route of a gated mount: closed to what the gate guards (a public parent never opens a gated target).
    actor: gate === undefined && input.guarded.size > 0 ? publicActor(input.guarded) : POLICY_ACTOR,
    traverses: input.traverses,
    cursors: input.cursors,
  };
}

/** The route whose stages up to the current user say who the controller's show answers (for `showEntityTag`): show's, as a traversal's target is assembled. */
function showRoute(input: RouteInput): RouteRuntime {
  return { ...assembleRoute({ ...input, action: 'show', association: undefined, targetController: undefined }, true), traversing: false };
}

/** The route a traversal's target runs: its controller for `index` on the association's target resource. */
function targetRoute(input: RouteInput, controller: typeof ResourcesController): RouteRuntime {
  const field = input.resource.fieldsByName.get(input.association!)!;
  const resource = input.panel.resource(field.target!);
  return assembleRoute({ ...input, resource, action: 'index', controller, association: undefined, targetController: undefined }, true);
}
