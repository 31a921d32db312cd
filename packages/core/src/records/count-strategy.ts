import { PanelConfigError } from '../errors/panel-errors.js';

/** The smallest planner estimate the `estimate` strategy answers with, unless `exactBelow` says otherwise. */
export const DEFAULT_EXACT_BELOW = 100_000;

/** How many counts the `cached` strategy keeps per panel, unless `maxEntries` says otherwise (and how many an exact count reused while unchanged keeps). */
export const DEFAULT_MAX_CACHED_COUNTS = 1_000;

/**
 * How an index page finds `total_count`, as an app writes it (the panel's `count` option, or a
 * resource's `static count`):
 *
 * - `'exact'` (the default): `select count(*)` through the scope, on every page.
 * - `{ strategy: 'exact', reuseUnchangedMs, maxEntries? }`: the same exact total, but the
 *   count's statement skips the scan when PostgreSQL's snapshot is still the one an earlier
 *   count of the same list and scope saw, at most `reuseUnchangedMs` ago: no transaction has
 *   committed anywhere in the database since, so the rows it counted are the rows there are.
 *   Only a scope that reads the clock (`now()`) can be up to `reuseUnchangedMs` late. At most
 *   `maxEntries` (default 1,000) counts are kept per panel, the oldest going first.
 * - `'estimate'` or `{ strategy: 'estimate', exactBelow }`: the planner's estimate of the rows
 *   the scope lets through (`EXPLAIN` of the scoped list, no rows read); when that estimate is
 *   below `exactBelow` (default 100,000), the exact count instead, so small lists stay exact.
 * - `{ strategy: 'cached', maxAgeMs, maxEntries?, now? }`: an exact count, reused by this
 *   process for the same list and scope while it is at most `maxAgeMs` old; a write through
 *   this process to the table drops the table's counts. At most `maxEntries` (default 1,000)
 *   counts are kept, the oldest going first. `now` is the clock (default `Date.now`).
 */
export type CountStrategyInput =
  | 'exact'
  | 'estimate'
  | { readonly strategy: 'exact'; readonly reuseUnchangedMs?: number; readonly maxEntries?: number }
  | { readonly strategy: 'estimate'; readonly exactBelow?: number }
  | { readonly strategy: 'cached'; readonly maxAgeMs: number; readonly maxEntries?: number; readonly now?: () => number };

/** A count strategy after validation: complete and frozen. */
export type CountStrategy =
  | { readonly strategy: 'exact' }
  | { readonly strategy: 'exact'; readonly reuseUnchangedMs: number; readonly maxEntries: number }
  | { readonly strategy: 'estimate'; readonly exactBelow: number }
  | { readonly strategy: 'cached'; readonly maxAgeMs: number; readonly maxEntries: number; readonly now: () => number };

/** The default: the exact `count(*)` the specification's pagination envelope describes. */
export const EXACT_COUNT: CountStrategy = Object.freeze({ strategy: 'exact' });

const KEYS: Readonly<Record<CountStrategy['strategy'], readonly string[]>> = {
  exact: ['strategy', 'reuseUnchangedMs', 'maxEntries'],
  estimate: ['strategy', 'exactBelow'],
  cached: ['strategy', 'maxAgeMs', 'maxEntries', 'now'],
};

function show(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : typeof value === 'function' ? 'a function' : (JSON.stringify(value) ?? String(value));
}

/**
 * Validates a count strategy at startup. `option` names where it was written (`count`, or
 * `BlogPostResource.count`) for the message of the `PanelConfigError` a mistake throws.
 */
export function normalizeCountStrategy(value: unknown, option: string): CountStrategy {
  const failAt = (subject: string, got: unknown, problem: string, fix: string): never => {
    throw new PanelConfigError(`Panel config: ${subject} ${problem}, instead got ${show(got)}. Fix: ${fix}`);
  };
  const fail = (problem: string, fix: string): never => failAt(option, value, problem, fix);
  const shapes = "'exact', 'estimate', { strategy: 'estimate', exactBelow: 100000 } or { strategy: 'cached', maxAgeMs: 10000 }";
  if (value === undefined || value === 'exact') return EXACT_COUNT;
  if (value === 'estimate') return Object.freeze({ strategy: 'estimate', exactBelow: DEFAULT_EXACT_BELOW });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(`must be ${shapes}`, `use one of these, or leave ${option} out for the exact count.`);
  const input = value as Record<string, unknown>;
  const strategy = input.strategy;
  if (strategy !== 'exact' && strategy !== 'estimate' && strategy !== 'cached') {
    return fail(`needs strategy 'exact', 'estimate' or 'cached'`, `write ${shapes}.`);
  }
  const unknown = Object.keys(input).find((key) => !KEYS[strategy].includes(key));
  if (unknown !== undefined) return fail(`has the option "${unknown}", which the '${strategy}' strategy does not take`, `use only ${KEYS[strategy].join(', ')}.`);
  const whole = (name: string, raw: unknown, fallback: number | undefined, least: number): number => {
    if (raw === undefined && fallback !== undefined) return fallback;
    if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw < least) {
      return failAt(`${option}.${name}`, raw, `must be a whole number of at least ${least}`, `set ${name} to a number such as ${fallback ?? 10_000}${fallback === undefined ? '' : `, or leave it out for ${fallback}`}.`);
    }
    return raw;
  };
  if (strategy === 'exact') {
    const reuseUnchangedMs = input.reuseUnchangedMs === undefined ? 0 : whole('reuseUnchangedMs', input.reuseUnchangedMs, undefined, 0);
    if (reuseUnchangedMs === 0 && input.maxEntries !== undefined) {
      return failAt(`${option}.maxEntries`, input.maxEntries, 'keeps counts only when reuseUnchangedMs is set', 'set reuseUnchangedMs (such as 1000), or leave maxEntries out.');
    }
    if (reuseUnchangedMs === 0) return EXACT_COUNT;
    return Object.freeze({ strategy, reuseUnchangedMs, maxEntries: whole('maxEntries', input.maxEntries, DEFAULT_MAX_CACHED_COUNTS, 1) });
  }
  if (strategy === 'estimate') return Object.freeze({ strategy, exactBelow: whole('exactBelow', input.exactBelow, DEFAULT_EXACT_BELOW, 0) });
  const maxAgeMs = whole('maxAgeMs', input.maxAgeMs, undefined, 1);
  const maxEntries = whole('maxEntries', input.maxEntries, DEFAULT_MAX_CACHED_COUNTS, 1);
  if (input.now !== undefined && typeof input.now !== 'function') {
    return failAt(`${option}.now`, input.now, 'must be a function returning milliseconds since the epoch', 'leave now out for Date.now.');
  }
  return Object.freeze({ strategy, maxAgeMs, maxEntries, now: (input.now as (() => number) | undefined) ?? Date.now });
}
