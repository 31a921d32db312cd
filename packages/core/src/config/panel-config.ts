import { PanelConfigError } from '../errors/panel-errors.js';
import { checkSessionSecrets } from '../session/session-codec.js';
import { normalizeCountStrategy, type CountStrategy, type CountStrategyInput } from '../records/count-strategy.js';

/** The panel's root URL path unless `rootPath` says otherwise. */
export const DEFAULT_ROOT_PATH = '/panel';

/** The features a license can enable. */
export type LicenseFeature = 'api' | 'authorization';

/** What the panel's license enables. */
export interface License {
  readonly features: readonly LicenseFeature[];
}

/** Panel options as an app writes them; every one is optional. */
export interface PanelConfigInput {
  /** Records per index page when the client sends no `per_page`. Default 24. */
  perPage?: number;
  /** The largest `per_page` honoured; larger values are clamped. Default 100. */
  maxPerPage?: number;
  /** The panel's root URL path. Default `/panel`. */
  rootPath?: string;
  /** The controller method that returns the current user after authentication. Default `currentUser`; `null` resolves no user. */
  currentUserMethod?: string | null;
  /** The identifier of the authorization client (the policy library). Default none. */
  authorizationClient?: string | null;
  /** The license; default `{ features: ['api'] }`. */
  license?: License;
  /**
   * The secret that seals the panel's session cookie (32 characters or more), or a list of them
   * for rotation: the first seals, every one opens. Without it, sessions are off.
   */
  sessionSecret?: string | readonly string[] | null;
  /** The session cookie's name. Default `panel_session`. */
  sessionCookie?: string;
  /**
   * How an index page finds `total_count`: `'exact'` (the default, `count(*)` on every page;
   * with `reuseUnchangedMs`, an earlier count of the same list answered while the database's
   * snapshot is unchanged), `'estimate'` / `{ strategy: 'estimate', exactBelow }` (the planner's estimate, exact below
   * the threshold) or `{ strategy: 'cached', maxAgeMs }` (an exact count reused for a bounded
   * time). A resource's `static count` overrides it. See docs/scaling.md#count-strategies.
   */
  count?: CountStrategyInput;
}

/** Panel options after validation: complete and frozen. */
export interface PanelConfig {
  readonly perPage: number;
  readonly maxPerPage: number;
  readonly rootPath: string;
  readonly currentUserMethod: string | null;
  readonly authorizationClient: string | null;
  readonly license: License;
  readonly sessionSecret: string | readonly string[] | null;
  readonly sessionCookie: string;
  /** The `count` option, validated; absent when it was not given (then index pages count exactly). */
  readonly count?: CountStrategy;
}

const FEATURES: readonly LicenseFeature[] = ['api', 'authorization'];

function show(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : typeof value === 'function' ? 'a function' : JSON.stringify(value) ?? String(value);
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new PanelConfigError(`Panel config: ${name} must be a positive whole number, instead got ${show(value)}. Fix: set ${name} to a number such as ${fallback}, or leave it out for the default ${fallback}.`);
  }
  return value;
}

function identifier(name: string, value: unknown, fallback: string | null, what: string, example: string): string | null {
  if (value === undefined) return fallback;
  if (value === null) return null;
  if (typeof value !== 'string' || !/^[A-Za-z_$][\w$]*$/.test(value)) {
    throw new PanelConfigError(`Panel config: ${name} must be ${what} such as "${example}", instead got ${show(value)}. Fix: set ${name} to an identifier string, or null.`);
  }
  return value;
}

function cookieName(value: unknown): string {
  if (value === undefined) return 'panel_session';
  if (typeof value !== 'string' || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(value)) {
    throw new PanelConfigError(`Panel config: sessionCookie must be a cookie name such as "panel_session", instead got ${show(value)}. Fix: use letters, digits and - _ . only, or leave it out for the default.`);
  }
  return value;
}

/**
 * Validates panel options once at startup and returns the frozen, complete config. A mistake
 * throws a `PanelConfigError` that names the option, the value and the fix.
 */
export function normalizePanelConfig(input: PanelConfigInput = {}, otherOptions: readonly string[] = []): PanelConfig {
  if (typeof input !== 'object' || input === null) {
    throw new PanelConfigError(`Panel config must be an object, instead got ${show(input)}.`);
  }
  const known = new Set(['perPage', 'maxPerPage', 'rootPath', 'currentUserMethod', 'authorizationClient', 'license', 'sessionSecret', 'sessionCookie', 'count']);
  for (const key of Object.keys(input)) {
    if (!known.has(key)) {
      throw new PanelConfigError(`Panel config: unknown option "${key}". Fix: use one of ${[...otherOptions, ...known].join(', ')}.`);
    }
  }
  const perPage = positiveInteger('perPage', input.perPage, 24);
  const maxPerPage = positiveInteger('maxPerPage', input.maxPerPage, 100);
  if (perPage > maxPerPage) {
    throw new PanelConfigError(`Panel config: perPage (${perPage}) is larger than maxPerPage (${maxPerPage}). Fix: raise maxPerPage or lower perPage.`);
  }
  const rootPath = input.rootPath ?? DEFAULT_ROOT_PATH;
  if (typeof rootPath !== 'string' || !/^\/[\w\-./]*$/.test(rootPath) || (rootPath.length > 1 && rootPath.endsWith('/'))) {
    throw new PanelConfigError(`Panel config: rootPath must be a URL path such as "/panel", instead got ${show(rootPath)}. Fix: start it with "/" and end it without one.`);
  }
  const license = input.license ?? { features: ['api'] };
  if (typeof license !== 'object' || license === null || !Array.isArray(license.features) || license.features.some((f) => !FEATURES.includes(f))) {
    throw new PanelConfigError(`Panel config: license must be { features: [...] } with features among ${FEATURES.map((f) => `"${f}"`).join(', ')}, instead got ${show(license)}.`);
  }
  if (input.sessionSecret !== undefined && input.sessionSecret !== null && typeof input.sessionSecret !== 'string' && !Array.isArray(input.sessionSecret)) {
    throw new PanelConfigError(`Panel config: sessionSecret must be a string, instead got ${show(input.sessionSecret)}.`);
  }
  const sessionSecret = input.sessionSecret === undefined || input.sessionSecret === null ? null : input.sessionSecret;
  const secrets = sessionSecret === null ? null : checkSessionSecrets(sessionSecret);
  return Object.freeze({
    perPage,
    maxPerPage,
    rootPath,
    currentUserMethod: identifier('currentUserMethod', input.currentUserMethod, 'currentUser', 'the name of a controller method', 'currentUser'),
    authorizationClient: identifier('authorizationClient', input.authorizationClient, null, "an authorization plug-in's identifier", 'policies'),
    license: Object.freeze({ features: Object.freeze([...license.features]) }),
    sessionSecret: typeof sessionSecret === 'string' ? sessionSecret : secrets,
    sessionCookie: cookieName(input.sessionCookie),
    ...(input.count === undefined ? {} : { count: normalizeCountStrategy(input.count, 'count') }),
  });
}
