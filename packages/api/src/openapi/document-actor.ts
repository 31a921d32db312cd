import type { FastifyReply, FastifyRequest } from 'fastify';
import { Current, isPanelError, noticingRecord, uploadLimit, type PolicyAction, type CompiledField, type CompiledResource, type FieldAccess, type View } from '@panel/core';
import { fieldAccessFor } from '../controller/record-access.js';
import { uploadableFields } from '../controller/upload-answer.js';
import { RequestContext, type ControllerClass, type RouteRuntime, type Stage, type StageName } from '../pipeline/request-context.js';
import type { ActionName } from '../controller/callback-chain.js';
import type { DrawnRoute, RouteEntry } from '../routing/draw-routes.js';

/**
 * What one actor may do, as its OpenAPI document says it: the routes it may call and, per
 * resource, the fields it reads and writes — each asked of the functions the API itself asks
 * (the route's own authentication, the gate's grants, the policy's `index`, `fieldAccess`).
 */
export interface DocumentActor {
  /** Whether the actor may call the route (its credential is accepted and permitted there). */
  calls(route: RouteEntry): boolean;
  /** Whether the actor may read records of the resource (it may call its index or show). */
  reads(resourceName: string): boolean;
  /** Which fields the actor reads on a resource it `reads` or may call a route of (`fieldAccess`, as its requests compile it). */
  access(resource: CompiledResource): FieldAccess;
  /** Which fields the actor reads on `resource` as a request to `from`'s routes asks them (`include`'s targets: the include graph of that request). */
  accessThrough(from: CompiledResource, resource: CompiledResource): FieldAccess;
  /** The fields of `view` the actor reads that a rule shows on some records only (readable, not queryable). */
  perRecord(resource: CompiledResource, view: View): ReadonlySet<CompiledField>;
  /**
   * What the actor's document depends on, as text: the routes it may call and, per resource,
   * the fields it reads, queries and writes. Two actors with the same signature read the same
   * document (the served documents are kept by it).
   */
  readonly signature: string;
  /** The fields the actor may write on some record (`FieldAccess.writableOnSome`). */
  writable(resource: CompiledResource, view: 'new' | 'edit'): readonly CompiledField[];
}

/** The stages that say who a request is and whether its actor may run the action; the rest (before-actions, rate limit, the action) do not run for the document. */
const IDENTIFYING: ReadonlySet<StageName> = new Set(['session', 'authenticate', 'permit', 'current-user']);
const identifying = new WeakMap<RouteRuntime, readonly Stage[]>();

function identifyingStages(runtime: RouteRuntime): readonly Stage[] {
  let stages = identifying.get(runtime);
  if (!stages) {
    stages = runtime.stages.filter((stage) => IDENTIFYING.has(stage.name));
    identifying.set(runtime, stages);
  }
  return stages;
}

/** The refusals that mean "not this actor": a credential not accepted (401), a missing grant (403), a policy's no. */
const REFUSALS = ['PANEL_API_ERR_UNAUTHENTICATED', 'PANEL_API_ERR_FORBIDDEN', 'PANEL_ERR_NOT_AUTHORIZED'] as const;
const isRefusal = (error: unknown) => REFUSALS.some((code) => isPanelError(error, code));

/** The policy methods a route asks (a batch, any of its operations'; an upload, none: the write that attaches it asks; the upload itself is refused, 403, to an actor who may write no file field). */
const POLICY_ACTIONS: Readonly<Record<ActionName, readonly PolicyAction[]>> = {
  index: ['index'],
  show: ['show'],
  create: ['create'],
  update: ['update'],
  destroy: ['destroy'],
  related: ['show'],
  batch: ['create', 'update', 'destroy'],
  upload: [],
};

/**
 * Whether the controller's policy check (`authorize`) lets the actor run `action` on some
 * record, as far as it can be told without one: the policy is given a stand-in record, and a
 * policy that reads it counts as allowing (only a record can answer it; the API asks it then).
 */
async function policyAllows(context: RequestContext, action: PolicyAction): Promise<boolean> {
  const probe = noticingRecord();
  try {
    await (action === 'index' ? context.controller.authorize('index') : context.controller.authorize(action, probe.record));
    return true;
  } catch (error) {
    if (probe.read()) return true;
    if (isRefusal(error)) return false;
    throw error;
  }
}

/** One route asked for the request's actor: its context, and the refusal when it refused. */
type Asked = { readonly context: RequestContext; readonly refused?: unknown };

/** Who the request is on the routes of one controller that identify it alike: its first such route's context, or its authentication's refusal. */
interface Identified {
  readonly context: RequestContext;
  readonly refused?: unknown;
}

/** What the routes of one document share: the credential the gate verified, and who the request is per controller and way of identifying it. */
interface Shared {
  authenticated: RequestContext['authenticated'];
  readonly identified: Map<ControllerClass, Map<string, Identified>>;
}

/** Routes of one controller whose identifying stages, the gate's permission aside, are the same identify the request alike. */
const identifiesAlike = (runtime: RouteRuntime) =>
  identifyingStages(runtime)
    .filter((stage) => stage.name !== 'permit')
    .map((stage) => `${stage.name}:${stage.method ?? ''}`)
    .join(',');

/**
 * Runs the identifying stages of the first route of its kind (see `identifiesAlike`): each in
 * turn, the gate's refusal of this action noted without stopping the others (the current user
 * then is known for the routes that follow), an authentication's refusal stopping them.
 */
async function identify(context: RequestContext, stages: readonly Stage[]): Promise<{ permitRefused?: unknown; authenticationRefused?: unknown }> {
  let permitRefused: unknown;
  for (const stage of stages) {
    try {
      await stage.run(context);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      if (stage.name !== 'permit') return { authenticationRefused: error };
      permitRefused = error;
    }
  }
  return { permitRefused };
}

/**
 * Asks one route for the request's actor: its identifying stages (the session, the
 * authentication with the gate, the gate's permission, the current user), then the
 * controller's policy check (`policyAllows`). The routes of one controller that identify the
 * request alike run its authentication and current user once: the others take them from the
 * first (its controller's state too) and run only the gate's permission, which depends on the
 * action. A credential the gate verified once is not verified again.
 */
async function ask(route: DrawnRoute, request: FastifyRequest, reply: FastifyReply, shared: Shared): Promise<Asked> {
  const { runtime } = route;
  const context = new RequestContext(runtime, request, reply);
  const controller = new runtime.controller(context);
  context.authenticated = shared.authenticated;
  let byKind = shared.identified.get(runtime.controller);
  if (!byKind) {
    byKind = new Map();
    shared.identified.set(runtime.controller, byKind);
  }
  const kind = identifiesAlike(runtime);
  const first = byKind.get(kind);
  // Each route's actor in a `Current` of its own, as each of its requests would have.
  return Current.run(async () => {
    try {
      if (first === undefined) {
        const { permitRefused, authenticationRefused } = await identify(context, identifyingStages(runtime));
        byKind.set(kind, { context, refused: authenticationRefused });
        shared.authenticated ??= context.authenticated;
        if (authenticationRefused !== undefined) return { context, refused: authenticationRefused };
        if (permitRefused !== undefined) return { context, refused: permitRefused };
      } else {
        if (first.refused !== undefined) return { context, refused: first.refused };
        // Who the first route found, and what its controller kept of it (`this.user`), for this route's controller.
        const { context: found } = first;
        const { context: _own, ...kept } = found.controller as unknown as Record<string, unknown>;
        Object.assign(controller, kept);
        context.session = found.session.share();
        context.authenticated = found.authenticated;
        context.user = found.user;
        if (runtime.panel.config.currentUserMethod !== null) Current.user = found.user;
        for (const stage of identifyingStages(runtime)) if (stage.name === 'permit') await stage.run(context);
      }
      const allowed = await Promise.all(POLICY_ACTIONS[route.action].map((action) => policyAllows(context, action)));
      if (allowed.length > 0 && !allowed.includes(true)) return { context, refused: 'policy' };
      if (route.action === 'upload' && uploadLimit(await uploadableFields(context.panel, (resource) => fieldAccessFor(context, resource))) === 0) return { context, refused: 'no file field' };
      return { context };
    } catch (error) {
      if (isRefusal(error)) return { context, refused: error };
      throw error;
    }
  });
}

/** Which route's context answers a resource's fields: its show, else its index, else any the actor may call. */
const PREFERENCE = ['show', 'index'];
const preference = (route: RouteEntry) => {
  const at = PREFERENCE.indexOf(route.action);
  return at === -1 ? PREFERENCE.length : at;
};

/**
 * The actor a request's credentials prove, over the routes of one version: each route is asked
 * as the API would ask it (see `ask`). When every route that authenticates refused the
 * credential, that refusal is thrown: the document answers the 401 the API answers. (The
 * document's request has spent one unit of the budget of the credential the gate verified, else
 * its address's, as every route of the mount that is not a resource's: `httpSemanticsFor`.)
 */
export async function documentActor(request: FastifyRequest, reply: FastifyReply, routes: readonly DrawnRoute[]): Promise<DocumentActor> {
  const shared: Shared = { authenticated: undefined, identified: new Map() };
  const called = new Set<RouteEntry>();
  const contexts = new Map<CompiledResource, { route: DrawnRoute; context: RequestContext }>();
  let unauthenticated: unknown;
  // A route that accepted the credential where it authenticates: none, and the credential is refused.
  let identified: RequestContext | undefined;
  for (const route of routes) {
    const asked = await ask(route, request, reply, shared);
    const authenticates = identifyingStages(route.runtime).some((stage) => stage.name === 'authenticate');
    if (asked.refused !== undefined) {
      if (authenticates && isPanelError(asked.refused, 'PANEL_API_ERR_UNAUTHENTICATED')) unauthenticated ??= asked.refused;
      continue;
    }
    called.add(route);
    if (authenticates) identified ??= asked.context;
    const resource = route.runtime.resource;
    const kept = contexts.get(resource);
    if (!kept || preference(route) < preference(kept.route)) contexts.set(resource, { route, context: asked.context });
  }
  // Refused by every route that authenticates (none accepted it): the API's 401.
  if (identified === undefined && unauthenticated !== undefined) throw unauthenticated;
  const reading = new Set([...called].filter((route) => route.action === 'index' || route.action === 'show').map((route) => route.resourceName));
  const writable = new Map<string, readonly CompiledField[]>();
  for (const [resource, { context }] of contexts) {
    const access = fieldAccessFor(context, resource);
    writable.set(`${resource.name} new`, await access.writableOnSome('create'));
    writable.set(`${resource.name} edit`, await access.writableOnSome('update'));
  }
  // A traversal also needs the target's records.
  const calls = (route: RouteEntry) => called.has(route) && (route.action !== 'related' || reading.has(traversedTarget(route as DrawnRoute)));
  const names = (fields: readonly CompiledField[]) => fields.map((field) => field.name).join(',');
  const signature = [
    routes.map((route) => (calls(route) ? '1' : '0')).join(''),
    ...[...contexts].map(([resource, { context }]) => {
      const fields = fieldAccessFor(context, resource);
      return [resource.name, ...(['index', 'show'] as const).flatMap((view) => [names(fields.readable(view)), names(fields.queryable(view))]), names(writable.get(`${resource.name} new`)!), names(writable.get(`${resource.name} edit`)!)].join('|');
    }),
  ].join('\n');
  const accessThrough = (from: CompiledResource, resource: CompiledResource) => {
    const kept = contexts.get(from);
    if (!kept) throw new Error(`documentActor: no route of ${from.name} is open to this actor`);
    return fieldAccessFor(kept.context, resource);
  };
  const access = (resource: CompiledResource) => accessThrough(resource, resource);
  return {
    signature,
    calls,
    reads: (name) => reading.has(name),
    access,
    accessThrough,
    perRecord: (resource, view) => {
      const queryable = new Set(access(resource).queryable(view));
      return new Set(access(resource).readable(view).filter((field) => !queryable.has(field)));
    },
    writable: (resource, view) => writable.get(`${resource.name} ${view}`) ?? [],
  };
}

/** The resource a traversal route lists. */
function traversedTarget(route: DrawnRoute): string {
  return route.runtime.resource.fieldsByName.get(route.association!)!.target!;
}
