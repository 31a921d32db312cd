import type { RecordsQuery } from '../records/records-query.js';

/**
 * A policy's Scope: `resolve()` returns the query narrowed to the records the user may see.
 * The query selects from the resource's table aliased `r` (`ROW_ALIAS`).
 */
export class PolicyScope<User = unknown> {
  readonly user: User | null;
  readonly query: RecordsQuery;

  constructor(user: User | null, query: RecordsQuery) {
    this.user = user;
    this.query = query;
  }

  resolve(): RecordsQuery {
    return this.query;
  }
}

/**
 * A resource's policy (Pundit style): one method per action, given the user (possibly null)
 * and the record (for `show`, `update`, `destroy`: the row; for `create`: the values sent; for
 * `index`: null). Every method denies unless a subclass allows.
 *
 * @example
 * class PostPolicy extends Policy<User, PostRow> {
 *   override update() { return this.user?.admin === true || this.record?.author_id === this.user?.id; }
 *   static override Scope = class extends PolicyScope<User> {
 *     override resolve() { return this.user?.admin ? this.query : this.query.where('r.published', '=', true); }
 *   };
 * }
 */
export class Policy<User = unknown, Row = Record<string, unknown>> {
  /** The scope class that narrows index queries and member lookups. The default narrows nothing. */
  static Scope: PolicyScopeClass = class DefaultScope extends PolicyScope {};

  readonly user: User | null;
  readonly record: Row | null;

  constructor(user: User | null, record: Row | null) {
    this.user = user;
    this.record = record;
  }

  index(): boolean | Promise<boolean> {
    return false;
  }

  show(): boolean | Promise<boolean> {
    return false;
  }

  create(): boolean | Promise<boolean> {
    return false;
  }

  update(): boolean | Promise<boolean> {
    return false;
  }

  destroy(): boolean | Promise<boolean> {
    return false;
  }

  /**
   * The fields this user may write on `action` (Pundit's `permitted_attributes`), by field name
   * or write key (`author` or `author_id`); `undefined` (the default) narrows nothing. On
   * update `this.record` is the stored row; on create it is null. Combined with each field's
   * `visible` and `readonly` rules: a field must pass all of them to be written.
   *
   * @example
   * override permittedAttributes() { return this.user?.admin ? undefined : ['name', 'password']; }
   */
  permittedAttributes(_action: 'create' | 'update'): readonly string[] | undefined | Promise<readonly string[] | undefined> {
    return undefined;
  }
}

/** A policy class, as a resource's `static policy` names it. */
export type PolicyClass = (new (user: any, record: any) => Policy<any, any>) & { Scope: PolicyScopeClass };

/** A scope class. */
export type PolicyScopeClass = new (user: any, query: RecordsQuery) => PolicyScope<any>;
