import { isAbsolute, join } from 'node:path';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { Panel } from '@panel/core';
import { PanelConfigError } from '@panel/core';
import { CONTROLLERS_DIR } from '../routing/controller-layout.js';
import type { ListModifier } from '../querying/list-modifier.js';
import { LIST_MODIFIERS } from '../querying/list-query.js';
import { CursorCodec, cursorKeys, MIN_CURSOR_SECRET_LENGTH } from '../querying/cursor-codec.js';
import { normalizeOpenApiOptions, type OpenApiOptions } from '../openapi/openapi-options.js';
import { normalizeRateLimitOptions, type NormalizedRateLimitOptions, type RateLimitOptions } from '../http-semantics/rate-limit.js';
import { DEFAULT_IDEMPOTENCY_RETENTION_SECONDS } from '../http-semantics/idempotency-keys.js';
import type { ApiExtension } from '../extensions/api-extension.js';

/** What a write does with unknown or unpermitted keys: ignore them, or answer 422 naming them. */
export type UnpermittedAttributes = 'ignore' | 'reject';

/** Options of `mountPanelApi`, as an app writes them. */
export interface MountPanelApiOptions {
  /** The panel whose resources the API serves. */
  panel: Panel;
  /** The mount path, without or with a leading slash. Default `api` (so `/api`). */
  at?: string;
  /** The folder with one sub-folder of controllers per version; default `<appRoot>/app/controllers/panel/api/resources`. */
  controllersDir?: string;
  /** Largest accepted JSON body in bytes. Default 1 MiB. */
  bodyLimit?: number;
  /** Adds custom routes inside the API engine (they share its 404 and error handling). */
  routes?: (api: FastifyInstance) => void | Promise<void>;
  /** The HTTP methods the engine answers (`via:`); routes of other methods are not drawn, so they are 404. Default all. */
  via?: HTTPMethods | readonly HTTPMethods[];
  /**
   * Route constraints (`constraints:`): `host` (a string or RegExp), `subdomain` (the first
   * label of the host), and any other constraint Fastify supports (e.g. `version`). A request
   * that does not match is 404.
   */
  constraints?: { host?: string | RegExp; subdomain?: string; [name: string]: unknown };
  /** Default query parameters (`defaults:`), used when the request does not send them. */
  defaults?: Record<string, string>;
  /**
   * The list modifiers of every list this mount serves (index and traversal), in order: each
   * reads its query parameters, declares them (the routes' schemas, the OpenAPI document) and
   * narrows the list. Default `LIST_MODIFIERS` (page, sort, filters, search, fields); a
   * controller's own `static listModifiers` wins. See docs/querying.md, "Your own list modifier".
   */
  listModifiers?: readonly ListModifier[];
  /**
   * The secret cursors are signed with (`pagination=cursor`, an included list's `next`): a
   * string of at least 32 characters, or a list whose first signs and all open (rotation).
   * Default: derived from the panel's `sessionSecret`, else a random key per process (cursors
   * then do not survive a restart nor cross processes).
   */
  cursorSecret?: string | readonly string[];
  /**
   * What a write does with a key that no field has or that the actor may not write (the two
   * are never told apart): `ignore` (the default, as Rails' strong parameters) or `reject`
   * (422 naming every such key, Rails' `action_on_unpermitted_parameters = :raise`). A
   * controller's `static unpermittedAttributes` wins over it.
   */
  unpermittedAttributes?: UnpermittedAttributes;
  /**
   * Where the health checks are, under the mount: `<at>/<healthPath>` (liveness) and
   * `<at>/<healthPath>/ready` (readiness, touches the database). Default `health`; `false`
   * draws none.
   */
  healthPath?: string | false;
  /**
   * The extensions of this mount, in order (docs/extensions.md): each may add a gate stage,
   * routes, OpenAPI security schemes and rate-limit keys. Edition B is
   * `extensions: [configurePanelApi(…)]` (Edition B's extension; docs/extensions.md); without it the API is Edition A.
   */
  extensions?: readonly ApiExtension[];
  /** The earlier spelling of `extensions: [tokens]`, kept working: Edition B's `configurePanelApi()` result. */
  tokens?: ApiExtension;
  /**
   * The OpenAPI document served at `<at>/resources/<version>/openapi.json` (public by default)
   * and the optional reference page: security schemes, `info`, who may read it. See docs/openapi.md.
   */
  openapi?: OpenApiOptions;
  /**
   * Update and delete need `If-Match` (a missing one is 428 `{ "error": "Precondition Required" }`).
   * Default false; a controller may require it alone (`static requireIfMatch = true`).
   */
  requireIfMatch?: boolean;
  /** How long an `Idempotency-Key`'s answer is kept, in seconds; default 86400 (24 hours). */
  idempotencyKeyRetentionSeconds?: number;
  /**
   * The per-credential rate limit (default on: 1000 requests per 60 s per token, user or
   * client address, counted in this process); `false` turns it off. See docs/conditional-requests.md.
   */
  rateLimit?: RateLimitOptions | false;
}

/** Mount options after validation. */
export interface NormalizedMountOptions {
  readonly panel: Panel;
  readonly mountPath: string;
  readonly controllersDir: string;
  readonly bodyLimit: number;
  readonly routes: ((api: FastifyInstance) => void | Promise<void>) | undefined;
  readonly via: ReadonlySet<string> | undefined;
  readonly constraints: Readonly<Record<string, unknown>> | undefined;
  readonly defaults: Readonly<Record<string, string>>;
  readonly unpermittedAttributes: UnpermittedAttributes;
  readonly listModifiers: readonly ListModifier[];
  /** Signs and opens the cursors of this mount's lists. */
  readonly cursors: CursorCodec;
  readonly healthPath: string | false;
  readonly extensions: readonly ApiExtension[];
  readonly openapi: OpenApiOptions;
  readonly requireIfMatch: boolean;
  readonly idempotencyKeyRetentionSeconds: number;
  readonly rateLimit: NormalizedRateLimitOptions | false;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function normalizeVia(via: unknown): ReadonlySet<string> | undefined {
  if (via === undefined) return undefined;
  const list = typeof via === 'string' ? [via] : via;
  if (!Array.isArray(list) || list.length === 0 || list.some((m) => typeof m !== 'string' || !METHODS.includes(m.toUpperCase()))) {
    throw new PanelConfigError(`mountPanelApi: via must be HTTP methods such as ['GET'] or ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'], instead got ${JSON.stringify(via)}.`);
  }
  return new Set(list.map((m: string) => m.toUpperCase()));
}

function normalizeConstraints(constraints: unknown): Record<string, unknown> | undefined {
  if (constraints === undefined) return undefined;
  if (typeof constraints !== 'object' || constraints === null || Array.isArray(constraints)) {
    throw new PanelConfigError(`mountPanelApi: constraints must be an object such as { subdomain: 'api' } or { host: 'api.example.com' }, instead got ${JSON.stringify(constraints)}.`);
  }
  const { subdomain, ...rest } = constraints as Record<string, unknown>;
  if (subdomain === undefined) return rest;
  if (typeof subdomain !== 'string' || !/^[a-z0-9-]+$/i.test(subdomain)) {
    throw new PanelConfigError(`mountPanelApi: constraints.subdomain must be a host label such as "api", instead got ${JSON.stringify(subdomain)}.`);
  }
  if (rest.host !== undefined) {
    throw new PanelConfigError('mountPanelApi: constraints take host or subdomain, not both. Fix: write the full host, or only the subdomain.');
  }
  // A subdomain is the host's first label: api.example.com, api.localhost:3000.
  return { ...rest, host: new RegExp(`^${subdomain}\\.`, 'i') };
}

function normalizeDefaults(defaults: unknown): Record<string, string> {
  if (defaults === undefined) return {};
  if (typeof defaults !== 'object' || defaults === null || Object.values(defaults).some((v) => typeof v !== 'string')) {
    throw new PanelConfigError(`mountPanelApi: defaults must map parameter names to strings, such as { per_page: '10' }, instead got ${JSON.stringify(defaults)}.`);
  }
  const checked = defaults as Record<string, string>;
  for (const name of ['page', 'per_page'] as const) {
    if (checked[name] !== undefined && !/^[1-9]\d{0,8}$/.test(checked[name])) {
      throw new PanelConfigError(`mountPanelApi: defaults.${name} must be a positive integer written as a string, such as '10', instead got ${JSON.stringify(checked[name])}.`);
    }
  }
  if (checked.sort_direction !== undefined && checked.sort_direction !== 'asc' && checked.sort_direction !== 'desc') {
    throw new PanelConfigError(`mountPanelApi: defaults.sort_direction must be 'asc' or 'desc', instead got ${JSON.stringify(checked.sort_direction)}.`);
  }
  return { ...checked };
}

/** Whether `value` is an API extension (a name and a mount function). */
function isExtension(value: unknown): value is ApiExtension {
  return typeof value === 'object' && value !== null && typeof (value as ApiExtension).name === 'string' && typeof (value as ApiExtension).mount === 'function';
}

/** Validates `mountPanelApi` options once, at boot; a mistake names the option and the fix. */
export function normalizeMountOptions(options: MountPanelApiOptions): NormalizedMountOptions {
  const {
    panel,
    at = 'api',
    controllersDir,
    bodyLimit = 1024 * 1024,
    routes,
    via,
    constraints,
    defaults,
    unpermittedAttributes = 'ignore',
    listModifiers = LIST_MODIFIERS,
    cursorSecret,
    healthPath = 'health',
    tokens,
    extensions = [],
    openapi,
    requireIfMatch = false,
    idempotencyKeyRetentionSeconds = DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
    rateLimit,
  } = options ?? ({} as MountPanelApiOptions);
  if (unpermittedAttributes !== 'ignore' && unpermittedAttributes !== 'reject') {
    throw new PanelConfigError(`mountPanelApi: unpermittedAttributes must be 'ignore' or 'reject', instead got ${JSON.stringify(unpermittedAttributes)}. Fix: leave it out to ignore unknown and unpermitted keys.`);
  }
  if (!Array.isArray(listModifiers) || listModifiers.some((modifier) => typeof modifier?.parameters !== 'function' || typeof modifier?.read !== 'function')) {
    throw new PanelConfigError('mountPanelApi: listModifiers must be an array of list modifiers (each with parameters() and read()), such as [...LIST_MODIFIERS, myModifier]. Fix: see docs/querying.md, "Your own list modifier".');
  }
  if (typeof requireIfMatch !== 'boolean') {
    throw new PanelConfigError(`mountPanelApi: requireIfMatch must be true or false, instead got ${JSON.stringify(requireIfMatch)}.`);
  }
  if (!Number.isInteger(idempotencyKeyRetentionSeconds) || idempotencyKeyRetentionSeconds < 1) {
    throw new PanelConfigError(`mountPanelApi: idempotencyKeyRetentionSeconds must be a positive whole number of seconds, instead got ${JSON.stringify(idempotencyKeyRetentionSeconds)}. Fix: leave it out for 86400 (24 hours).`);
  }
  if (tokens !== undefined && !isExtension(tokens)) {
    throw new PanelConfigError('mountPanelApi: tokens must be the result of configurePanelApi() (Edition B\'s API extension; docs/edition-b-tokens.md). Fix: export const panelApi = configurePanelApi({ manageTokensIf }), then mountPanelApi({ panel, extensions: [panelApi] }); or leave it out for Edition A.');
  }
  if (!Array.isArray(extensions) || !extensions.every(isExtension)) {
    throw new PanelConfigError('mountPanelApi: extensions must be an array of API extensions (each with a name and mount()), such as [configurePanelApi({ manageTokensIf })] for Edition B. Fix: see docs/extensions.md.');
  }
  if (!panel || typeof panel.resource !== 'function') {
    throw new PanelConfigError('mountPanelApi: the panel option is required. Fix: app.register(mountPanelApi, { panel: await createPanel({ database }) }).');
  }
  if (typeof at !== 'string' || !/^\/?[\w\-.]+(\/[\w\-.]+)*$/.test(at)) {
    throw new PanelConfigError(`mountPanelApi: at must be a path such as "api" or "/panel/api", instead got ${JSON.stringify(at)}. Fix: pass a String of path segments.`);
  }
  if (!Number.isInteger(bodyLimit) || bodyLimit < 1) {
    throw new PanelConfigError(`mountPanelApi: bodyLimit must be a positive number of bytes, instead got ${JSON.stringify(bodyLimit)}. Fix: leave it out for 1 MiB.`);
  }
  if (routes !== undefined && typeof routes !== 'function') {
    throw new PanelConfigError('mountPanelApi: routes must be a function (api) => { api.get(...) }.');
  }
  if (healthPath !== false && (typeof healthPath !== 'string' || !/^[\w\-.]+(\/[\w\-.]+)*$/.test(healthPath))) {
    throw new PanelConfigError(`mountPanelApi: healthPath must be a path under the mount such as "health", or false, instead got ${JSON.stringify(healthPath)}. Fix: write it without a leading slash, or pass false to draw no health checks.`);
  }
  const secrets = cursorSecret === undefined ? [] : typeof cursorSecret === 'string' ? [cursorSecret] : cursorSecret;
  if (!Array.isArray(secrets) || (cursorSecret !== undefined && secrets.length === 0) || secrets.some((secret) => typeof secret !== 'string' || secret.length < MIN_CURSOR_SECRET_LENGTH)) {
    throw new PanelConfigError(`mountPanelApi: cursorSecret must be a string of at least ${MIN_CURSOR_SECRET_LENGTH} characters, or a list of them (the first signs). Fix: leave it out to derive the cursor key from the panel's sessionSecret.`);
  }
  const dir = controllersDir ?? join(panel.appRoot, CONTROLLERS_DIR);
  return Object.freeze({
    panel,
    mountPath: at.startsWith('/') ? at : `/${at}`,
    controllersDir: isAbsolute(dir) ? dir : join(panel.appRoot, dir),
    bodyLimit,
    routes,
    via: normalizeVia(via),
    constraints: normalizeConstraints(constraints),
    defaults: Object.freeze(normalizeDefaults(defaults)),
    unpermittedAttributes,
    listModifiers: Object.freeze([...listModifiers]),
    cursors: new CursorCodec(cursorKeys({ cursorSecret, sessionSecret: panel.config.sessionSecret }).keys),
    healthPath,
    extensions: Object.freeze([...extensions, ...(tokens ? [tokens] : [])]),
    openapi: normalizeOpenApiOptions(openapi),
    requireIfMatch,
    idempotencyKeyRetentionSeconds,
    rateLimit: normalizeRateLimitOptions(rateLimit),
  });
}
