import type { FastifyRequest } from 'fastify';
import { secretsEqual, type SessionData } from '@panel/core';
import { InvalidAuthenticityTokenError } from '../errors/api-errors.js';

/**
 * What happens to an unsafe request (not GET, HEAD or OPTIONS) without a valid CSRF token:
 * `nullSession` (the default) runs it with an empty session and raises nothing; `exception`
 * refuses it with 422; `none` does not check.
 */
export type CsrfStrategy = 'nullSession' | 'exception' | 'none';

/** The header a browser client sends the session's CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

/** A controller class as CSRF protection sees it: its `setupCsrfProtection()` declares its strategy. */
interface CsrfProtected {
  setupCsrfProtection(): void;
}

/**
 * The strategy of a class whose `setupCsrfProtection()` declares none: no check (an override
 * with an empty body turns it off). The base class's own declares the spec's `nullSession`.
 */
const UNDECLARED: CsrfStrategy = 'none';

// Each controller class's settled strategy: what its setupCsrfProtection() declared, run once.
const strategies = new WeakMap<object, CsrfStrategy>();
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Records a class's strategy (`protectFromForgery`). */
export function declareCsrfStrategy(cls: object, strategy: CsrfStrategy): void {
  if (strategy !== 'nullSession' && strategy !== 'exception' && strategy !== 'none') {
    throw new TypeError(`protectFromForgery: with must be "nullSession", "exception" or "none", instead got ${JSON.stringify(strategy)}.`);
  }
  strategies.set(cls, strategy);
}

/**
 * Settles a controller class's strategy once, at boot (or at its first request, for a class the
 * routes did not draw): its `setupCsrfProtection()` runs and whatever it declared holds; a class
 * whose override declares nothing is unprotected.
 */
export function settleCsrfStrategy(cls: CsrfProtected): CsrfStrategy {
  strategies.delete(cls);
  cls.setupCsrfProtection();
  const strategy = strategies.get(cls) ?? UNDECLARED;
  strategies.set(cls, strategy);
  return strategy;
}

/**
 * Checks the CSRF token of a request against its session. Returns whether the request keeps
 * its session; throws under the `exception` strategy.
 */
export function verifyAuthenticity(cls: object, request: FastifyRequest, session: SessionData | null): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const strategy = strategies.get(cls) ?? settleCsrfStrategy(cls as CsrfProtected);
  if (strategy === 'none') return true;
  const expected = session?.csrfToken;
  const presented = request.headers[CSRF_HEADER];
  if (typeof expected === 'string' && typeof presented === 'string' && secretsEqual(expected, presented)) return true;
  if (strategy === 'exception') throw new InvalidAuthenticityTokenError();
  return false;
}
