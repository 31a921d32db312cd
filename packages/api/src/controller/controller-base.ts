import type { FastifyReply, FastifyRequest } from 'fastify';
import { Current, type CompiledResource, type Panel, type SessionData } from '@panel/core';
import type { AuthenticatedToken } from '@panel/api-tokens';
import type { Transaction } from 'kysely';
import { AuthenticationError, ConfirmationRequiredError } from '../errors/api-errors.js';
import { declareBeforeAction, rescueHandlerFor, type ActionName } from './callback-chain.js';
import { ControllerDeclarations } from './controller-declarations.js';
import { beforeActionChain } from './before-action-chain.js';
import type { ControllerContext, Rendered } from './controller-context.js';
import { POLICY_ACTOR, type RequestActor, type RequestGate } from './request-gate.js';
import { RequestSession } from './request-session.js';
import { logUserIdentity } from './request-log-identity.js';
import { runAction, spendRateLimit, type HttpSemantics } from '../http-semantics/http-semantics.js';

export type { ControllerContext, Rendered } from './controller-context.js';

/** Whether a method's result is to be awaited (a promise, or any thenable an app's code returns). */
const isThenable = (value: unknown): value is PromiseLike<unknown> => typeof (value as PromiseLike<unknown> | null | undefined)?.then === 'function';

/**
 * The request lifecycle under every resources controller: the before-action chain (CSRF,
 * authentication with the mount's gate around it when there is one, the app's own), the
 * current user, the session, `rescueFrom` handlers, and deferred rendering. The class-level
 * declarations are `ControllerDeclarations`'; `ResourcesController` adds the rest.
 */
export class ControllerBase extends ControllerDeclarations {
  static {
    this.beforeAction('verifyAuthenticityToken');
    // The authentication step: a mount's gate runs around it (see `RequestGate`).
    declareBeforeAction(this, 'setupAuthentication', {}, true);
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
  /** For `related`: the name of the association traversed. */
  protected readonly association: string | undefined;
  /** The mount's `unpermittedAttributes`; the class's `static unpermittedAttributes` wins over it. */
  protected readonly mountUnpermittedAttributes: 'ignore' | 'reject';
  /** The mount's gate; undefined in Edition A. */
  readonly #gate: RequestGate | undefined;
  /** The actor the gate's `authenticate` made (then `setupAuthentication` did not run). */
  #authenticated: RequestActor | undefined;
  /** The actor once the before-actions ran. */
  #actor: RequestActor | undefined;
  #session = new RequestSession();
  readonly #context: ControllerContext;
  /** The mount's HTTP semantics. */
  protected readonly semantics: HttpSemantics | undefined;
  /** While a write under `If-Match` or `Idempotency-Key` runs: its transaction, which the action's operations use. */
  transaction: Transaction<any> | undefined;

  constructor(context: ControllerContext) {
    super();
    this.#context = context;
    this.request = context.request;
    this.reply = context.reply;
    this.panel = context.panel;
    this.resource = context.resource;
    this.actionName = context.action;
    this.mountPath = context.mountPath;
    this.defaults = context.defaults ?? {};
    this.#gate = context.gate;
    this.association = context.association;
    this.mountUnpermittedAttributes = context.unpermittedAttributes ?? 'ignore';
    this.semantics = context.semantics;
  }

  /**
   * The Bearer token the mount's gate verified for this request (Edition B's token path), which
   * a `currentUser()` may look at; undefined otherwise.
   */
  get apiToken(): AuthenticatedToken | undefined {
    return this.#authenticated?.credential as AuthenticatedToken | undefined;
  }

  /** Who this request acts as (see `RequestActor`): what the gate permitted, else the panel's policies govern it. */
  protected get actor(): RequestActor {
    return this.#actor ?? this.#authenticated ?? POLICY_ACTOR;
  }

  /**
   * For `related`: the controller of the traversal's target resource, after its before-actions
   * (for `index`) and its current user ran, so the target answers with its own rules: a public
   * parent never opens a gated target. Runs before any record is loaded. Undefined when one of
   * the target's before-actions rendered an answer (then it is this request's answer);
   * `Current.user` is the target's user afterwards.
   */
  protected async traversalTarget(): Promise<ControllerBase | undefined> {
    const Target = this.#context.targetController as (new (context: ControllerContext) => ControllerBase) | undefined;
    const field = this.resource.fieldsByName.get(this.association!);
    if (!Target || !field?.target) throw new TypeError(`${this.constructor.name}: related needs the target resource's controller.`);
    const target = new Target({ ...this.#context, resource: this.panel.resource(field.target), action: 'index', association: undefined, targetController: undefined, traversing: true });
    // The target is given the credential this request's gate already verified, and the session cookie already loaded.
    target.#authenticated = this.#authenticated;
    target.#session = this.#session.share();
    if (await target.#runBeforeActions()) {
      this.rendered = target.rendered;
      return undefined;
    }
    await target.#assignCurrentUser();
    return target;
  }

  /**
   * Runs the before-action chain of this request's action (built once per class and action,
   * see `beforeActionChain`); whether one of its steps rendered (or sent) an answer.
   */
  async #runBeforeActions(): Promise<boolean> {
    const cls = this.constructor as typeof ControllerBase;
    const gate = cls.gated ? this.#gate : undefined;
    for (const step of beforeActionChain(cls, this.actionName, gate !== undefined)) {
      if (step.kind === 'authenticate') this.#authenticated ??= await gate!.authenticate(this.request);
      else if (step.kind === 'permit') this.#actor = await gate!.permit({ request: this.request, resource: this.resource, action: this.actionName, traversing: this.#context.traversing === true, authenticated: this.#authenticated });
      // The request was authenticated by the gate: the controller's own authentication does not run.
      else if (!(step.authenticates && this.#authenticated)) {
        // A before-action that returns no promise (the CSRF step, most of an app's own) is not awaited.
        const ran = this.#call(step.name);
        if (isThenable(ran)) await ran;
      }
      if (this.rendered !== undefined || this.reply.sent) return true;
    }
    return false;
  }

  /**
   * The panel's session for this request (read from its sealed cookie): empty when there is
   * none, when sessions are off, when the cookie expired, went idle or was revoked, or when an
   * unsafe request came without a valid CSRF token (the null session).
   */
  get session(): SessionData {
    return this.#session.data;
  }

  /** The before-action that applies the class's CSRF strategy (see `setupCsrfProtection`). */
  verifyAuthenticityToken(): void {
    this.#session.verifyAuthenticity(this.constructor, this.request);
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
    if (!this.#session.isRecentlyConfirmed(this.panel)) throw new ConfirmationRequiredError();
  }

  /**
   * Whether this request is on the panel-session path: it carries no `Authorization` header
   * (no API key, Basic credentials or Bearer token) and its panel session names a user. Field
   * confirmation (`confirm: true`) applies on this path only.
   */
  protected onPanelSessionPath(): boolean {
    return this.#authenticated === undefined && this.request.headers.authorization === undefined && this.session.userId !== undefined;
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
        const loading = this.#session.load(this.panel, this.request, this.reply);
        if (loading) await loading;
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

  /** Calls the controller's method `method` (a before-action, the current-user method): its result, a promise when it is async. */
  #call(method: string): unknown {
    const fn = (this as unknown as Record<string, unknown>)[method];
    if (typeof fn !== 'function') {
      throw new TypeError(`${this.constructor.name}: before-action "${method}" is not a method of the controller.`);
    }
    return (fn as () => unknown).call(this);
  }

  async #assignCurrentUser(): Promise<void> {
    const method = this.panel.config.currentUserMethod;
    const user = method === null ? null : this.#call(method);
    Current.user = (isThenable(user) ? await user : user) ?? null;
    logUserIdentity(this.request, this.reply, Current.user);
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
