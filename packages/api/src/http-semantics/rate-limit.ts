import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyRateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { PanelConfigError, type Panel } from '@panel/core';
import { TooManyRequestsError } from '../errors/api-errors.js';
import { PostgresRateLimitStore } from './postgres-rate-limit-store.js';

/** Requests per credential and window by default: see docs/conditional-requests.md for the figure's reasons. */
export const DEFAULT_RATE_LIMIT_MAX = 1000;
/** The default window, in seconds. */
export const DEFAULT_RATE_LIMIT_WINDOW_SECONDS = 60;
/** The name of the limit in the `RateLimit-Policy` and `RateLimit` headers. */
export const RATE_LIMIT_POLICY_NAME = 'default';

/** The `rateLimit` option of `mountPanelApi`, as an app writes it. */
export interface RateLimitOptions {
  /** Requests a credential may make per window; default 1000. */
  max?: number;
  /** The window, in seconds; default 60. */
  windowSeconds?: number;
  /**
   * Where counters live: `'memory'` (default: this process), `'database'` (the panel's
   * PostgreSQL database, shared by every process on it; the table comes with
   * `runPanelMigrations`), or any `@fastify/rate-limit` store class (Redis…).
   */
  store?: 'memory' | 'database' | FastifyRateLimitStoreCtor;
}

/** The normalized option. */
export interface NormalizedRateLimitOptions {
  readonly max: number;
  readonly windowSeconds: number;
  readonly store: 'memory' | 'database' | FastifyRateLimitStoreCtor;
}

/** Validates the `rateLimit` option once, at boot; `false` turns limits off. */
export function normalizeRateLimitOptions(options: RateLimitOptions | false | undefined): NormalizedRateLimitOptions | false {
  if (options === false) return false;
  const { max = DEFAULT_RATE_LIMIT_MAX, windowSeconds = DEFAULT_RATE_LIMIT_WINDOW_SECONDS, store = 'memory' } = options ?? {};
  if (!Number.isInteger(max) || max < 1) throw new PanelConfigError(`mountPanelApi: rateLimit.max must be a positive whole number of requests, instead got ${JSON.stringify(max)}. Fix: leave it out for ${DEFAULT_RATE_LIMIT_MAX}, or pass rateLimit: false to turn limits off.`);
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1) throw new PanelConfigError(`mountPanelApi: rateLimit.windowSeconds must be a positive whole number of seconds, instead got ${JSON.stringify(windowSeconds)}. Fix: leave it out for ${DEFAULT_RATE_LIMIT_WINDOW_SECONDS}.`);
  if (store !== 'memory' && store !== 'database' && typeof store !== 'function') throw new PanelConfigError(`mountPanelApi: rateLimit.store must be 'memory', 'database' or a @fastify/rate-limit store class, instead got ${JSON.stringify(store)}.`);
  return Object.freeze({ max, windowSeconds, store });
}

/** The limiter `createRateLimit()` makes. */
type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/** One credential's budget for this request. */
interface Budget {
  readonly key: string;
  readonly max: number;
}

/**
 * The API's per-credential rate limit, on `@fastify/rate-limit` (its `createRateLimit`, with the
 * in-process store or a shared one): the controller spends one request of the credential's
 * budget once it knows the credential, and every answer carries the IETF headers
 * `RateLimit-Policy: "default";q=<max>;w=<window>` and `RateLimit: "default";r=<remaining>;t=<seconds to reset>`.
 * Over the limit: 429 `{ "error": "Too Many Requests" }` with `Retry-After`.
 */
export class ApiRateLimit {
  readonly options: NormalizedRateLimitOptions;
  readonly #limiter: Limiter;
  readonly #budgets: WeakMap<FastifyRequest, Budget>;
  readonly #spent = new WeakSet<FastifyRequest>();

  constructor(options: NormalizedRateLimitOptions, limiter: Limiter, budgets: WeakMap<FastifyRequest, Budget>) {
    this.options = options;
    this.#limiter = limiter;
    this.#budgets = budgets;
  }

  /**
   * Spends `units` (default one) of `key`'s budget (`max` when the credential has its own
   * limit), once per request; sets the headers, and throws the 429 when the budget is spent.
   */
  /** Whether this request spent already (its controller ran, or the scope's hook). */
  hasSpent(request: FastifyRequest): boolean {
    return this.#spent.has(request);
  }

  // Not async itself: the request's one async call is `#spendUnits` (a promise fewer on every request).
  spend(request: FastifyRequest, reply: FastifyReply, key: string, max = this.options.max, units = 1): Promise<void> {
    if (this.#spent.has(request)) return Promise.resolve();
    this.#spent.add(request);
    this.#budgets.set(request, { key, max });
    return this.#spendUnits(request, reply, units);
  }

  /**
   * Spends `units` more of the budget this request already spent from (`spend`): what an
   * upload's bytes weigh beyond what its declared length was charged. Over the limit: the
   * headers and the 429, as `spend` answers it.
   */
  spendMore(request: FastifyRequest, reply: FastifyReply, units: number): Promise<void> {
    if (!this.#spent.has(request) || units < 1) return Promise.resolve();
    return this.#spendUnits(request, reply, units);
  }

  /**
   * Counts `units` on the request's budget: a request worth several (a batch's operations, an
   * upload's MiB) counts each, stopping at the first over the limit (`isAllowed`: an allow-listed
   * request, never limited); then the headers, and the 429 when the budget is spent.
   */
  async #spendUnits(request: FastifyRequest, reply: FastifyReply, units: number): Promise<void> {
    let result = await this.#limiter(request);
    for (let spent = 1; spent < units && !result.isAllowed && !result.isExceeded; spent += 1) result = await this.#limiter(request);
    if (result.isAllowed) return;
    reply.header('ratelimit-policy', `"${RATE_LIMIT_POLICY_NAME}";q=${result.max};w=${this.options.windowSeconds}`);
    reply.header('ratelimit', `"${RATE_LIMIT_POLICY_NAME}";r=${result.remaining};t=${result.ttlInSeconds}`);
    if (result.isExceeded) throw new TooManyRequestsError(Math.max(1, result.ttlInSeconds));
  }
}

/**
 * Registers `@fastify/rate-limit` on the API's scope (no route of its own: `global: false`) and
 * answers the limit the controllers and the scope's hook spend from.
 */
export async function registerRateLimit(api: FastifyInstance, panel: Panel, options: NormalizedRateLimitOptions): Promise<ApiRateLimit> {
  const budgets = new WeakMap<FastifyRequest, Budget>();
  const database = panel.database.db;
  const store: FastifyRateLimitStoreCtor | undefined =
    options.store === 'memory' ? undefined : options.store === 'database' ? (class extends PostgresRateLimitStore { constructor() { super(database); } } as unknown as FastifyRateLimitStoreCtor) : options.store;
  await api.register(fastifyRateLimit, {
    global: false,
    timeWindow: options.windowSeconds * 1000,
    max: (request: FastifyRequest) => budgets.get(request)?.max ?? options.max,
    keyGenerator: (request: FastifyRequest) => budgets.get(request)?.key ?? `address:${request.ip}`,
    // The in-process store keeps this many credentials' counters (least recently used go first).
    cache: 100_000,
    ...(store ? { store } : {}),
  });
  return new ApiRateLimit(options, api.createRateLimit(), budgets);
}
