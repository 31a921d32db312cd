import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { CompiledResource, FieldAccess, Panel } from '@panel/core';
import type { ActionName } from '../controller/callback-chain.js';
import type { ControllerHooks, ListRequest, Rendered } from '../controller/controller-hooks.js';
import type { CursorCodec } from '../querying/cursor-codec.js';
import type { ListModifier } from '../querying/list-modifier.js';
import type { RequestActor, RequestCredential, RequestGate } from '../controller/request-gate.js';
import { RequestSession } from '../controller/request-session.js';
import type { HttpSemantics } from '../http-semantics/http-semantics.js';

/**
 * Everything one request's stages read and decide, in one object passed to each stage (see
 * `RouteRuntime.stages`): the request and reply, the route's panel, resource and action, who
 * acts (`credential`, `actor`, `user`), the write's `transaction`, the fields this actor reads
 * (`fieldAccess`), the checked list query, and what was rendered. The controller of the request
 * reads it (`this.context`); `Current.user` is the app's copy of `user`, which the framework
 * itself never reads.
 */
export class RequestContext {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  /** What every request of this route shares, decided at boot. */
  readonly route: RouteRuntime;
  readonly panel: Panel;
  readonly resource: CompiledResource;
  readonly action: ActionName;
  /** The controller instance serving the request (its overridable methods). */
  controller!: ControllerHooks;
  /** The panel session of the request (the cookie, the CSRF verdict). */
  session: RequestSession;
  /** The actor an extension's gate made from a credential it verified (Edition B's Bearer token); undefined otherwise. */
  authenticated: RequestActor | undefined;
  /** The resources the actor may not list (the policy's `index`), whose records the answer does not name (see `listableResourcesStage`). */
  unlistedResources: ReadonlySet<CompiledResource> | undefined;
  /** The actor once permitted: what the gate decided, else the panel's policies govern it. */
  actor: RequestActor;
  /** The current user (`currentUserMethod`'s answer), null until the current-user stage ran or when there is none. */
  user: unknown = null;
  /** While a write under `If-Match` or `Idempotency-Key` runs: its transaction, which the action's operations use. */
  transaction: Transaction<any> | undefined;
  /** The list's query, once its modifiers read it (index and traversal). */
  listQuery: ListRequest | undefined;
  /** The sparse fieldset of the request (`fields=`), once read; undefined: every field of the view. */
  fieldset: ReadonlySet<string> | undefined;
  /** For the target of a traversal: the parent's resource, its `:id` and the association (a cursor's list). */
  traversal: { readonly parent: CompiledResource; readonly id: string; readonly association: string } | undefined;
  /** What the action rendered, sent by the render stage. */
  rendered: Rendered | undefined;
  /**
   * Set by an action whose success answer wrote nothing (a partial batch in which every operation
   * failed): like a refusal, its `Idempotency-Key` is not stored, so a retry runs again.
   */
  wroteNothing = false;
  #fieldAccesses: Map<CompiledResource, FieldAccess> | undefined;

  constructor(route: RouteRuntime, request: FastifyRequest, reply: FastifyReply, session = new RequestSession()) {
    this.route = route;
    this.request = request;
    this.reply = reply;
    this.panel = route.panel;
    this.resource = route.resource;
    this.action = route.action;
    this.session = session;
    this.actor = route.actor;
  }

  /** The credential the gate verified (its id keys the rate limit and idempotency keys); undefined otherwise. */
  get credential(): RequestCredential | undefined {
    return this.authenticated?.credential;
  }

  /** Which fields this request's actor reads and writes, per resource, compiled once per request (see `fieldAccessFor`). */
  get fieldAccesses(): Map<CompiledResource, FieldAccess> {
    this.#fieldAccesses ??= new Map();
    return this.#fieldAccesses;
  }

  /** Path parameters (`id`). */
  get params(): Record<string, string> {
    return this.request.params as Record<string, string>;
  }

  /** Query string parameters, over the mount's `defaults`. */
  get query(): Record<string, unknown> {
    return { ...this.route.defaults, ...((this.request.query ?? {}) as Record<string, unknown>) };
  }
}

/**
 * One step of a request (authenticate, permit, rate limit, preconditions, action, …): it reads
 * and decides on the request's context. A stage that renders an answer (or sends the reply)
 * ends the request there. `run` returns a promise only when it has something to wait for.
 */
export interface Stage {
  /** What the stage is, for the route's description (`panel-api routes`, docs/architecture.md). */
  readonly name: StageName;
  /** For a before-action: the controller method it calls. */
  readonly method?: string | undefined;
  run(context: RequestContext): unknown;
}

/** The kinds of stage a route's list may hold. */
export type StageName = 'session' | 'before-action' | 'authenticate' | 'permit' | 'current-user' | 'listable-resources' | 'rate-limit' | 'preconditions' | 'action';

/** A controller class the runtime routes to: made with one request's context. */
export type ControllerClass = (new (context: RequestContext) => { process(): Promise<unknown> }) & { readonly name: string };

/**
 * What every request of one route shares, assembled once at boot (`assembleRoute`): the panel,
 * the resource and action, the mount's options, and the route's stages as data — a stage the
 * route does not use (no gate, no rate limit, no session, a read's preconditions) is not in the
 * list at all.
 */
export interface RouteRuntime {
  readonly panel: Panel;
  readonly resource: CompiledResource;
  readonly action: ActionName;
  /** The controller class serving the route. */
  readonly controller: ControllerClass;
  /** The path of the API mount (`/api`), where the `per_page` cookie lives. */
  readonly mountPath: string;
  /** The mount's default query parameters (`defaults:`). */
  readonly defaults: Readonly<Record<string, string>>;
  /** What a write does with a key the actor may not write: the controller's `unpermittedAttributes`, else the mount's. */
  readonly unpermittedAttributes: 'ignore' | 'reject';
  /** The extensions' gate around authentication when it guards this controller; undefined otherwise. */
  readonly gate: RequestGate | undefined;
  /** The mount's HTTP semantics (rate limit, `If-Match`, `Idempotency-Key`); undefined runs actions bare. */
  readonly semantics: HttpSemantics | undefined;
  /** Whether an update or delete needs `If-Match` (428 without it; a batch's operation without `if_match` too): the mount's `requireIfMatch` or the controller's. */
  readonly requireIfMatch: boolean;
  /** The route's list modifiers (its controller's `listModifiers`, else the mount's, else `LIST_MODIFIERS`). */
  readonly modifiers: readonly ListModifier[];
  /** Those of `modifiers` that also apply to one record (`onShow`). */
  readonly recordModifiers: readonly ListModifier[];
  /** The stages of a request, in order; the render stage follows them always. */
  readonly stages: readonly Stage[];
  /** The stages that say who a request is (session, CSRF, authentication, current user): run for a request refused before its controller, to spend its credential's rate limit. */
  readonly identify: readonly Stage[];
  /** For `related`: the association traversed. */
  readonly association?: string | undefined;
  /**
   * For update and destroy (and create, whose answer carries the ETag too): the controller's show
   * route (its stages up to the current user), when show skips the authentication this write
   * runs; `If-Match` then compares with the tag show gives this client (`showEntityTag`).
   */
  readonly showRoute?: RouteRuntime | undefined;
  /** For `related`: the route of the target's controller for `index`, whose stages up to the current user the traversal runs. */
  readonly target?: RouteRuntime | undefined;
  /** Set on a traversal's target route: its gate asks for `index` or `show`. */
  readonly traversing: boolean;
  /** Whether the controller keeps the default `hidesAssociation` (then an actor that omits nothing compiles no per-request omission). */
  readonly defaultHidesAssociation: boolean;
  /** The resources this route's version serves, each with its collection's path under the mount (`include`'s targets and `next` links). */
  readonly served: ReadonlyMap<string, string>;
  /** The resources of this route's version the mount's gate guards (empty without a gate): a public target's show leaves their associations out (`publicTargetOmits`). */
  readonly guarded: ReadonlySet<string>;
  /** The request's actor until a gate permits one: the policy actor, or on a public route of a gated mount one closed to the guarded resources (`publicActor`). */
  readonly actor: RequestActor;
  /** Whether the mount serves traversal (Edition B): an included list's `next` is then its traversal URL. */
  readonly traverses: boolean;
  /** Signs and opens the cursors of the mount's lists. */
  readonly cursors: CursorCodec;
  /** Whether the controller keeps the default `serializeFieldValue` (then an actor that presents values as they are gets each type's own serializer directly). */
  readonly defaultFieldValues: boolean;
  /**
   * The columns show reads: the view's when nothing but its serializers reads the row (no
   * policies, no `visible` rule on the view's fields, and the controller keeps `authorize`,
   * `serializeRecord`, `serializeRecords` and `serializeFieldValue`), else every column (a
   * policy, a rule or an override may read any).
   */
  readonly showColumns: 'view' | 'all';
  /**
   * Whether a show whose query string is empty reads nothing from it: the mount has no
   * `defaults` and every modifier of one record is a built-in one (a fieldset and `include` read
   * nothing when their parameters are absent). Then such a show skips reading its query.
   */
  readonly recordQueryFree: boolean;
}
