import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { CursorCodec } from '../querying/cursor-codec.js';
import { gatedCollections, routeVersion, servedCollections } from './served-collections.js';
import fastifyMultipart from '@fastify/multipart';
import type { JsonSchema, Panel } from '@panel/core';
import type { ActionName } from '../controller/callback-chain.js';
import type { DiscoveredController } from './discover-controllers.js';
import type { ResourcesController } from '../controller/resources-controller.js';
import { settleCsrfStrategy } from '../controller/csrf-protection.js';
import { ControllerError } from '../errors/api-errors.js';
import { beforeActionsFor } from '../controller/callback-chain.js';
import { sortRequest } from '../querying/sort-modifier.js';
import { relative } from 'node:path';
import { responseSchemas } from '../serialization/response-schemas.js';
import { isTraversable } from '../actions/association-filter.js';
import type { HttpSemantics } from '../http-semantics/http-semantics.js';
import type { RequestGate } from '../controller/request-gate.js';
import { assembleRoute } from '../pipeline/assemble-route.js';
import { RequestContext, type RouteRuntime } from '../pipeline/request-context.js';
import { conditionalGetHooks } from '../http-semantics/conditional-get.js';
import { actionParameters, LIST_MODIFIERS, querystringSchema } from '../querying/list-query.js';
import type { ListModifier } from '../querying/list-modifier.js';

/** One route the runtime draws. */
export interface RouteEntry {
  readonly method: HTTPMethods;
  readonly path: string;
  readonly action: ActionName;
  readonly resourceName: string;
  readonly controller: typeof ResourcesController;
  readonly file: string;
  /** For `related` (Edition B): the association traversed. */
  readonly association?: string | undefined;
  /** For `related` (Edition B): the controller serving the association's target in the same version, whose rules the traversal answers with. */
  readonly targetController?: typeof ResourcesController | undefined;
}

/** A route as the mount drew it: its entry and the runtime its requests run. */
export interface DrawnRoute extends RouteEntry {
  readonly runtime: RouteRuntime;
}

const ROUTES: readonly { method: HTTPMethods; member: boolean; action: ActionName; suffix?: string }[] = [
  { method: 'GET', member: false, action: 'index' },
  { method: 'POST', member: false, action: 'create' },
  { method: 'POST', member: false, action: 'batch', suffix: '/batch' },
  { method: 'GET', member: true, action: 'show' },
  { method: 'PATCH', member: true, action: 'update' },
  { method: 'PUT', member: true, action: 'update' },
  { method: 'DELETE', member: true, action: 'destroy' },
];

/** The routes of the discovered controllers, relative to the mount path (`panel` may be any object with `resource()`, a `Panel` fits). */
export function routeTable(panel: Pick<Panel, 'resource'>, controllers: readonly DiscoveredController[]): RouteEntry[] {
  return controllers.flatMap(({ version, controller, resourceName, file }) => {
    const collection = `/resources/${version}/${panel.resource(resourceName).naming.routeKey}`;
    return ROUTES.map(({ method, member, action, suffix = '' }) => ({
      method,
      path: member ? `${collection}/:id` : `${collection}${suffix}`,
      action,
      resourceName,
      controller,
      file,
    }));
  });
}

/**
 * `POST /uploads` (under the mount, outside `resources/<version>/`), when a served resource has
 * a file field: answered by the controller of the first such resource, whose authentication (and
 * the mount's gate) the upload goes through.
 */
export function uploadRoutes(panel: Pick<Panel, 'resource'>, controllers: readonly DiscoveredController[]): RouteEntry[] {
  const serving = controllers.find(({ resourceName }) => panel.resource(resourceName).fields.some((field) => field.kind.attachments !== undefined));
  if (!serving) return [];
  return [{ method: 'POST', path: '/uploads', action: 'upload', resourceName: serving.resourceName, controller: serving.controller, file: serving.file }];
}

/**
 * Edition B's traversal routes: `GET …/<route_key>/:id/<association>` for each has_many, has_one
 * and has_and_belongs_to_many field whose target resource has a controller in the same version
 * (a traversal answers with the target's rules, so a target the version does not serve is not
 * reachable through it either).
 */
export function relatedRoutes(panel: Pick<Panel, 'resource'>, controllers: readonly DiscoveredController[]): RouteEntry[] {
  const serving = new Map(controllers.map((c) => [`${c.version}\u0000${c.resourceName}`, c.controller]));
  return controllers.flatMap(({ version, controller, resourceName, file }) => {
    const resource = panel.resource(resourceName);
    return resource.fields.filter(isTraversable).flatMap((field) => {
      const targetController = serving.get(`${version}\u0000${panel.resource(field.target!).name}`);
      if (!targetController) return [];
      const path = `/resources/${version}/${resource.naming.routeKey}/:id/${field.name}`;
      return [{ method: 'GET' as const, path, action: 'related' as const, resourceName, controller, file, association: field.name, targetController }];
    });
  });
}

const ACTIONS: readonly ActionName[] = ['index', 'show', 'create', 'update', 'destroy'];

/**
 * The validator of a route's `schema.querystring`: it lets every query through, because the
 * action checks the parameters after authentication, against what this actor may read, with
 * every problem in one 400 (`docs/decisions.md`, "List parameters declared once").
 */
const checkedByTheAction = () => () => true;

/**
 * The list modifiers of a route's list: its controller's `listModifiers` (for a traversal: the
 * target's controller's), else the mount's, else `LIST_MODIFIERS`.
 */
export function routeModifiers(route: Pick<RouteEntry, 'action' | 'controller' | 'targetController'>, mount: readonly ListModifier[] | undefined): readonly ListModifier[] {
  const lister = route.action === 'related' ? route.targetController : route.controller;
  return lister?.listModifiers ?? mount ?? LIST_MODIFIERS;
}

/** The route's `schema.querystring`, from the route's list modifiers (for a traversal: of its target); none for writes. */
function querystringOf(panel: Panel, route: RouteEntry, defaults: Readonly<Record<string, string>>, modifiers: readonly ListModifier[] | undefined): { querystring?: JsonSchema } {
  // A write's `include` (its answer's) is read by the action, as every write reads its input: the document lists it.
  if (route.action !== 'index' && route.action !== 'show' && route.action !== 'related') return {};
  const resource = panel.resource(route.resourceName);
  const listed = route.action === 'related' ? panel.resource(resource.fieldsByName.get(route.association!)!.target!) : resource;
  const parameters = actionParameters(route.action, listed, { config: panel.config, defaults, viewFields: (view) => listed.fieldsOn(view), modifiers: routeModifiers(route, modifiers), resolve: (name) => panel.resource(name) });
  return parameters.length === 0 ? {} : { querystring: querystringSchema(parameters) };
}

/**
 * Checks at boot what would otherwise fail on the first request: the current-user method and
 * every before-action exist as methods, and a default `sort_by` names a sortable field.
 */
function checkController(panel: Panel, controller: typeof ResourcesController, file: string, defaults: Readonly<Record<string, string>>): void {
  const has = (name: string) => typeof (controller.prototype as unknown as Record<string, unknown>)[name] === 'function';
  const method = panel.config.currentUserMethod;
  if (method !== null && !has(method)) {
    throw new ControllerError(`${file}: ${controller.name} has no method "${method}", the panel's currentUserMethod. Fix: define ${method}() in the BaseResourcesController, or set currentUserMethod to the method that returns the current user.`);
  }
  for (const action of ACTIONS) {
    const missing = beforeActionsFor(controller, action).find((name) => !has(name));
    if (missing) {
      throw new ControllerError(`${file}: ${controller.name} declares the before-action "${missing}", which is not a method of the controller. Fix: define ${missing}(), or correct the name given to beforeAction.`);
    }
  }
  if (defaults.sort_by !== undefined || defaults.sort_direction !== undefined) {
    try {
      const resource = panel.resource(controller.resourceName!);
      // At boot there is no actor: the defaults are checked against the index view as declared.
      sortRequest(resource, defaults, resource.fieldsOn('index'));
    } catch (error) {
      throw new ControllerError(`mountPanelApi: defaults do not fit the resource ${controller.resourceName}: ${(error as Error).message}.`);
    }
  }
}

/** How the routes are drawn: the mount options that shape them. */
export interface DrawOptions {
  readonly mountPath: string;
  readonly via: ReadonlySet<string> | undefined;
  readonly constraints: Readonly<Record<string, unknown>> | undefined;
  readonly defaults: Readonly<Record<string, string>>;
  /** The mount's `unpermittedAttributes` (a controller's own wins). */
  readonly unpermittedAttributes?: 'ignore' | 'reject' | undefined;
  /** Whether traversals (`GET …/:id/<association>`) are drawn: an extension asks for them (Edition B). */
  readonly traversals?: boolean | undefined;
  /** The mount's HTTP semantics (rate limit, `If-Match`, `Idempotency-Key`). */
  readonly semantics?: HttpSemantics | undefined;
  /** The mount's gate around authentication (an extension's: Edition B's token gate). */
  readonly gate?: RequestGate | undefined;
  /** The mount's body limit of single writes; a batch takes ten times as much. */
  readonly bodyLimit?: number | undefined;
  /** The mount's list modifiers (`listModifiers`; default `LIST_MODIFIERS`). */
  readonly listModifiers?: readonly ListModifier[] | undefined;
  /** The mount's cursor signer (`cursorSecret`). */
  readonly cursors: CursorCodec;
}


/** Draws the route table on a Fastify scope, each route with its response schemas; each request gets a fresh controller instance. */
export function drawRoutes(api: FastifyInstance, panel: Panel, controllers: readonly DiscoveredController[], options: DrawOptions): DrawnRoute[] {
  const { mountPath, via, constraints, defaults, traversals, unpermittedAttributes, semantics, gate, listModifiers = LIST_MODIFIERS, cursors } = options;
  const table = [...routeTable(panel, controllers), ...(traversals ? relatedRoutes(panel, controllers) : []), ...uploadRoutes(panel, controllers)].filter((route) => via === undefined || via.has(route.method));
  for (const { controller, file } of controllers) {
    settleCsrfStrategy(controller);
    checkController(panel, controller, relative(panel.appRoot, file), defaults);
  }
  const drawn: DrawnRoute[] = [];
  for (const route of table) {
    const Controller = route.controller;
    const resource = panel.resource(route.resourceName);
    // The route's stages, assembled now as data rather than at its first request.
    const served = servedCollections(table, routeVersion(route));
    const guarded = gatedCollections(table, routeVersion(route), gate);
    const runtime = assembleRoute({ panel, resource, action: route.action, controller: Controller, mountPath, defaults, unpermittedAttributes: unpermittedAttributes ?? 'ignore', gate, semantics, modifiers: listModifiers, association: route.association, targetController: route.targetController, served, guarded, traverses: traversals === true, cursors });
    // Uploads are multipart: their parser is registered on the upload route's own scope only (every other route takes JSON alone).
    const scope = route.action === 'upload' ? undefined : api;
    const draw = (on: FastifyInstance) => on.route({
      method: route.method,
      url: route.path,
      ...(constraints ? { constraints } : {}),
      // A batch carries up to `maxBatchOperations` bodies: ten times a single write's limit.
      ...(route.action === 'batch' && options.bodyLimit !== undefined ? { bodyLimit: options.bodyLimit * 10 } : {}),
      // Fastify compiles a serializer per status from `response`: the success body from the fields.
      // `querystring`: the list modifiers' parameters, checked by the action (`checkedByTheAction`).
      schema: { ...querystringOf(panel, route, defaults, listModifiers), ...(route.action === 'related' ? {} : { response: responseSchemas(resource, route.action, Controller) }) },
      validatorCompiler: checkedByTheAction,
      // ETag on the answers, 304 on a matching If-None-Match.
      ...conditionalGetHooks(route.action),
      config: { panelApiResource: true, panelApiRuntime: runtime },
      handler: (request, reply) => new Controller(new RequestContext(runtime, request, reply)).process(),
    });
    if (scope) draw(scope);
    else
      api.register(async (uploads) => {
        await uploads.register(fastifyMultipart, { limits: { files: 1, fields: 0, parts: 1 } });
        draw(uploads);
      });
    drawn.push({ ...route, runtime });
  }
  return drawn;
}
