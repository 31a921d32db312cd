import { PanelConfigError } from '../errors/panel-errors.js';
import { DEFAULT_SESSION_IDLE_TIMEOUT, DEFAULT_SESSION_LIFETIME } from './session-codec.js';

/** Whether the session cookie is `Secure` (and named with the `__Host-` prefix). */
export type SecureCookies = 'auto' | boolean;

/** The panel session's options, as `createPanel({ session: { … } })` takes them; all optional. */
export interface SessionOptionsInput {
  /** Seconds a session lives after sign-in, whatever its activity. Default 43200 (12 hours). */
  lifetime?: number;
  /** Seconds a session may go unused before it ends. Default 7200 (2 hours). */
  idleTimeout?: number;
  /** Seconds a password confirmation holds for sensitive actions (sudo mode). Default 300 (5 minutes). */
  confirmWindow?: number;
  /**
   * `'auto'` (default): `Secure` and the `__Host-` prefix when the request came over HTTPS
   * (`request.protocol`; behind a proxy, set Fastify's `trustProxy`). `true`: always; `false`: never.
   */
  secureCookies?: SecureCookies;
  /**
   * Failed sign-ins one client may make for one account before each further attempt from it
   * waits (30 seconds, doubling with each failure, at most `signInWindow`; refused meanwhile
   * with 429). Other clients are not slowed, so nobody can lock a user out. Default 5.
   */
  maxFailedSignInsPerAccount?: number;
  /** Failed sign-ins allowed per client address within `signInWindow`, whatever the accounts. Default 20. */
  maxFailedSignInsPerAddress?: number;
  /**
   * Failed sign-ins to one account from all new clients together (addresses that have not
   * signed in to it within 30 days) before each further attempt from a new client waits (30
   * seconds, doubling, at most half of `signInWindow`). A client the account signed in from is
   * not held by it, so guessing from many addresses cannot keep the user out. Default 20, above
   * what one client gets through its own waits in a window, so it bites only when many guess.
   */
  maxFailedSignInsPerAccountFromNewClients?: number;
  /** Seconds over which failed sign-ins are counted. Default 900 (15 minutes). */
  signInWindow?: number;
  /** The clock, in milliseconds since the epoch; default `Date.now`. Tests pass a controllable one. */
  now?: () => number;
}

/** The panel session's options after validation: complete and frozen. */
export interface SessionOptions {
  readonly lifetime: number;
  readonly idleTimeout: number;
  readonly confirmWindow: number;
  readonly secureCookies: SecureCookies;
  readonly maxFailedSignInsPerAccount: number;
  readonly maxFailedSignInsPerAddress: number;
  readonly maxFailedSignInsPerAccountFromNewClients: number;
  readonly signInWindow: number;
  readonly now: () => number;
}

const DEFAULTS = {
  lifetime: DEFAULT_SESSION_LIFETIME,
  idleTimeout: DEFAULT_SESSION_IDLE_TIMEOUT,
  confirmWindow: 5 * 60,
  maxFailedSignInsPerAccount: 5,
  maxFailedSignInsPerAddress: 20,
  maxFailedSignInsPerAccountFromNewClients: 20,
  signInWindow: 15 * 60,
} as const;

function show(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : typeof value === 'function' ? 'a function' : JSON.stringify(value) ?? String(value);
}

function positive(name: keyof typeof DEFAULTS, value: unknown): number {
  if (value === undefined) return DEFAULTS[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new PanelConfigError(`Panel config: session.${name} must be a positive whole number, instead got ${show(value)}. Fix: set session.${name} to a number such as ${DEFAULTS[name]}, or leave it out for the default ${DEFAULTS[name]}.`);
  }
  return value;
}

/**
 * Validates the session options once at startup and returns them complete and frozen. A mistake
 * throws a `PanelConfigError` naming the option, the value and the fix.
 */
export function normalizeSessionOptions(input: SessionOptionsInput = {}): SessionOptions {
  if (typeof input !== 'object' || input === null) {
    throw new PanelConfigError(`Panel config: session must be an object such as { lifetime: 43200 }, instead got ${show(input)}.`);
  }
  const known = [...Object.keys(DEFAULTS), 'secureCookies', 'now'];
  for (const key of Object.keys(input)) {
    if (!known.includes(key)) throw new PanelConfigError(`Panel config: unknown option "session.${key}". Fix: use one of ${known.join(', ')}.`);
  }
  const lifetime = positive('lifetime', input.lifetime);
  const idleTimeout = positive('idleTimeout', input.idleTimeout);
  if (idleTimeout > lifetime) {
    throw new PanelConfigError(`Panel config: session.idleTimeout (${idleTimeout}) is longer than session.lifetime (${lifetime}). Fix: lower idleTimeout or raise lifetime.`);
  }
  const secureCookies = input.secureCookies ?? 'auto';
  if (secureCookies !== 'auto' && typeof secureCookies !== 'boolean') {
    throw new PanelConfigError(`Panel config: session.secureCookies must be 'auto', true or false, instead got ${show(secureCookies)}. Fix: leave it out for 'auto' (Secure over HTTPS).`);
  }
  if (input.now !== undefined && typeof input.now !== 'function') {
    throw new PanelConfigError(`Panel config: session.now must be a function returning milliseconds since the epoch, instead got ${show(input.now)}. Fix: leave it out for Date.now.`);
  }
  return Object.freeze({
    lifetime,
    idleTimeout,
    confirmWindow: positive('confirmWindow', input.confirmWindow),
    secureCookies,
    maxFailedSignInsPerAccount: positive('maxFailedSignInsPerAccount', input.maxFailedSignInsPerAccount),
    maxFailedSignInsPerAddress: positive('maxFailedSignInsPerAddress', input.maxFailedSignInsPerAddress),
    maxFailedSignInsPerAccountFromNewClients: positive('maxFailedSignInsPerAccountFromNewClients', input.maxFailedSignInsPerAccountFromNewClients),
    signInWindow: positive('signInWindow', input.signInWindow),
    now: input.now ?? Date.now,
  });
}
