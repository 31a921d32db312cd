import type { CompiledResource } from '../resources/compiled-types.js';
import type { RecordsQuery } from '../records/records-query.js';

/** The policy methods, one per API action. */
export type PolicyAction = 'index' | 'show' | 'create' | 'update' | 'destroy';

/**
 * An authorization client: the extension point a policy library plugs into. The panel asks it
 * whether a user may run an action (on a record), and to narrow a records query to what the
 * user may see. `identifier` is what the panel's `authorizationClient` option names.
 */
export interface AuthorizationClient {
  readonly identifier: string;
  /** Whether `user` may run `action` (on `record`, for member actions). */
  authorize(input: { user: unknown; resource: CompiledResource; action: PolicyAction; record: unknown }): boolean | Promise<boolean>;
  /**
   * Optional: the names (or write keys) of the fields `user` may write on `action`; undefined
   * narrows nothing. `record` is the stored row on update, null on create.
   */
  permittedAttributes?(input: { user: unknown; resource: CompiledResource; action: 'create' | 'update'; record: unknown }): readonly string[] | undefined | Promise<readonly string[] | undefined>;
  /** The query narrowed to what `user` may see. */
  scope(input: { user: unknown; resource: CompiledResource; query: RecordsQuery }): RecordsQuery;
}

/** A panel plug-in; today the one kind is an authorization client. */
export interface PanelPlugin {
  readonly kind: 'authorization';
  readonly client: AuthorizationClient;
}
