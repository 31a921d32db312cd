import { fieldAccess, readableRecordsFor, unlistedResources, type CompiledResource, type FieldAccess, type OperationInput, type Panel, type PolicyAction, type ReadableRecords, type ScopeFunction } from '@panel/core';

/**
 * The signed-in user acting on the resource screens, for one request: the panel, the user
 * (the `users` row the shell loaded: what the policies see), the field access per resource
 * (compiled once per request, as the API's controllers do) and the policy's answers. The
 * screens hand the operations exactly what a script would (`panel`, `resource`, `actor`), so
 * the panel's own authorization client decides, in both editions.
 */
export class ScreenActor {
  readonly panel: Panel;
  readonly user: unknown;
  /** The key the user's uploads are owned by (`user:<id>`, as the API's session path keys them). */
  readonly uploader: string;
  readonly #access = new Map<CompiledResource, FieldAccess>();
  #readable: ReadableRecords | undefined;

  constructor(panel: Panel, user: unknown, uploader: string) {
    this.panel = panel;
    this.user = user;
    this.uploader = uploader;
  }

  /** Which fields the user reads and writes on `resource` (`fieldAccess` of `@panel/core`). */
  access(resource: CompiledResource): FieldAccess {
    let access = this.#access.get(resource);
    if (!access) {
      access = fieldAccess({ resource, user: this.user, authorization: this.panel.authorization });
      this.#access.set(resource, access);
    }
    return access;
  }

  /**
   * Asks the policy once which resources the user may not list (`index`): their records are
   * named by no label or association value on any screen, as on the API. Called once per request.
   */
  async prepare(): Promise<this> {
    const client = this.panel.authorization;
    if (client) this.#readable = readableRecordsFor(client, this.user, await unlistedResources(client, this.user, [...this.panel.resources.values()]));
    return this;
  }

  /** What an operation on `resource` takes for this user: the policies, scopes and field rules of the panel, the other resources' records it reads, and the user's uploads. */
  input(resource: CompiledResource): OperationInput {
    return { panel: this.panel, resource, actor: this.user, access: this.access(resource), uploader: this.uploader, ...(this.#readable ? { readable: this.#readable } : {}) };
  }

  /**
   * Whether the policy lets the user run `action` (on `record`): what decides whether a screen
   * offers a button or a link. Only `true` counts; a policy method that throws answers no.
   * Without authorization in force, everything is allowed (as the operations allow it).
   */
  async may(resource: CompiledResource, action: PolicyAction, record: unknown = null): Promise<boolean> {
    const client = this.panel.authorization;
    if (!client) return true;
    try {
      return (await client.authorize({ user: this.user, resource, action, record })) === true;
    } catch {
      return false;
    }
  }

  /** The records of `resource` the user may see, as the operations scope them (undefined: every record). */
  scope(resource: CompiledResource): ScopeFunction | undefined {
    const client = this.panel.authorization;
    if (!client) return undefined;
    return (query) => client.scope({ user: this.user, resource, query });
  }
}
