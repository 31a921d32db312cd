import { fieldAccess, NO_RECORDS, NotAuthorizedError, RecordNotFoundError, type CompiledField, type CompiledResource, type FieldAccess, type OperationInput, type Panel, type PolicyAction, type ReadableRecords, type RecordId, type ScopeFunction, type View, type WriteChannel } from '@panel/core';
import type { RequestContext } from '../pipeline/request-context.js';
import { credentialKey } from '../http-semantics/credential-key.js';
import { POLICY_ACTOR } from './request-gate.js';

// What one request reaches: the defaults of `ResourcesController`'s policy, field-access and operation-input methods, on the request's context.

/** The authorization client whose policies govern the request's actor: the panel's, unless the actor's grants are authoritative. */
export function policyClientOf(context: RequestContext): Panel['authorization'] {
  return context.actor.followsPolicies ? context.panel.authorization : null;
}

/** The policy scope of every records query of the request: the client's, with the current user; none without a client. */
export function policyScopeOf(context: RequestContext, client: Panel['authorization']): ScopeFunction | undefined {
  if (!client) return undefined;
  const { user, resource } = context;
  return (query) => client.scope({ user, resource, query });
}

/** Asks the policy whether the current user may run `action` (on `record`); throws `NotAuthorizedError` when not. */
export async function authorizeWith(context: RequestContext, client: Panel['authorization'], action: PolicyAction, record: unknown): Promise<void> {
  if (!client) return;
  if ((await client.authorize({ user: context.user, resource: context.resource, action, record })) !== true) {
    throw new NotAuthorizedError(action, context.resource.naming.humanName);
  }
}

/**
 * Which fields the request's actor reads and writes on `resource`: `fieldAccess` of
 * `@panel/core` with the current user, the panel's authorization client, and the actor's
 * omissions (through the controller's `hidesAssociation`). Compiled once per request and
 * resource. An actor that omits nothing under the default `hidesAssociation` passes no
 * `omit`: then a view's access that depends on no user is compiled once, not per request.
 */
export function fieldAccessFor(context: RequestContext, resource: CompiledResource): FieldAccess {
  const cache = context.fieldAccesses;
  let access = cache.get(resource);
  if (!access) {
    const omitsNothing = context.route.defaultHidesAssociation && context.actor.omits === POLICY_ACTOR.omits;
    const controller = context.controller;
    access = fieldAccess({ resource, user: context.user, authorization: context.panel.authorization, omit: omitsNothing ? undefined : (field) => controller.hidesAssociation(field), channel: writeChannelOf(context) });
    cache.set(resource, access);
  }
  return access;
}

/**
 * Who the request writes through: `'token'` when a gate verified its credential (Edition B's
 * Bearer token), `'person'` on the panel-session path, else `'code'` (the app's
 * `setupAuthentication`: an API key, Basic credentials). Sensitive fields follow it.
 */
export function writeChannelOf(context: RequestContext): WriteChannel {
  if (context.authenticated !== undefined) return 'token';
  return onPanelSessionPath(context) ? 'person' : 'code';
}

/** The fields a record of the request may carry on a view: those the actor reads, narrowed by `fields=` when it was sent. */
export function recordFieldsFor(context: RequestContext, resource: CompiledResource, view: View): readonly CompiledField[] {
  const read = context.controller.fieldAccess(resource).readable(view);
  const fieldset = context.fieldset;
  return fieldset === undefined ? read : read.filter((field) => fieldset.has(field.name));
}

/**
 * The records of other resources the actor may read (asked of the ids a write names and of
 * association values): the actor's read rule (Edition B: a read grant on the target), then
 * under the policies none of a target the actor may not list (its `index`), else the target's
 * scope for the current user. Undefined (every record) when neither applies.
 */
export function readableRecordsOf(context: RequestContext, client: Panel['authorization']): ReadableRecords | undefined {
  const mayRead = context.actor.mayRead;
  if (!mayRead && !client) return undefined;
  const user = context.user;
  const unlisted = context.unlistedResources;
  return (target) => {
    if (mayRead && !mayRead(target)) return NO_RECORDS;
    if (!client) return undefined;
    // A resource the policy does not let the actor list: none of its records (labels answer null).
    return unlisted?.has(target) ? NO_RECORDS : (query) => client.scope({ user, resource: target, query });
  };
}

/** What the request's operations take: the controller's `authorize`, `policyScope`, `readableRecords` and `fieldAccess`, so overriding them still applies. */
export function operationInputOf(context: RequestContext): OperationInput {
  const controller = context.controller;
  return {
    panel: context.panel,
    resource: context.resource,
    actor: context.user,
    authorize: (action, record) => controller.authorize(action, record),
    scope: controller.policyScope(),
    // Association values and the ids a write names follow each target's readable records.
    readable: controller.readableRecords(),
    access: controller.fieldAccess(),
    unpermittedAttributes: context.route.unpermittedAttributes,
    confirmFields: () => controller.requireFieldConfirmation(),
    // A password change ended every session of that user; the panel session that made it holds.
    passwordChanged: onPanelSessionPath(context) ? ({ userId, generation }) => context.session.keepAfterPasswordChange(context.panel, context.request, context.reply, userId, generation) : undefined,
    transaction: context.transaction,
    // The uploads this request's credential made are the ones its writes may attach.
    uploader: credentialKey(context, 'public'),
  };
}

/** The `:id` of the request; an id that cannot name a record is a 404. */
export function recordIdOf(context: RequestContext): RecordId {
  const raw = context.params.id;
  const id = context.resource.key.fromText(raw);
  if (id === undefined) throw new RecordNotFoundError(context.resource.name, raw);
  return id;
}

/**
 * Whether the request is on the panel-session path: no credential verified by a gate, no
 * `Authorization` header (no API key, Basic credentials or Bearer token), and a panel session
 * that names a user.
 */
export function onPanelSessionPath(context: RequestContext): boolean {
  return context.authenticated === undefined && context.request.headers.authorization === undefined && context.session.data.userId !== undefined;
}
