// Over 250 lines: the request lifecycle, CSRF, the panel session, the Edition B gate and the HTTP semantics hooks; issue 21 splits it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Current, NotAuthorizedError, type CompiledResource, type OpenedSession, type Panel, type PolicyAction, type ScopeFunction, type SessionData } from '@panel/core';
import { AuthenticationError, ConfirmationRequiredError, ForbiddenError } from '../errors/api-errors.js';
import type { AuthenticatedToken, GrantVerb } from '@panel/api-tokens';
import { bearerToken } from '../edition-b/bearer-token.js';
import { tokenGrants, type EditionB, type GrantSet } from '../edition-b/edition-b.js';
import { loadPanelSession } from '../session/session-cookie.js';
import {
  beforeActionsFor,
  declareBeforeAction,
  declareRescue,
  declareSkipBeforeAction,
  rescueHandlerFor,
  type ActionName,
  type CallbackConditions,
  type ErrorMatcher,
  type RescueHandler,
} from './callback-chain.js';
import { declareCsrfStrategy, verifyAuthenticity, type CsrfStrategy } from './csrf-protection.js';
import { logUserIdentity } from './request-log-identity.js';
import type { Transaction } from 'kysely';
import { runAction, spendRateLimit, type HttpSemantics } from '../http-semantics/http-semantics.js';

/** What the runtime gives a controller for one request. */
export interface ControllerContext {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly panel: Panel;
  readonly resource: CompiledResource;
  readonly action: ActionName;
  /** The path of the API mount (`/api`), where the `per_page` cookie lives. */
  readonly mountPath: string;
  /** Default query parameters of the mount (`defaults:`). */
  readonly defaults?: Readonly<Record<string, string>>;
  /** The mount's `unpermittedAttributes` (default `ignore`). */
  readonly unpermittedAttributes?: 'ignore' | 'reject' | undefined;
  /** Edition B (built-in tokens and grants), when the mount has `tokens`; undefined is Edition A. */
  readonly edition?: EditionB | undefined;
  /** For `related`: the association traversed. */
  readonly association?: string | undefined;
  /**
   * For `related`: the controller that serves the association's target resource in the same
   * version. A traversal answers with the target's rules: this controller's before-actions
   * (authentication, the permission gate), current user, policy and serialization.
   */
  readonly targetController?: (new (context: ControllerContext) => ControllerBase) | undefined;
  /** Set on the target's controller of a traversal: its gate asks for `index` or `show`. */
  readonly traversing?: boolean | undefined;
  /** The mount's HTTP semantics (rate limit, `If-Match`, `Idempotency-Key`); undefined runs actions bare. */
  readonly semantics?: HttpSemantics | undefined;
}

/** A response an action rendered, not sent yet. */
export interface Rendered {
  status: number;
  body: unknown;
}

/**
 * The request lifecycle under every resources controller: the class-level callback chain
 * (`beforeAction`, `skipBeforeAction`, `rescueFrom`, CSRF), authentication, the current user,
 * the session, authorization, and deferred rendering. `ResourcesController` adds the actions.
 */
export class ControllerBase {
  /** The resource this controller serves (`BlogPost`); set by each generated controller. */
  static resourceName?: string;

  /**
   * Whether this controller's update and delete need `If-Match` (a missing one is 428
   * `{ "error": "Precondition Required" }`), whatever the mount's `requireIfMatch` says.
   */
  static requireIfMatch = false;

  /** Runs `method` before the actions (all, or those of `only` / `except`). */
  static beforeAction(method: string, conditions: CallbackConditions = {}): void {
    declareBeforeAction(this, method, conditions);
  }

  /** Stops an inherited before-action from running (all actions, or those of `only` / `except`). */
  static skipBeforeAction(method: string, conditions: CallbackConditions = {}): void {
    declareSkipBeforeAction(this, method, conditions);
  }

  /** Answers errors matching `matcher` (a class or a `code`) with `handler` instead of the default mapping. */
  static rescueFrom<C extends ControllerBase>(this: abstract new (context: ControllerContext) => C, matcher: ErrorMatcher, handler: RescueHandler<C>): void {
    declareRescue(this, matcher, handler as RescueHandler<unknown>);
  }

  /**
   * Sets the class's CSRF strategy; runs once per controller class at boot. The default is the
   * spec's null session. Override it to call `protectFromForgery({ with: 'exception' })`, or
   * with an empty body to turn the check off.
   */
  static setupCsrfProtection(): void {
    this.protectFromForgery({ with: 'nullSession' });
  }

  /** Declares how unsafe requests without a valid CSRF token are handled. */
  static protectFromForgery(options: { with: CsrfStrategy }): void {
    declareCsrfStrategy(this, options.with);
  }

  static {
    this.beforeAction('verifyAuthenticityToken');
    // Edition B: a Bearer token is checked first; without `tokens` on the mount these two do nothing.
    this.beforeAction('authenticateApiToken');
    this.beforeAction('setupAuthentication');
    this.beforeAction('requirePermissionGrant');
  }

  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly panel: Panel;
  readonly resource: CompiledResource;
  readonly actionName: ActionName;
  /** The path of the API mount (`/api`), where the `per_page` cookie lives. */
  protected readonly mountPath: string;
  /** The mount's default query parameters (`defaults:`). */
  protected readonly defaults: Readonly<Record<string, string>>;
  /** Edition B, when the mount has `tokens`; undefined in Edition A. */
  protected readonly edition: EditionB | undefined;
  /** For `related`: the name of the association traversed. */
  protected readonly association: string | undefined;
  /** The mount's `unpermittedAttributes`; the class's `static unpermittedAttributes` wins over it. */
  protected readonly mountUnpermittedAttributes: 'ignore' | 'reject';
  /** Edition B: the token that authenticated this request (the token path); undefined on the code-hook path. */
  apiToken: AuthenticatedToken | undefined;
  /** Edition B: what this request's actor may do, once `requirePermissionGrant` has run. */
  protected grants: GrantSet | undefined;
  readonly #context: ControllerContext;
  /** The mount's HTTP semantics. */
  protected readonly semantics: HttpSemantics | undefined;
  /** While a write under `If-Match` or `Idempotency-Key` runs: its transaction, which the action's operations use. */
  transaction: Transaction<any> | undefined;

  constructor(context: ControllerContext) {
    this.#context = context;
    this.request = context.request;
    this.reply = context.reply;
    this.panel = context.panel;
    this.resource = context.resource;
    this.actionName = context.action;
    this.mountPath = context.mountPath;
    this.defaults = context.defaults ?? {};
    this.edition = context.edition;
    this.association = context.association;
    this.mountUnpermittedAttributes = context.unpermittedAttributes ?? 'ignore';
    this.semantics = context.semantics;
  }

  /**
   * Edition B's first check (spec "Order of checks"): a Bearer token in `Authorization` is
   * authenticated before `setupAuthentication`, and a present Bearer token always wins: a
   * malformed, unknown, disabled, expired or revoked one is the same 401 and never falls
   * through to the hook. Without a Bearer header the request goes on to `setupAuthentication`.
   * Does nothing in Edition A.
   */
  async authenticateApiToken(): Promise<void> {
    // A traversal's target controller is given the token its parent already verified.
    if (!this.edition || this.apiToken) return;
    const presented = bearerToken(this.request.headers.authorization);
    if (presented === undefined) return;
    const token = await this.edition.tokens.authenticate(presented);
    if (!token) throw new AuthenticationError();
    this.apiToken = token;
  }

  /** The grant verb this request needs on its own resource: the action's, `show` for `related`. */
  protected grantVerb(): GrantVerb {
    return this.actionName === 'related' ? 'show' : this.actionName;
  }

  /**
   * Edition B's permission gate, before any record is loaded (so a client cannot probe record
   * existence): on the token path the token's grants decide; on the code-hook path the default
   * permissions list does, and writes always need a Bearer token. No grant: 403
   * `{ "error": "Forbidden" }`. A traversal's target (`related`) is gated by its own
   * controller's gate, which asks for `index` or `show` on the target resource.
   * Does nothing in Edition A.
   */
  async requirePermissionGrant(): Promise<void> {
    if (!this.edition) return;
    const verb = this.grantVerb();
    if (!this.apiToken && verb !== 'index' && verb !== 'show') throw new ForbiddenError();
    const grants = this.apiToken ? tokenGrants(this.apiToken) : await this.edition.defaultGrants();
    const routeKey = this.resource.naming.routeKey;
    const allowed = this.#context.traversing ? grants.allows(routeKey, 'index') || grants.allows(routeKey, 'show') : grants.allows(routeKey, verb);
    if (!allowed) throw new ForbiddenError();
    this.grants = grants;
  }

  /**
   * For `related`: the controller of the traversal's target resource, after its before-actions
   * (for `index`) and its current user ran, so the target answers with its own rules: a public
   * parent never opens a gated target. Runs before any record is loaded. Undefined when one of
   * the target's before-actions rendered an answer (then it is this request's answer);
   * `Current.user` is the target's user afterwards.
   */
  protected async traversalTarget(): Promise<ControllerBase | undefined> {
    const Target = this.#context.targetController;
    const field = this.resource.fieldsByName.get(this.association!);
    if (!Target || !field?.target) throw new TypeError(`${this.constructor.name}: related needs the target resource's controller.`);
    const target = new Target({ ...this.#context, resource: this.panel.resource(field.target), action: 'index', association: undefined, targetController: undefined, traversing: true });
    target.apiToken = this.apiToken;
    target.#opened = this.#opened;
    if (await target.#runBeforeActions()) {
      this.rendered = target.rendered;
      return undefined;
    }
    await target.#assignCurrentUser();
    return target;
  }

  /** Runs the before-actions of this request's action; whether one of them rendered (or sent) an answer. */
  async #runBeforeActions(): Promise<boolean> {
    const cls = this.constructor as typeof ControllerBase;
    for (const method of beforeActionsFor(cls, this.actionName)) {
      // Edition B: a valid Bearer token authenticated the request; the code hook does not run.
      if (method === 'setupAuthentication' && this.apiToken) continue;
      await this.#call(method);
      if (this.rendered !== undefined || this.reply.sent) return true;
    }
    return false;
  }

  #session: SessionData | null | undefined;
  /** The session cookie as loaded before the callbacks: checked for expiry, rotation and revocation. */
  #opened: OpenedSession | null = null;

  /**
   * The panel's session for this request (read from its sealed cookie): empty when there is
   * none, when sessions are off, when the cookie expired, went idle or was revoked, or when an
   * unsafe request came without a valid CSRF token (the null session).
   */
  get session(): SessionData {
    if (this.#session === undefined) this.#session = this.#readSession();
    return this.#session ?? {};
  }

  #readSession(): SessionData | null {
    return this.#opened?.data ?? null;
  }

  /** The before-action that applies the class's CSRF strategy (see `setupCsrfProtection`). */
  verifyAuthenticityToken(): void {
    const session = this.#readSession();
    this.#session = verifyAuthenticity(this.constructor, this.request, session) ? session : null;
  }

  /**
   * A before-action for sensitive actions (sudo mode): throws `ConfirmationRequiredError` (403
   * with the confirm page's path) unless the panel session's user typed their password within
   * `session.confirmWindow` seconds. A request without a session, or with the null session,
   * is refused too.
   *
   * @example
   * static { this.beforeAction('requireRecentConfirmation', { only: ['create'] }); }
   */
  requireRecentConfirmation(): void {
    const sessions = this.panel.sessions;
    if (!sessions || this.session.userId === undefined || !sessions.isRecentlyConfirmed(this.#opened)) throw new ConfirmationRequiredError();
  }

  /**
   * Whether this request is on the panel-session path: it carries no `Authorization` header
   * (no API key, Basic credentials or Bearer token) and its panel session names a user. Field
   * confirmation (`confirm: true`) applies on this path only.
   */
  protected onPanelSessionPath(): boolean {
    return this.apiToken === undefined && this.request.headers.authorization === undefined && this.session.userId !== undefined;
  }

  /** Path parameters (`id`). */
  get params(): Record<string, string> {
    return this.request.params as Record<string, string>;
  }

  /** Query string parameters, over the mount's `defaults`. */
  get query(): Record<string, unknown> {
    return { ...this.defaults, ...((this.request.query ?? {}) as Record<string, unknown>) };
  }

  /**
   * Authenticates the request; throw `AuthenticationError` to reject it with 401. The default
   * rejects every request, so the API is closed until the app opens it.
   */
  async setupAuthentication(): Promise<void> {
    throw new AuthenticationError();
  }

  /** The default `currentUserMethod`: the user `Current.user` is set to after authentication. */
  async currentUser(): Promise<unknown> {
    return null;
  }

  /**
   * Runs the request: before-actions (one that renders stops the chain), current user, the
   * action, and `rescueFrom` handlers; then sends what was rendered (204 when nothing was).
   */
  async process(): Promise<FastifyReply> {
    return Current.run(async () => {
      try {
        if (this.panel.sessions) this.#opened = await loadPanelSession(this.panel, this.request, this.reply);
        if (!(await this.#runBeforeActions())) {
          await this.#assignCurrentUser();
          const requireIfMatch = (this.constructor as typeof ControllerBase).requireIfMatch;
          await runAction(this as never, this.semantics, requireIfMatch, () => (this as unknown as Record<ActionName, () => Promise<unknown>>)[this.actionName]());
        }
      } catch (error) {
        // A refused request spends too: the token's budget when one authenticated it, else its address's (a 401).
        await spendRateLimit(this as never, this.semantics);
        const handler = error instanceof Error ? rescueHandlerFor(this.constructor, error) : undefined;
        // The mount's error table answers (Edition B's mount: a refused policy is 403 JSON, not the redirect).
        if (!handler) throw error;
        this.rendered = undefined;
        await handler.call(this, error as Error);
      }
      if (this.reply.sent) return this.reply;
      if (this.rendered === undefined) return this.reply.code(204).send();
      return this.reply.code(this.rendered.status).send(this.rendered.body);
    });
  }

  async #call(method: string): Promise<unknown> {
    const fn = (this as unknown as Record<string, unknown>)[method];
    if (typeof fn !== 'function') {
      throw new TypeError(`${this.constructor.name}: before-action "${method}" is not a method of the controller.`);
    }
    return (fn as () => unknown).call(this);
  }

  async #assignCurrentUser(): Promise<void> {
    const method = this.panel.config.currentUserMethod;
    Current.user = method === null ? null : ((await this.#call(method)) ?? null);
    logUserIdentity(this.request, this.reply, Current.user);
  }

  /**
   * The policy scope applied to every records query of this request: the authorization
   * client's, with `Current.user`; none when authorization is not in force.
   */
  protected policyScope(): ScopeFunction | undefined {
    const client = this.panel.authorization;
    // Edition B's token path: the grant matrix is authoritative and policy row-scoping is bypassed.
    if (!client || this.apiToken) return undefined;
    const user = Current.user;
    return (query) => client.scope({ user, resource: this.resource, query });
  }

  /** Asks the policy whether `Current.user` may run `action`; throws `NotAuthorizedError` when not. */
  protected async authorize(action: PolicyAction, record: unknown = null): Promise<void> {
    const client = this.panel.authorization;
    if (!client || this.apiToken) return;
    if ((await client.authorize({ user: Current.user, resource: this.resource, action, record })) !== true) {
      throw new NotAuthorizedError(action, this.resource.naming.humanName);
    }
  }

  /**
   * What the action rendered, sent when the action returns; an override can call `super` and
   * adjust `rendered.body` or `rendered.status` before it goes out.
   */
  rendered: Rendered | undefined;

  /** Renders `body` as JSON with `status` (sent once the action returns). */
  render(status: number, body: unknown): Rendered {
    this.rendered = { status, body };
    return this.rendered;
  }

}
