import type { FastifyRequest } from 'fastify';
import type { CompiledField, CompiledResource } from '@panel/core';
import type { ActionName } from './callback-chain.js';

/**
 * A credential an extension's gate verified (Edition B's Bearer token): its `id` keys the
 * rate limit and the idempotency keys; the rest is the extension's own.
 */
export interface RequestCredential {
  readonly id: number;
}

/**
 * Who a request acts as, in the terms the controller asks: whether the panel's policies govern
 * it, which other resources it may read, and how its records are presented. A controller asks
 * its actor; it never asks how the request was authenticated. Edition A's actor is
 * `POLICY_ACTOR`; a mount's gate (an extension's: Edition B's token gate) makes others.
 */
export interface RequestActor {
  /**
   * The credential the mount's gate verified before the controller ran (Edition B's Bearer
   * token), which rate limits and `currentUser()` may look at; undefined otherwise.
   */
  readonly credential?: RequestCredential | undefined;
  /** Whether the panel's policies (`authorize`, the row scope) govern this actor; false where a grant matrix is authoritative. */
  readonly followsPolicies: boolean;
  /** Whether the actor may read the records of `target` at all (a read grant); undefined: no rule besides the policy. */
  readonly mayRead?: ((target: CompiledResource) => boolean) | undefined;
  /**
   * Whether the gate lets the actor call a guarded resource's list (`index`) or a traversal from
   * its records (`related`, which needs `show` on the parent): where an answer links to a URL
   * (an include's `next`), it links to one this actor can call. Undefined: no rule besides the policy.
   */
  readonly mayCall?: ((resource: CompiledResource, action: 'index' | 'related') => boolean) | undefined;
  /** Whether a field's key is left out of this actor's records (an association whose target it may not read). */
  omits(field: CompiledField): boolean;
  /** A field's JSON value as this actor receives it (a token gets signed, expiring file URLs). */
  presents(field: CompiledField, json: unknown): unknown;
  /**
   * A file a write's `<field>_remove` names as this actor was given it (its URL or filename), in
   * the form the panel stores: a token's signed URL back to the standard URL. Undefined: as sent.
   */
  readonly storedFileName?: ((name: string) => string) | undefined;
}

/** The actor of a request no gate looked at: the panel's policies govern it, its records are presented as they are. */
export const POLICY_ACTOR: RequestActor = {
  followsPolicies: true,
  omits: () => false,
  presents: (_field, json) => json,
};

/**
 * The actor of a route no gate guards on a mount whose gate guards others (Edition B's
 * `PublicResourcesController`): the panel's policies govern it, and the resources the gate
 * guards (`guarded`, by name) are closed to it, as to a token without their grant: it reads none
 * of their records (`include`, labels) and their association keys are left out, count included.
 * A public parent never opens a gated target.
 */
export function publicActor(guarded: ReadonlySet<string>): RequestActor {
  return {
    followsPolicies: true,
    mayRead: (target) => !guarded.has(target.name),
    omits: (field) => field.target !== undefined && field.kind.association !== undefined && guarded.has(field.target),
    presents: (_field, json) => json,
  };
}

/**
 * Whether `resource`'s own show leaves `field` out for every actor: a resource no gate guards
 * (a public controller's) on a mount whose gate guards others answers through `publicActor`,
 * which omits its associations to the guarded resources. An included record of it is its show
 * as the actor gets it, so it leaves them out too, under any parent.
 */
export function publicTargetOmits(guarded: ReadonlySet<string>, resource: CompiledResource, field: CompiledField): boolean {
  return guarded.size > 0 && !guarded.has(resource.name) && field.kind.association !== undefined && field.target !== undefined && guarded.has(field.target);
}

/** What a gate decides a request may do, once its authentication ran. */
export interface PermitInput {
  readonly request: FastifyRequest;
  readonly resource: CompiledResource;
  readonly action: ActionName;
  /** The target's controller of a traversal (`related`) asks for `index` or `show` on its resource. */
  readonly traversing: boolean;
  /** The actor the gate's `authenticate` made; undefined when the controller's own authentication ran. */
  readonly authenticated: RequestActor | undefined;
}

/**
 * A mount-wide check around each gated controller's authentication step (Edition B's token
 * gate); Edition A has none. The controller runs `authenticate` before its authentication step
 * (`setupAuthentication`), which is skipped when it made an actor, and `permit` right after it,
 * before any other before-action and before any record is loaded. A controller with
 * `static gated = false` (`PublicResourcesController`) is not checked.
 */
export interface RequestGate {
  /** The actor a credential of the request proves, or undefined to let the controller authenticate; throws 401 for a bad credential. */
  authenticate(request: FastifyRequest): Promise<RequestActor | undefined>;
  /** The actor with what it may do on the resource; throws 403 when it may not run the action. */
  permit(input: PermitInput): Promise<RequestActor>;
}
