import { NotAuthorizedError } from '../errors/panel-errors.js';
import type { PolicyAction } from '../authorization/authorization-client.js';
import type { CompiledResource, ReadableRecords } from '../resources/compiled-types.js';
import type { RecordsQuery, ScopeFunction } from '../records/records-query.js';
import type { Panel } from '../panel/panel.js';
import { fieldAccess, type FieldAccess } from '../authorization/field-access.js';
import type { CompiledField } from '../resources/compiled-types.js';
import type { Transaction } from 'kysely';
import type { RecordsRepository } from '../records/records-repository.js';

/** Asks whether the actor may run an action (on a record); throws `NotAuthorizedError` when not. */
export type AuthorizeFunction = (action: PolicyAction, record?: unknown) => void | Promise<void>;

/**
 * What every operation takes, as one named-args object (so a new member never breaks a
 * caller): the panel, the resource (a compiled resource or its name), and who acts.
 * `authorize` and `scope` replace the panel's own checks; the API's controllers pass their
 * overridable `authorize` and `policyScope` here, a script leaves them out.
 */
export interface OperationInput {
  readonly panel: Panel;
  readonly resource: CompiledResource | string;
  /** The user the policies see; null (the default) is no user, as on a public endpoint. */
  readonly actor?: unknown;
  readonly authorize?: AuthorizeFunction | undefined;
  readonly scope?: ScopeFunction | undefined;
  /**
   * The records of other resources the actor may read: asked of the ids a write names (a
   * `belongs_to` target it may not read is `must exist`, as one that does not exist), and of
   * association values (a `belongs_to` label, a `has_one` id, a `has_many` count cover only
   * these rows). Default: each target's policy scope for the actor when authorization is in
   * force, else every record.
   */
  readonly readable?: ReadableRecords | undefined;
  /** Which fields the actor reads and writes; by default `fieldAccess` for the actor and the panel's authorization. */
  readonly access?: FieldAccess | undefined;
  /**
   * What a write does with a key the actor may not write, or that no field has (alike):
   * `ignore` (the default, as strong parameters do) or `reject` (422 naming every such key).
   */
  readonly unpermittedAttributes?: 'ignore' | 'reject' | undefined;
  /**
   * Called by a write with the `confirm: true` fields it is about to write, after the policy
   * allowed it and before the values are judged; throws to refuse (the API's panel-session
   * path asks for a recent password confirmation). A script leaves it out.
   */
  readonly confirmFields?: ((fields: readonly CompiledField[]) => void | Promise<void>) | undefined;
  /**
   * A transaction the caller began and ends: the operation's reads and writes run in it (the
   * API's writes under `If-Match` or `Idempotency-Key`). Default none: the operation makes its own.
   */
  readonly transaction?: Transaction<any> | undefined;
  /**
   * Who uploaded the files a write names (`panel.uploads`' owner key, such as `user:7`): only
   * this owner's live uploads attach; another's answer like unknown ones. Without it, a write
   * attaches no upload.
   */
  readonly uploader?: string | undefined;
  /**
   * Called after a write changed a user's password (and ended every panel session of theirs):
   * the API's panel-session path and the screens seal their own session again under the new
   * generation when it is that user's. A script leaves it out.
   */
  readonly passwordChanged?: ((change: PasswordChange) => void | Promise<void>) | undefined;
}

/** What a write that changed a user's password tells its caller: the user and the generation their sessions must carry now. */
export interface PasswordChange {
  readonly userId: number;
  readonly generation: number;
}

/** What an operation works with once its input is resolved. */
export interface OperationContext {
  readonly panel: Panel;
  readonly resource: CompiledResource;
  readonly authorize: AuthorizeFunction;
  readonly scope: ScopeFunction | undefined;
  readonly access: FieldAccess;
  readonly user: unknown;
  readonly readable: ReadableRecords | undefined;
  /** The records layer, on the caller's transaction when the input has one. */
  readonly records: RecordsRepository;
}

/**
 * Resolves an operation's input: the resource by name, and the panel's authorization for the
 * actor — the same client, policy methods and scopes the API applies (none when authorization
 * is not in force).
 */
export function operationContext(input: OperationInput): OperationContext {
  const { panel } = input;
  const resource = typeof input.resource === 'string' ? panel.resource(input.resource) : input.resource;
  const user = input.actor ?? null;
  const client = panel.authorization;
  const authorize: AuthorizeFunction =
    input.authorize ??
    (async (action, record = null) => {
      if (client && (await client.authorize({ user, resource, action, record })) !== true) throw new NotAuthorizedError(action, resource.naming.humanName);
    });
  const scope = 'scope' in input ? input.scope : client ? (query: RecordsQuery) => client.scope({ user, resource, query }) : undefined;
  const access = input.access?.resource === resource ? input.access : fieldAccess({ resource, user, authorization: client });
  const readable: ReadableRecords | undefined =
    'readable' in input ? input.readable : client ? (target) => (query: RecordsQuery) => client.scope({ user, resource: target, query }) : undefined;
  const records = input.transaction ? panel.records.within(input.transaction) : panel.records;
  return { panel, resource, authorize, scope, access, user, readable, records };
}
