import type { FastifyRequest } from 'fastify';
import { PanelConfigError } from '@panel/core';

/** An OpenAPI object, as plain JSON (a Security Scheme, a Schema, an Operation). */
export type OpenApiObject = { [key: string]: unknown };

/** The `openapi` option of `mountPanelApi`: what the document says beyond the routes. */
export interface OpenApiOptions {
  /** The document's `info` (title, version, description…); default the title "Panel API" and the API version. */
  info?: OpenApiObject;
  /**
   * How clients authenticate, as OpenAPI Security Scheme objects by name: `{ type: 'http',
   * scheme: 'bearer' }`, `{ type: 'http', scheme: 'basic' }`, `{ type: 'apiKey', in: 'header',
   * name: 'Authorization' }`, `{ type: 'apiKey', in: 'cookie', name: '__Host-panel_session' }`.
   * Panel cannot see what `setupAuthentication` accepts: the integrator says it here.
   */
  securitySchemes?: Record<string, OpenApiObject>;
  /**
   * The security requirements of the routes that run `setupAuthentication`, e.g.
   * `[{ apiKey: [] }, { session: [] }]` (either); default every declared scheme, each alone.
   * Routes whose controller skips `setupAuthentication` carry `security: []`.
   */
  security?: Record<string, string[]>[];
  /**
   * Who may read `openapi.json` (and the docs page): `true` (default) anyone, `false` nobody
   * (the route is not drawn; `panel-api openapi` still writes the document), or a function of
   * the request that says yes or no (a no is a 404, as if the route did not exist).
   */
  public?: boolean | ((request: FastifyRequest) => boolean | Promise<boolean>);
  /** Serves the interactive reference (Scalar) at `<mount>/resources/<version>/docs`. Default false. */
  docs?: boolean;
}

/** Checks the `openapi` option at boot; a mistake names the option and the fix. */
export function normalizeOpenApiOptions(options: unknown): OpenApiOptions {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new PanelConfigError(`mountPanelApi: openapi must be an object such as { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'Authorization' } } }, instead got ${JSON.stringify(options)}.`);
  }
  const { securitySchemes, security, public: isPublic, docs } = options as OpenApiOptions;
  if (securitySchemes !== undefined && (typeof securitySchemes !== 'object' || securitySchemes === null || Object.values(securitySchemes).some((s) => typeof s !== 'object' || s === null || typeof s.type !== 'string'))) {
    throw new PanelConfigError('mountPanelApi: openapi.securitySchemes must map names to OpenAPI Security Scheme objects, each with a type (http, apiKey, oauth2, openIdConnect). Fix: { bearer: { type: "http", scheme: "bearer" } }.');
  }
  const known = new Set(Object.keys(securitySchemes ?? {}));
  const unknown = (security ?? []).flatMap((requirement) => Object.keys(requirement)).find((name) => !known.has(name));
  if (!Array.isArray(security ?? []) || unknown !== undefined) {
    throw new PanelConfigError(`mountPanelApi: openapi.security must be a list of requirements naming declared securitySchemes${unknown ? `, instead it names "${unknown}"` : ''}. Fix: declare the scheme in openapi.securitySchemes, or correct the name.`);
  }
  if (isPublic !== undefined && typeof isPublic !== 'boolean' && typeof isPublic !== 'function') {
    throw new PanelConfigError('mountPanelApi: openapi.public must be true, false, or a function (request) => boolean.');
  }
  if (docs !== undefined && typeof docs !== 'boolean') throw new PanelConfigError('mountPanelApi: openapi.docs must be true or false.');
  return options as OpenApiOptions;
}
