import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { createRequire } from 'node:module';
import { PanelConfigError, type Panel } from '@panel/core';
import { RateLimitUnavailableError, TooManyRequestsError } from '../errors/api-errors.js';
import { PostgresRateLimitStore } from './postgres-rate-limit-store.js';

/** Requests per credential and window by default: see docs/conditional-requests.md for the figure's reasons. */
export const DEFAULT_RATE_LIMIT_MAX = 1000;
/** The default window, in seconds. */
export const DEFAULT_RATE_LIMIT_WINDOW_SECONDS = 60;
/** How long a request waits for a store that answers later (an app's Redis, the database) by default, in milliseconds. */
export const DEFAULT_RATE_LIMIT_TIMEOUT_MILLIS = 5000;
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
  /**
   * How long a request waits for a store that answers later (an app's Redis, the database), in
   * milliseconds; past it the request is 503 with `Retry-After`. Default 5000.
   */
  timeoutMillis?: number;
}

/** The normalized option. */
export interface NormalizedRateLimitOptions {
  readonly max: number;
  readonly windowSeconds: number;
  readonly store: 'memory' | 'database' | FastifyRateLimitStoreCtor;
  readonly timeoutMillis: number;
}

/** Validates the `rateLimit` option once, at boot; `false` turns limits off. */
export function normalizeRateLimitOptions(options: RateLimitOptions | false | undefined): NormalizedRateLimitOptions | false {
  if (options === false) return false;
  const { max = DEFAULT_RATE_LIMIT_MAX, windowSeconds = DEFAULT_RATE_LIMIT_WINDOW_SECONDS, store = 'memory', timeoutMillis = DEFAULT_RATE_LIMIT_TIMEOUT_MILLIS } = options ?? {};
  if (!Number.isInteger(max) || max < 1) throw new PanelConfigError(`mountPanelApi: rateLimit.max must be a positive whole number of requests, instead got ${JSON.stringify(max)}. Fix: leave it out for ${DEFAULT_RATE_LIMIT_MAX}, or pass rateLimit: false to turn limits off.`);
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1) throw new PanelConfigError(`mountPanelApi: rateLimit.windowSeconds must be a positive whole number of seconds, instead got ${JSON.stringify(windowSeconds)}. Fix: leave it out for ${DEFAULT_RATE_LIMIT_WINDOW_SECONDS}.`);
  if (store !== 'memory' && store !== 'database' && typeof store !== 'function') throw new PanelConfigError(`mountPanelApi: rateLimit.store must be 'memory', 'database' or a @fastify/rate-limit store class, instead got ${JSON.stringify(store)}.`);
  if (!Number.isInteger(timeoutMillis) || timeoutMillis < 1) throw new PanelConfigError(`mountPanelApi: rateLimit.timeoutMillis must be a positive whole number of milliseconds, instead got ${JSON.stringify(timeoutMillis)}. Fix: leave it out for ${DEFAULT_RATE_LIMIT_TIMEOUT_MILLIS}.`);
  return Object.freeze({ max, windowSeconds, store, timeoutMillis });
}

/** `@fastify/rate-limit`'s in-process store (an LRU map of counters), which the package does not export by name. */
const LocalStore = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore.js') as new (continueExceeding: boolean, exponentialBackoff: boolean, cache: number) => FastifyRateLimitStore;

/** One credential's budget for this request, and what the store last answered of it. */
interface Budget {
  readonly key: string;
  readonly max: number;
  last?: Counted;
}

/** Where a request keeps the budget it spent from: a property, not a `WeakMap` entry (no table insert on every request). */
const BUDGET = Symbol('panel.rateLimitBudget');
type BudgetedRequest = FastifyRequest & { [BUDGET]?: Budget };

/** What a store answers of one increment: the requests counted in the window, and the milliseconds left of it. */
interface Counted {
  readonly current: number;
  readonly ttl: number;
}

/** What a store's callback was given. */
interface StoreAnswer {
  readonly error: Error | null;
  readonly counted: Counted | undefined;
}

/**
 * One increment of `key` in `store`: the answer itself when the store calls back at once (the
 * in-process store always does), else a promise of it. So a request on the default store spends
 * its budget without a promise. A store that has not answered within `timeoutMillis` (a frozen
 * Redis, a client that queues commands while it reconnects) fails the request with
 * `RateLimitUnavailableError` (503); its late answer is ignored.
 */
function increment(store: FastifyRateLimitStore, key: string, windowMs: number, max: number, timeoutMillis: number): Counted | Promise<Counted> {
  let answered: StoreAnswer | undefined;
  let later: ((answer: StoreAnswer) => void) | undefined;
  store.incr(
    key,
    (error, counted) => {
      if (later) later({ error, counted });
      else answered = { error, counted };
    },
    windowMs,
    max,
  );
  if (answered) return settle(answered);
  let timer: NodeJS.Timeout | undefined;
  return new Promise<StoreAnswer>((resolve, reject) => {
    later = resolve;
    timer = setTimeout(() => reject(new RateLimitUnavailableError(`The rate-limit store did not answer within ${timeoutMillis} ms (rateLimit.timeoutMillis).`)), timeoutMillis);
  })
    .finally(() => clearTimeout(timer))
    .then(settle);
}

function settle({ error, counted }: StoreAnswer): Counted {
  if (error || !counted) throw error ?? new Error('The rate-limit store answered no count.');
  return counted;
}

const isPromise = <T>(value: T | Promise<T>): value is Promise<T> => value instanceof Promise;

/**
 * The API's per-credential rate limit, on a `@fastify/rate-limit` store (its in-process LRU
 * store by default, the panel's database, or an app's store class): the controller spends one
 * request of the credential's budget once it knows the credential, and every answer carries the
 * IETF headers `RateLimit-Policy: "default";q=<max>;w=<window>` and
 * `RateLimit: "default";r=<remaining>;t=<seconds to reset>`. Over the limit: 429
 * `{ "error": "Too Many Requests" }` with `Retry-After`. The store is asked directly (its
 * documented `incr` contract), not through the plugin's limiter: a request on the in-process
 * store spends without a promise (see docs/decisions.md, "The rate limit asks its store directly").
 */
export class ApiRateLimit {
  readonly options: NormalizedRateLimitOptions;
  readonly #store: FastifyRateLimitStore;
  readonly #windowMs: number;

  constructor(options: NormalizedRateLimitOptions, store: FastifyRateLimitStore) {
    this.options = options;
    this.#store = store;
    this.#windowMs = options.windowSeconds * 1000;
  }

  /** Whether this request spent already (its controller ran, or the scope's hook). */
  hasSpent(request: FastifyRequest): boolean {
    return (request as BudgetedRequest)[BUDGET] !== undefined;
  }

  /**
   * Spends `units` (default one) of `key`'s budget (`max` when the credential has its own
   * limit), once per request; sets the headers, and throws the 429 when the budget is spent.
   * Undefined when the store answered at once (the in-process store), else a promise.
   */
  spend(request: FastifyRequest, reply: FastifyReply, key: string, max = this.options.max, units = 1): void | Promise<void> {
    if ((request as BudgetedRequest)[BUDGET] !== undefined) return undefined;
    const budget: Budget = { key, max };
    (request as BudgetedRequest)[BUDGET] = budget;
    return this.#spendUnits(reply, budget, units);
  }

  /**
   * Spends `units` more of the budget this request already spent from (`spend`): what an
   * upload's bytes weigh beyond what its declared length was charged, a batch's operations
   * beyond the request's unit. Over the limit: the headers and the 429, as `spend` answers it.
   * `whole`: when the budget, as the store last answered it for this request, has fewer than
   * `units` left, the 429 comes at once and nothing more is spent (a batch refused for its size
   * spends what any refused request spends); a concurrent request may still take the units
   * meanwhile, and then the count stops at the first unit over the limit.
   */
  spendMore(request: FastifyRequest, reply: FastifyReply, units: number, { whole = false }: { whole?: boolean } = {}): void | Promise<void> {
    const budget = (request as BudgetedRequest)[BUDGET];
    if (!budget || units < 1) return undefined;
    if (whole && budget.last && budget.max - budget.last.current < units) {
      this.#answer(reply, budget.max, budget.last);
      throw new TooManyRequestsError(Math.max(1, Math.ceil(budget.last.ttl / 1000)));
    }
    return this.#spendUnits(reply, budget, units);
  }

  /**
   * Counts `units` on the budget: a request worth several (a batch's operations, an upload's MiB)
   * counts each, stopping at the first over the limit; then the headers, and the 429 when the
   * budget is spent.
   */
  #spendUnits(reply: FastifyReply, budget: Budget, units: number): void | Promise<void> {
    const next = (spent: number, counted: Counted): void | Promise<void> => {
      budget.last = counted;
      if (spent >= units || counted.current > budget.max) return this.#answer(reply, budget.max, counted);
      const more = increment(this.#store, budget.key, this.#windowMs, budget.max, this.options.timeoutMillis);
      return isPromise(more) ? more.then((c) => next(spent + 1, c)) : next(spent + 1, more);
    };
    const first = increment(this.#store, budget.key, this.#windowMs, budget.max, this.options.timeoutMillis);
    return isPromise(first) ? first.then((c) => next(1, c)) : next(1, first);
  }

  #answer(reply: FastifyReply, max: number, { current, ttl }: Counted): void {
    const seconds = Math.ceil(ttl / 1000);
    reply.header('ratelimit-policy', `"${RATE_LIMIT_POLICY_NAME}";q=${max};w=${this.options.windowSeconds}`);
    reply.header('ratelimit', `"${RATE_LIMIT_POLICY_NAME}";r=${Math.max(0, max - current)};t=${seconds}`);
    if (current > max) throw new TooManyRequestsError(Math.max(1, seconds));
  }
}

/**
 * The store of the API's counters: `@fastify/rate-limit`'s in-process LRU store (100,000
 * credentials, least recently used go first), the panel's database, or the app's store class,
 * built with the options `@fastify/rate-limit` gives a store class (`timeWindow` in milliseconds,
 * `max`).
 */
function counterStore(panel: Panel, options: NormalizedRateLimitOptions): FastifyRateLimitStore {
  if (options.store === 'memory') return new LocalStore(false, false, 100_000);
  if (options.store === 'database') return new PostgresRateLimitStore(panel.database.db);
  return new options.store({ global: false, max: options.max, timeWindow: options.windowSeconds * 1000, continueExceeding: false, exponentialBackoff: false });
}

/** The API's rate limit: its counters' store, and the limit the controllers and the scope's hook spend from. */
export function registerRateLimit(panel: Panel, options: NormalizedRateLimitOptions): ApiRateLimit {
  return new ApiRateLimit(options, counterStore(panel, options));
}
