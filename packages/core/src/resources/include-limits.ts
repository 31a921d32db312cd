import { PanelConfigError } from '../errors/panel-errors.js';

/**
 * How far `include` may reach from a resource's records, as a resource writes it
 * (`static include`): each limit below its hard maximum.
 *
 * @example
 * static override include = { maxDepth: 3, maxEmbedded: 5000 };
 */
export interface IncludeLimitsInput {
  /** The most levels of a path (`comments.user` is 2); default 2, at most 3. */
  readonly maxDepth?: number;
  /** The most paths once each path's prefixes are added; default 5, at most 8. */
  readonly maxPaths?: number;
  /** The most records one request may embed, summed over its paths; default 2,500, at most 10,000. */
  readonly maxEmbedded?: number;
  /** The records of a to-many path per parent without `include_per_page`; default 5, from 1 to 20. */
  readonly perPage?: number;
}

/** The limits of `include` from a resource's records, complete and frozen. */
export interface IncludeLimits {
  readonly maxDepth: number;
  readonly maxPaths: number;
  readonly maxEmbedded: number;
  readonly perPage: number;
}

/** Each limit's default and hard maximum (the least is 1). */
const LIMITS: Readonly<Record<keyof IncludeLimits, { readonly fallback: number; readonly max: number }>> = {
  maxDepth: { fallback: 2, max: 3 },
  maxPaths: { fallback: 5, max: 8 },
  maxEmbedded: { fallback: 2_500, max: 10_000 },
  perPage: { fallback: 5, max: 20 },
};

/** The limits of a resource without `static include`. */
export const DEFAULT_INCLUDE_LIMITS: IncludeLimits = Object.freeze({ maxDepth: 2, maxPaths: 5, maxEmbedded: 2_500, perPage: 5 });

/** Checks a resource's `static include` at boot; a mistake names the option, the value and the fix. */
export function normalizeIncludeLimits(value: unknown, option: string): IncludeLimits {
  if (value === undefined) return DEFAULT_INCLUDE_LIMITS;
  const fix = `Fix: static include = { maxDepth: 2, maxPaths: 5, maxEmbedded: 2500, perPage: 5 } (any of them), each within its maximum (${Object.entries(LIMITS).map(([name, { max }]) => `${name} ${max}`).join(', ')}).`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new PanelConfigError(`Resource ${option} must be an object of limits, instead got ${JSON.stringify(value)}. ${fix}`);
  const input = value as Record<string, unknown>;
  const unknown = Object.keys(input).find((key) => !Object.hasOwn(LIMITS, key));
  if (unknown !== undefined) throw new PanelConfigError(`Resource ${option} has the option "${unknown}", which is not an include limit. ${fix}`);
  const limits = { ...DEFAULT_INCLUDE_LIMITS };
  for (const [name, { max }] of Object.entries(LIMITS) as [keyof IncludeLimits, { max: number }][]) {
    const given = input[name];
    if (given === undefined) continue;
    if (typeof given !== 'number' || !Number.isSafeInteger(given) || given < 1 || given > max) {
      throw new PanelConfigError(`Resource ${option}.${name} must be a whole number from 1 to ${max}, instead got ${JSON.stringify(given)}. ${fix}`);
    }
    limits[name] = given;
  }
  return Object.freeze(limits);
}
