import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { isUtf8 } from 'node:buffer';
import fastifyCookie from '@fastify/cookie';
import fastifyPlugin from 'fastify-plugin';
import { checkResourceSchema } from '@panel/core';
import { BadRequestError } from '../errors/api-errors.js';
import { apiErrorHandler } from '../errors/error-reply.js';
import { NotFoundError } from '../errors/api-errors.js';
import { discoverControllers } from '../routing/discover-controllers.js';
import { spendForRefusedRequest } from '../pipeline/refused-early.js';
import { drawRoutes, type RouteEntry } from '../routing/draw-routes.js';
import { normalizeMountOptions, type MountPanelApiOptions } from './mount-options.js';
import { requestHygiene } from './request-hygiene.js';
import { authenticationChallenge } from './authentication-challenge.js';
import { drawHealthRoutes } from './health-routes.js';
import { readYourWrites } from './read-your-writes.js';
import { warnWithoutRequestTimeout } from '../server/panel-server-options.js';
import { refuseMalformedHost } from '../server/host-header.js';
import { addPanelRootFallback } from './panel-root-fallback.js';
import { mountExtensions } from '../extensions/mount-extensions.js';
import { warnAboutTextKeyLength } from './key-length-warning.js';
import { warnAboutInactivePolicies, warnAboutMissingControllers } from './missing-controllers-warning.js';
import { buildOpenApiDocument, routeVersions, type CustomRoute } from '../openapi/build-openapi-document.js';
import { serveOpenApi } from '../openapi/serve-openapi.js';
import { documentActor } from '../openapi/document-actor.js';
import { carriesCredentials } from '../openapi/credential-carrier.js';
import { routeVersion } from '../routing/served-collections.js';
import { httpSemanticsFor } from '../http-semantics/mount-http-semantics.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The routes Panel API drew, with the mount path (empty when no controller was generated). */
    panelApiRoutes?: RouteEntry[];
  }
}

function jsonParser(api: FastifyInstance, bodyLimit: number): void {
  const parseJson = api.getDefaultJsonParser('error', 'error');
  api.removeAllContentTypeParsers();
  // An empty body with a JSON content type (common on DELETE) is no body, not an error. A body
  // that is not UTF-8 is refused: decoding it would replace the bad bytes with U+FFFD silently.
  api.addContentTypeParser<Buffer>('application/json', { parseAs: 'buffer', bodyLimit }, (request, body, done) => {
    if (body.length === 0) return done(null, undefined);
    if (!isUtf8(body)) return done(new BadRequestError('The body is not valid UTF-8'), undefined);
    return parseJson(request, body.toString('utf8'), done);
  });
}

/**
 * The Panel API engine as a Fastify plugin (`mount_panel_api`). At boot it discovers the
 * generated controllers under `app/controllers/panel/api/resources/<version>/` and draws
 * index, show, create, update and destroy for each, under `<at>/resources/<version>/<route_key>`.
 * With no controllers folder, or without the `api` feature on the license, it draws none and
 * every request under the mount path is a 404. When no route serves the panel's root path
 * (`/panel`), a GET there answers a JSON 404 that explains itself (see `addPanelRootFallback`).
 *
 * @example
 * await app.register(mountPanelApi, { panel, at: 'api' });
 */
const mountPanelApiPlugin: FastifyPluginAsync<MountPanelApiOptions> = async (app, rawOptions) => {
  const options = normalizeMountOptions(rawOptions);
  const { panel, mountPath } = options;
  warnWithoutRequestTimeout(app);
  if (!app.hasDecorator('panelApiRoutes')) {
    app.decorate('panelApiRoutes', []);
    // Once per app, for the first mount: the panel root explains itself when no panel page serves
    // it, and a malformed Host is refused on every route of the app.
    addPanelRootFallback(app, panel.config.rootPath, mountPath);
    refuseMalformedHost(app, panel.config.rootPath);
  }
  const licensed = panel.config.license.features.includes('api');
  // A resource whose table or column is missing would answer 500 to every request: the boot fails instead, naming each.
  if (licensed) await checkResourceSchema(panel.database, panel.resources);
  warnAboutInactivePolicies(app, panel);
  // The extensions (Edition B is one): a gate stage, routes, security schemes, rate-limit keys.
  const extensions = await mountExtensions(options.extensions, { app, panel, licensed, controllersDir: options.controllersDir });
  const discovered = licensed ? await discoverControllers(panel, options.controllersDir) : [];
  // Only generated controllers are served: say at boot what would answer 404 (unless an extension, like Edition B's catch-all, serves the others).
  if (licensed && !extensions.routesControllers) warnAboutMissingControllers(app, panel, options.controllersDir, discovered);
  warnAboutTextKeyLength(app, panel);
  const controllers = licensed ? await extensions.controllers(discovered) : discovered;
  await app.register(
    async (api) => {
      if (!api.hasDecorator('parseCookie')) await api.register(fastifyCookie);
      requestHygiene(api);
      readYourWrites(api, panel.database, { cookie: 'cookie-clients' });
      jsonParser(api, options.bodyLimit);
      const wwwAuthenticate = authenticationChallenge(options.openapi, Object.values(extensions.securitySchemes), mountPath);
      // A gated mount (Edition B) answers a refused policy with 403 JSON, not the panel's redirect.
      const gated = extensions.gate !== undefined;
      const errorHandler = apiErrorHandler({ rootPath: panel.config.rootPath, policyRefusal: gated ? 'forbidden' : 'redirect', ...(wwwAuthenticate ? { wwwAuthenticate } : {}) });
      // A request refused before its controller ran spends its credential's rate limit first (429 when spent).
      api.setErrorHandler(async (error, request, reply) => errorHandler(await spendForRefusedRequest(error, request, reply), request, reply));
      api.setNotFoundHandler((request, reply) => errorHandler(new NotFoundError(), request, reply));
      const semantics = await httpSemanticsFor(api, options, extensions.credentialLimit, extensions.gate);
      const table = drawRoutes(api, panel, controllers, { ...options, traversals: extensions.traversals, semantics, gate: extensions.gate });
      app.panelApiRoutes!.push(...table.map(({ runtime: _runtime, ...route }) => ({ ...route, path: `${mountPath}${route.path}` })));
      // The app's routes declared with a schema are in the OpenAPI document.
      const customRoutes: CustomRoute[] = [];
      let collecting = true;
      api.addHook('onRoute', (route) => {
        if (!collecting || !route.schema) return;
        for (const method of [route.method].flat()) if (method !== 'HEAD') customRoutes.push({ method, url: route.url, schema: route.schema as Record<string, unknown> });
      });
      // Custom routes are part of the engine: without the api feature they are 404 too.
      if (options.routes && licensed) await options.routes(api);
      collecting = false;
      // The health checks are part of the engine (404 without the api feature, like every route); the app's own routes win.
      if (options.healthPath !== false && licensed) drawHealthRoutes(api, panel, options.healthPath);
      await serveOpenApi(api, {
        mountPath,
        versions: routeVersions(table),
        options: options.openapi,
        build: (version, actor) =>
          buildOpenApiDocument({ panel, mountPath, version, routes: table, customRoutes, healthPath: options.healthPath, defaults: options.defaults, listModifiers: options.listModifiers, gated, gateSchemes: extensions.securitySchemes, options: options.openapi, httpSemantics: { rateLimit: options.rateLimit !== false, requireIfMatch: options.requireIfMatch }, actor }),
        actorOf: (version, request, reply) => documentActor(request, reply, table.filter((route) => routeVersion(route) === version || route.action === 'upload')),
        carriesCredentials: carriesCredentials([...Object.values(extensions.securitySchemes), ...Object.values(options.openapi.securitySchemes ?? {})], panel),
      });
    },
    { prefix: mountPath },
  );
};

/**
 * The plugin's metadata for Fastify: a Fastify other than 5 fails at `register` with
 * FST_ERR_PLUGIN_VERSION_MISMATCH ("fastify-plugin: panel-api - expected '5.x' fastify version,
 * '4.29.1' is installed"), not later with an obscure error. Not encapsulated: the engine
 * decorates the app it is registered on (panelApiRoutes); its own routes and handlers stay
 * inside the prefixed child scope.
 */
const FASTIFY_PLUGIN_META = { fastify: '5.x', name: 'panel-api' } as const;
fastifyPlugin(mountPanelApiPlugin, FASTIFY_PLUGIN_META);

/**
 * The Panel API engine as a Fastify plugin (`mount_panel_api`); see `mountPanelApiPlugin`.
 *
 * @example
 * await app.register(mountPanelApi, { panel, at: 'api' });
 */
export const mountPanelApi = mountPanelApiPlugin;
