import { NotAuthorizedError } from '../errors/panel-errors.js';
import type { PolicyAction } from '../authorization/authorization-client.js';
import type { CompiledResource, ReadableRecords } from '../resources/compiled-types.js';
import type { RecordsQuery, ScopeFunction } from '../records/records-query.js';
import type { Panel } from '../panel/panel.js';

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
   * The records of other resources the actor may read, asked of the ids a write names (a
   * `belongs_to` target it may not read is `must exist`, as one that does not exist). Default:
   * each target's policy scope for the actor when authorization is in force, else every record.
   */
  readonly readable?: ReadableRecords | undefined;
}

/** What an operation works with once its input is resolved. */
export interface OperationContext {
  readonly panel: Panel;
  readonly resource: CompiledResource;
  readonly authorize: AuthorizeFunction;
  readonly scope: ScopeFunction | undefined;
  readonly readable: ReadableRecords | undefined;
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
  const readable = 'readable' in input ? input.readable : client ? (target: CompiledResource) => (query: RecordsQuery) => client.scope({ user, resource: target, query }) : undefined;
  return { panel, resource, authorize, scope, readable };
}
