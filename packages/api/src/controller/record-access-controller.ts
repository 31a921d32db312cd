import { Current, fieldAccess, NO_RECORDS, NotAuthorizedError, type Panel, type PolicyAction, type ScopeFunction, type CompiledField, type FieldAccess, type CompiledResource, type OperationInput, type ReadableRecords, type View } from '@panel/core';
import { RecordNotFoundError } from '@panel/core';
import { recordId } from '../params/record-params.js';
import { ControllerBase } from './controller-base.js';
import { credentialKey } from '../http-semantics/credential-key.js';
import { POLICY_ACTOR } from './request-gate.js';

/**
 * The layer of `ResourcesController` that decides what one request reaches: its policies
 * (`authorize`, `policyScope`, unless its actor's grants are authoritative), the fields its
 * actor reads and writes (`fieldAccess`), the records of other resources it may read, and what its operations take. Each is a
 * method an app may override, calling `super`.
 */
export class RecordAccessController extends ControllerBase {
  /**
   * What a write does with a key that no field has or that the actor may not write: `ignore`
   * or `reject` (422 naming them alike); undefined takes the mount's option (default `ignore`).
   */
  static unpermittedAttributes: 'ignore' | 'reject' | undefined = undefined;

  /** The sparse fieldset of this request (`fields=`), once read; undefined: every field of the view. */
  protected fieldset: ReadonlySet<string> | undefined;

  /** The authorization client whose policies govern this request's actor: the panel's, unless the actor's grants are authoritative. */
  protected policyClient(): Panel['authorization'] {
    return this.actor.followsPolicies ? this.panel.authorization : null;
  }

  /**
   * The policy scope applied to every records query of this request: the authorization
   * client's, with `Current.user`; none when authorization is not in force.
   */
  protected policyScope(): ScopeFunction | undefined {
    const client = this.policyClient();
    if (!client) return undefined;
    const user = Current.user;
    return (query) => client.scope({ user, resource: this.resource, query });
  }

  /** Asks the policy whether `Current.user` may run `action`; throws `NotAuthorizedError` when not. */
  protected async authorize(action: PolicyAction, record: unknown = null): Promise<void> {
    const client = this.policyClient();
    if (!client) return;
    if ((await client.authorize({ user: Current.user, resource: this.resource, action, record })) !== true) {
      throw new NotAuthorizedError(action, this.resource.naming.humanName);
    }
  }

  #fieldAccess = new Map<CompiledResource, FieldAccess>();

  /**
   * Which fields this request's actor reads and writes on `resource` (default this
   * controller's): `fieldAccess` of `@panel/core` with `Current.user`, the panel's
   * authorization client, and Edition B's omission of associations without a read grant.
   * Compiled once per request and resource; the serializer, the write operations, `sort_by`
   * and traversal all ask it.
   */
  protected fieldAccess(resource: CompiledResource = this.resource): FieldAccess {
    let access = this.#fieldAccess.get(resource);
    if (!access) {
      // An actor that omits nothing under the default `hidesAssociation` passes no `omit`: then a view's access that depends on no user is compiled once, not per request.
      const omitsNothing = this.hidesAssociation === RecordAccessController.prototype.hidesAssociation && this.actor.omits === POLICY_ACTOR.omits;
      access = fieldAccess({ resource, user: Current.user, authorization: this.panel.authorization, omit: omitsNothing ? undefined : (field) => this.hidesAssociation(field) });
      this.#fieldAccess.set(resource, access);
    }
    return access;
  }


  /**
   * The fields a record of this request may carry on a view: those this actor reads (a
   * record-dependent `visible` rule is asked per record by the serializer), narrowed by
   * `fields=` when it was sent.
   */
  protected recordFields(resource: CompiledResource, view: View): readonly CompiledField[] {
    const read = this.fieldAccess(resource).readable(view);
    const fieldset = this.fieldset;
    return fieldset === undefined ? read : read.filter((field) => fieldset.has(field.name));
  }


  /**
   * Whether a field's key is left out of this actor's records: the actor's answer (Edition B:
   * "omitted entirely when the actor has no read grant on the target resource"). Never in
   * Edition A, nor for a controller the gate does not guard.
   */
  protected hidesAssociation(field: CompiledField): boolean {
    return this.actor.omits(field);
  }

  /**
   * What this request's operations take: the panel, the resource, `Current.user` as the actor,
   * and this controller's `authorize` and `policyScope`, so that overriding them still applies.
   */
  protected operationInput(): OperationInput {
    const unpermittedAttributes = (this.constructor as typeof RecordAccessController).unpermittedAttributes ?? this.mountUnpermittedAttributes;
    return {
      panel: this.panel,
      resource: this.resource,
      actor: Current.user,
      authorize: (action, record) => this.authorize(action, record),
      scope: this.policyScope(),
      // Association values and the ids a write names follow each target's readable records.
      readable: this.readableRecords(),
      access: this.fieldAccess(),
      unpermittedAttributes,
      confirmFields: () => this.requireFieldConfirmation(),
      transaction: this.transaction,
      // The uploads this request's credential made are the ones its writes may attach.
      uploader: credentialKey(this, 'public'),
    };
  }

  /**
   * A write sets a `confirm: true` field: on the panel-session path it needs a recent password
   * confirmation, answered like `requireRecentConfirmation` (403 with the confirm page's path);
   * a request with credentials (API key, Basic, Bearer token) is not asked.
   */
  protected requireFieldConfirmation(): void {
    if (this.onPanelSessionPath()) this.requireRecentConfirmation();
  }

  /**
   * The records of other resources this request's actor may read: asked of the ids a write
   * names (`<association>_id`: a target it may not read is `must exist`, exactly as one that
   * does not exist), and of association values (a `belongs_to` label, a `has_one` id, a
   * `has_many` count cover only these). Edition B: a read grant (`index` or `show`) on the
   * target resource; on the token path that is enough (row scoping is bypassed). Otherwise the
   * target's policy scope for `Current.user`. Undefined (every record) when neither applies.
   */
  protected readableRecords(): ReadableRecords | undefined {
    const mayRead = this.actor.mayRead;
    const client = this.policyClient();
    if (!mayRead && !client) return undefined;
    const user = Current.user;
    return (target) => {
      if (mayRead && !mayRead(target)) return NO_RECORDS;
      return client ? (query) => client.scope({ user, resource: target, query }) : undefined;
    };
  }

  /** The `:id` of the request; an id that cannot name a record is a 404. */
  protected recordId(): number {
    const id = recordId(this.params.id);
    if (id === undefined) throw new RecordNotFoundError(this.resource.name, this.params.id);
    return id;
  }
}
