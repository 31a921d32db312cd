import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  Current,
  isPanelError,
  parseWriteValues,
  type CompiledResource,
  type ErrorMessages,
  type Panel,
  type RecordRow,
  type ScopeFunction,
  type View,
  type PolicyAction,
} from '@panel/core';
import { NotAuthorizedError, RecordInvalidError } from '@panel/core';
import { AuthenticationError } from '../errors/api-errors.js';
import { pageRequest, pagination } from '../params/pagination-params.js';
import { sortRequest } from '../params/sort-params.js';
import { recordId, recordParams } from '../params/record-params.js';
import { fieldJson, type FieldValue } from '../serialization/field-value.js';
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
import { RecordNotFoundError, type SessionData } from '@panel/core';
import { declareCsrfStrategy, verifyAuthenticity, type CsrfStrategy } from './csrf-protection.js';

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

/** The name of the cookie that keeps the last `per_page` a client sent. */
export const PER_PAGE_COOKIE = 'per_page';

/**
 * The runtime controller every generated controller inherits (through the generated
 * `BaseResourcesController`). One instance serves one request: the before-action chain runs
 * (`setupAuthentication` first), then `Current.user` is assigned from the configured
 * `currentUserMethod`, then the action. Every step is a method an app may override, calling
 * `super` and adjusting, or replacing it.
 */
export class ResourcesController {
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
  static rescueFrom<C extends ResourcesController>(this: abstract new (context: ControllerContext) => C, matcher: ErrorMatcher, handler: RescueHandler<C>): void {
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
  readonly #mountPath: string;
  readonly #defaults: Readonly<Record<string, string>>;

  constructor(context: ControllerContext) {
    this.request = context.request;
    this.reply = context.reply;
    this.panel = context.panel;
    this.resource = context.resource;
    this.actionName = context.action;
    this.#mountPath = context.mountPath;
    this.#defaults = context.defaults ?? {};
  }

  #session: SessionData | null | undefined;

  /**
   * The panel's session for this request (read from its sealed cookie): empty when there is
   * none, when sessions are off, or when an unsafe request came without a valid CSRF token
   * (the null session).
   */
  get session(): SessionData {
    if (this.#session === undefined) this.#session = this.#readSession();
    return this.#session ?? {};
  }

  #readSession(): SessionData | null {
    const codec = this.panel.sessions;
    return codec ? codec.open(this.request.cookies?.[this.panel.config.sessionCookie]) : null;
  }

  /** The before-action that applies the class's CSRF strategy (see `setupCsrfProtection`). */
  verifyAuthenticityToken(): void {
    const session = this.#readSession();
    this.#session = verifyAuthenticity(this.constructor, this.request, session) ? session : null;
  }

  /** Path parameters (`id`). */
  get params(): Record<string, string> {
    return this.request.params as Record<string, string>;
  }

  /** Query string parameters, over the mount's `defaults`. */
  get query(): Record<string, unknown> {
    return { ...this.#defaults, ...((this.request.query ?? {}) as Record<string, unknown>) };
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
        const cls = this.constructor as typeof ResourcesController;
        let halted = false;
        for (const method of beforeActionsFor(cls, this.actionName)) {
          await this.#call(method);
          if ((halted = this.rendered !== undefined || this.reply.sent)) break;
        }
        if (!halted) {
          await this.#assignCurrentUser();
          await this[this.actionName]();
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

  /** GET /<route_key>: a page of records on the index view with the pagination envelope. */
  async index(): Promise<unknown> {
    const request = pageRequest((this.request.query ?? {}) as Record<string, unknown>, this.request.cookies?.[PER_PAGE_COOKIE], this.panel.config, this.#defaults);
    const sort = sortRequest(this.resource, this.query);
    await this.authorize('index');
    if (request.perPageFromQuery) {
      this.reply.setCookie(PER_PAGE_COOKIE, String(request.perPage), { path: this.#mountPath, httpOnly: true, sameSite: 'lax' });
    }
    const { rows, totalCount } = await this.panel.records.list({ resource: this.resource, view: 'index', page: request.page, perPage: request.perPage, sort, scope: this.policyScope() });
    return this.render(200, { records: this.serializeRecords(rows, 'index'), pagination: pagination(request.page, request.perPage, totalCount) });
  }

  /** GET /<route_key>/:id: one record on the show view. */
  async show(): Promise<unknown> {
    const row = await this.panel.records.find({ resource: this.resource, view: 'show', id: this.recordId(), scope: this.policyScope() });
    await this.authorize('show', row);
    return this.render(200, { record: this.serializeRecord(row, 'show') });
  }

  /** POST /<route_key>: creates a record from the new view's fields; answers it on the show view. */
  async create(): Promise<unknown> {
    const { values, errors } = parseWriteValues(this.resource, 'new', recordParams(this.resource, this.request.body));
    await this.authorize('create', values);
    if (Object.keys(errors).length > 0) return this.createFailAction(errors);
    try {
      return await this.createSuccessAction(await this.panel.records.create({ resource: this.resource, view: 'show', values }));
    } catch (error) {
      if (isPanelError(error, 'PANEL_ERR_RECORD_INVALID')) return this.createFailAction((error as unknown as { errors: ErrorMessages }).errors);
      throw error;
    }
  }

  /**
   * PATCH or PUT /<route_key>/:id: updates the edit view's fields sent; answers the record on
   * the show view. The record is found through the scope and authorized inside the update's
   * transaction (then the values are checked), so it is read once.
   */
  async update(): Promise<unknown> {
    const id = this.recordId();
    const attributes = recordParams(this.resource, this.request.body);
    const { values, errors } = parseWriteValues(this.resource, 'edit', attributes);
    const beforeWrite = async ({ record }: { record: RecordRow }) => {
      await this.authorize('update', record);
      // The policy answers first: a refused user never learns what is wrong with the values.
      if (Object.keys(errors).length > 0) throw new RecordInvalidError(errors);
    };
    try {
      return await this.updateSuccessAction(await this.panel.records.update({ resource: this.resource, view: 'show', id, values, scope: this.policyScope(), beforeWrite }));
    } catch (error) {
      if (isPanelError(error, 'PANEL_ERR_RECORD_INVALID')) return this.updateFailAction((error as unknown as { errors: ErrorMessages }).errors);
      throw error;
    }
  }

  /** DELETE /<route_key>/:id. */
  async destroy(): Promise<unknown> {
    const id = this.recordId();
    const scope = this.policyScope();
    await this.authorize('destroy', await this.panel.records.find({ resource: this.resource, view: 'show', id, scope }));
    try {
      await this.panel.records.destroy({ resource: this.resource, id, scope });
    } catch (error) {
      if (isPanelError(error, 'PANEL_ERR_RECORD_INVALID')) return this.destroyFailAction((error as unknown as { errors: ErrorMessages }).errors);
      throw error;
    }
    return this.destroySuccessAction();
  }

  /** The `:id` of the request; an id that cannot name a record is a 404. */
  protected recordId(): number {
    const id = recordId(this.params.id);
    if (id === undefined) throw new RecordNotFoundError(this.resource.name, this.params.id);
    return id;
  }

  /** 201 `{ record }` on the show view. */
  createSuccessAction(row: RecordRow): unknown {
    return this.render(201, { record: this.serializeRecord(row, 'show') });
  }

  /** 422 `{ errors, message: "Failed to create <ResourceName>" }`. */
  createFailAction(errors: ErrorMessages): unknown {
    return this.render(422, { errors, message: `Failed to create ${this.resource.naming.humanName}` });
  }

  /** 200 `{ record }` on the show view. */
  updateSuccessAction(row: RecordRow): unknown {
    return this.render(200, { record: this.serializeRecord(row, 'show') });
  }

  /** 422 `{ errors, message: "Failed to update <ResourceName>" }`. */
  updateFailAction(errors: ErrorMessages): unknown {
    return this.render(422, { errors, message: `Failed to update ${this.resource.naming.humanName}` });
  }

  /** 200 `{ message: "<ResourceName> successfully deleted" }`. */
  destroySuccessAction(): unknown {
    return this.render(200, { message: `${this.resource.naming.humanName} successfully deleted` });
  }

  /** 422 `{ errors: { base: [...] }, message: "Failed to delete <ResourceName>" }`. */
  destroyFailAction(errors: ErrorMessages): unknown {
    const { base = [], ...others } = errors;
    return this.render(422, { errors: { base: [...base, ...Object.values(others).flat()] }, message: `Failed to delete ${this.resource.naming.humanName}` });
  }

  /** The records of a page, each on `view`. */
  serializeRecords(rows: readonly RecordRow[], view: View): Record<string, unknown>[] {
    return rows.map((row) => this.serializeRecord(row, view));
  }

  /** One record: a key per field visible on `view`. */
  serializeRecord(row: RecordRow, view: View): Record<string, unknown> {
    const record: Record<string, unknown> = {};
    for (const field of this.resource.fieldsOn(view)) record[field.name] = this.serializeFieldValue({ field, row, view });
    return record;
  }

  /** The JSON value of one field of one record. */
  serializeFieldValue(value: FieldValue): unknown {
    return fieldJson(value);
  }
}

/** Whether a value is a controller class the runtime can route to (checked by shape). */
export function isControllerClass(value: unknown): value is typeof ResourcesController {
  return typeof value === 'function' && typeof (value as { prototype?: { process?: unknown } }).prototype?.process === 'function' && typeof (value as { skipBeforeAction?: unknown }).skipBeforeAction === 'function';
}
