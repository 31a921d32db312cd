import type { FastifyReply, FastifyRequest } from 'fastify';
import { Current, NotAuthorizedError, type CompiledResource, type OpenedSession, type Panel, type PolicyAction, type ScopeFunction, type SessionData } from '@panel/core';
import { AuthenticationError, ConfirmationRequiredError } from '../errors/api-errors.js';
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
    this.beforeAction('setupAuthentication');
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

  constructor(context: ControllerContext) {
    this.request = context.request;
    this.reply = context.reply;
    this.panel = context.panel;
    this.resource = context.resource;
    this.actionName = context.action;
    this.mountPath = context.mountPath;
    this.defaults = context.defaults ?? {};
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
        const cls = this.constructor as typeof ControllerBase;
        let halted = false;
        for (const method of beforeActionsFor(cls, this.actionName)) {
          await this.#call(method);
          halted = this.rendered !== undefined || this.reply.sent;
          if (halted) break;
        }
        if (!halted) {
          await this.#assignCurrentUser();
          await (this as unknown as Record<ActionName, () => Promise<unknown>>)[this.actionName]();
        }
      } catch (error) {
        const handler = error instanceof Error ? rescueHandlerFor(this.constructor, error) : undefined;
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
    if (!client) return undefined;
    const user = Current.user;
    return (query) => client.scope({ user, resource: this.resource, query });
  }

  /** Asks the policy whether `Current.user` may run `action`; throws `NotAuthorizedError` when not. */
  protected async authorize(action: PolicyAction, record: unknown = null): Promise<void> {
    const client = this.panel.authorization;
    if (!client) return;
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
