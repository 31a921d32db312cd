import type { RouteEntry } from '../routing/draw-routes.js';
import { gatedCollections, servedCollections } from '../routing/served-collections.js';
import { ref, resourceSchemas, SHARED_HEADERS, SHARED_SCHEMAS, withoutNullable } from './openapi-components.js';
import type { OpenApiObject, OpenApiOptions } from './openapi-options.js';
import { resourceOperation, type OperationContext } from './resource-operations.js';
import { withoutUnusedComponents } from './unused-components.js';
import { withSchemaBounds } from './schema-bounds.js';
import { HTTP_SEMANTICS_HEADERS, withHttpSemantics, type OpenApiHttpSemantics } from '../http-semantics/openapi-http-semantics.js';

/** A route the app drew inside the mount (`mountPanelApi({ routes })`) with a Fastify `schema`. */
export interface CustomRoute {
  readonly method: string;
  /** The full path, mount included (`/api/stats`). */
  readonly url: string;
  readonly schema: Readonly<Record<string, unknown>>;
}

/** What one version's document is built from. */
export interface OpenApiDocumentInput extends Omit<OperationContext, 'security'> {
  /** The mount path (`/api`). */
  readonly mountPath: string;
  /** The API version (`v1`). */
  readonly version: string;
  /** The drawn routes, relative to the mount (`routeTable`, plus the `related` traversals an extension asks for). */
  readonly routes: readonly RouteEntry[];
  readonly customRoutes?: readonly CustomRoute[];
  /** The health checks' path under the mount, or false when none is drawn. */
  readonly healthPath: string | false;
  readonly options: OpenApiOptions;
  /** The mount's rate limit and `requireIfMatch`; default as `mountPanelApi`'s defaults (limits on, `If-Match` optional). */
  readonly httpSemantics?: OpenApiHttpSemantics;
  /** The security schemes of the mount's gate (an extension's), listed first and required by default. */
  readonly gateSchemes?: Readonly<Record<string, OpenApiObject>>;
}

const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** Every version a route table serves, in order (`v1`, `v2`). */
export function routeVersions(routes: readonly RouteEntry[]): string[] {
  return [...new Set(routes.map((route) => route.path.split('/')[2]!))].sort();
}

function customOperation(route: CustomRoute): OpenApiObject {
  const { summary, description, tags, operationId, security, params, querystring, body, response } = withoutNullable(route.schema) as Record<string, any>;
  const parameters = [
    ...Object.entries<unknown>(params?.properties ?? {}).map(([name, schema]) => ({ name, in: 'path', required: true, schema })),
    ...Object.entries<unknown>(querystring?.properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: (querystring.required ?? []).includes(name), schema })),
  ];
  const responses = Object.fromEntries(
    Object.entries<Record<string, unknown>>(response ?? { default: {} }).map(([status, schema]) => {
      const { description: said, ...rest } = schema;
      return [status.toUpperCase(), { description: typeof said === 'string' ? said : 'Response.', ...(Object.keys(rest).length > 0 ? { content: { 'application/json': { schema: rest } } } : {}) }];
    }),
  );
  return {
    ...(operationId ? { operationId } : {}),
    ...(summary ? { summary } : {}),
    ...(description ? { description } : {}),
    ...(tags ? { tags } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
    responses,
    ...(security ? { security } : {}),
  };
}

function healthPaths(mountPath: string, healthPath: string): Record<string, OpenApiObject> {
  const ok = { description: 'OK.', content: { 'application/json': { schema: ref('HealthStatus') } } };
  return {
    [`${mountPath}/${healthPath}`]: { get: { operationId: 'checkLiveness', summary: 'Liveness: the process answers', description: 'Answers 200 while the process serves requests; it does not ask the database.', tags: ['Health'], responses: { 200: ok }, security: [] } },
    [`${mountPath}/${healthPath}/ready`]: {
      get: {
        operationId: 'checkReadiness',
        summary: 'Readiness: the database answers',
        description: 'Answers 200 when the database answers a query now, else 503 with Retry-After: take the instance out of rotation meanwhile.',
        tags: ['Health'],
        responses: { 200: ok, 503: { description: 'The database cannot answer now.', headers: { 'Retry-After': { required: true, schema: { type: 'integer', minimum: 1 } } }, content: { 'application/json': { schema: ref('Error') } } } },
        security: [],
      },
    },
  };
}

/**
 * The OpenAPI 3.1 document of one API version, from the routes that exist: each resource's
 * records and write bodies from its field types (`recordSchema`, `writeSchema`), the query
 * parameters from the config, every answer of the error registry a route can give, and the
 * integrator's security schemes; a relative `servers` entry, examples for path parameters and
 * bodies, and no component that nothing uses (so contract tools load it as it is). A pure function of its input: the served document and
 * `panel-api openapi` build the same bytes from the same routes.
 */
export function buildOpenApiDocument(input: OpenApiDocumentInput): OpenApiObject {
  const { options, mountPath, version } = input;
  const schemes: Record<string, OpenApiObject> = {
    ...input.gateSchemes,
    ...options.securitySchemes,
  };
  const security = [...(options.security ? [] : Object.keys(input.gateSchemes ?? {}).map((name) => ({ [name]: [] }))), ...(options.security ?? Object.keys(options.securitySchemes ?? {}).map((name) => ({ [name]: [] })))];
  const { actor } = input;
  // One actor's document: the routes that actor may call, the resources it reads.
  // The version's routes, and the mount's upload route (outside the versions: the writes of every version name its ids).
  const routes = input.routes.filter((route) => (route.path.startsWith(`/resources/${version}/`) || route.action === 'upload') && (actor === undefined || actor.calls(route)));
  const served = servedCollections(input.routes, version);
  // A route no gate guards (a public controller's) never reaches a target the gate guards (`include`).
  const guarded = gatedCollections(input.routes, version, input.gated ? true : undefined);
  const context: OperationContext = { ...input, security, guarded, requireIfMatch: input.httpSemantics?.requireIfMatch, resolve: (name) => (served.has(name) && (actor === undefined || actor.reads(name)) ? input.panel.resource(name) : undefined) };
  const publicContext: OperationContext = { ...context, resolve: (name) => (guarded.has(name) ? undefined : context.resolve!(name)) };
  const paths: Record<string, Record<string, OpenApiObject>> = {};
  const pathItem = (path: string): Record<string, OpenApiObject> => {
    paths[path] ??= {};
    return paths[path];
  };
  const schemas: Record<string, unknown> = {};
  const tags = new Map<string, string>();
  for (const route of routes) {
    const resource = input.panel.resource(route.resourceName);
    if (route.action === 'upload') tags.set('Uploads', 'Files received before the write that attaches them (an upload id, named under a file field).');
    else {
      tags.set(resource.name, resource.naming.humanName);
      Object.assign(schemas, resourceSchemas(resource, input.gated === true, context.resolve, actor));
    }
    const operation = withHttpSemantics(route, resourceOperation(route, route.controller.gated ? context : publicContext), input.httpSemantics);
    if (security.length === 0 && (operation.security as unknown[]).length > 0) delete operation.security;
    pathItem(openApiPath(`${mountPath}${route.path}`))[route.method.toLowerCase()] = operation;
  }
  for (const route of routes.filter((r) => r.action === 'related')) {
    const target = input.panel.resource(input.panel.resource(route.resourceName).fieldsByName.get(route.association!)!.target!);
    Object.assign(schemas, resourceSchemas(target, input.gated === true, context.resolve, actor));
  }
  for (const route of input.customRoutes ?? []) pathItem(openApiPath(route.url))[route.method.toLowerCase()] = customOperation(route);
  if (input.healthPath !== false) Object.assign(paths, healthPaths(mountPath, input.healthPath));
  return withSchemaBounds(withoutUnusedComponents({
    openapi: '3.1.0',
    info: { title: 'Panel API', version, ...options.info },
    // Relative, so the document holds behind any host; every path below carries the mount path. Its audience is the app's.
    servers: [{ url: '/', description: `This server: the host that serves the document, in production or local development alike (the API is mounted at ${mountPath}).`, 'x-internal': false }],
    tags: [...[...tags].sort(([a], [b]) => a.localeCompare(b)).map(([name, description]) => ({ name, description })), ...(input.healthPath !== false ? [{ name: 'Health', description: 'Liveness and readiness checks.' }] : [])],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: { ...Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))), ...SHARED_SCHEMAS },
      headers: { ...SHARED_HEADERS, ...HTTP_SEMANTICS_HEADERS },
      ...(Object.keys(schemes).length > 0 ? { securitySchemes: schemes } : {}),
    },
  }));
}
