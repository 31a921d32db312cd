import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OpenedSession, Panel } from '@panel/core';

/** The prefix browsers honour only on a `Secure`, `Path=/` cookie without a domain: no subdomain can plant or overwrite it. */
export const HOST_COOKIE_PREFIX = '__Host-';

/** The cookie options of the panel session. */
export interface SessionCookieOptions {
  readonly path: '/';
  readonly httpOnly: true;
  readonly sameSite: 'lax';
  readonly secure: boolean;
}

const loaded = new WeakMap<FastifyRequest, Promise<OpenedSession | null>>();

/**
 * Whether this request's session cookie is `Secure`: `session.secureCookies` when it is a
 * boolean; with `'auto'` (the default), when the request came over HTTPS as Fastify sees it
 * (`request.protocol`, which honours `X-Forwarded-Proto` only under `trustProxy`).
 */
export function secureSessionCookie(panel: Panel, request: FastifyRequest): boolean {
  const setting = panel.sessions?.options.secureCookies ?? 'auto';
  if (setting !== 'auto') return setting;
  if (request.protocol === 'https') return true;
  if (request.headers['x-forwarded-proto'] !== undefined) warnUntrustedProxy(panel, request);
  return false;
}

const warned = new WeakSet<Panel>();

/**
 * Says once per panel that a request came through a proxy that speaks of HTTPS while Fastify
 * does not trust it: the session cookie then goes without `Secure`. Trusting the header by
 * default would let any client claim HTTPS (and, through `X-Forwarded-For`, any address).
 */
function warnUntrustedProxy(panel: Panel, request: FastifyRequest): void {
  if (warned.has(panel) || !/\bhttps\b/i.test(String(request.headers['x-forwarded-proto']))) return;
  warned.add(panel);
  request.log.warn(
    'Panel session cookie: a request came with X-Forwarded-Proto: https, but Fastify does not trust its proxy, so the cookie is not Secure. ' +
      "Fix: behind a TLS-terminating proxy you run, create Fastify with trustProxy (the proxy's address, or true); or set session.secureCookies: true.",
  );
}

/** The session cookie's name for this request: `sessionCookie`, with the `__Host-` prefix when it is `Secure`. */
export function sessionCookieName(panel: Panel, request: FastifyRequest): string {
  return (secureSessionCookie(panel, request) ? HOST_COOKIE_PREFIX : '') + panel.config.sessionCookie;
}

/** `HttpOnly`, `SameSite=Lax`, `Path=/`, and `Secure` when served over HTTPS (see `secureSessionCookie`). */
export function sessionCookieOptions(panel: Panel, request: FastifyRequest): SessionCookieOptions {
  return { path: '/', httpOnly: true, sameSite: 'lax', secure: secureSessionCookie(panel, request) };
}

/**
 * The request's panel session, checked in full: sealed with a listed secret, within its
 * lifetime and idle timeout, and neither signed out nor revoked (one statement). Null
 * when there is none. Read once per request; when the cookie is due (activity over a minute
 * old, or sealed with an older secret), the reply carries it sealed again.
 */
export async function loadPanelSession(panel: Panel, request: FastifyRequest, reply: FastifyReply): Promise<OpenedSession | null> {
  const session = await readPanelSession(panel, request);
  const sessions = panel.sessions;
  if (sessions && session && sessions.needsRefresh(session) && !reply.sent) writePanelSession(panel, request, reply, sessions.reseal(session));
  return session;
}

/**
 * `loadPanelSession` without sealing the cookie again: for a route that may still answer as a
 * URL the app does not have (a screen the viewer may not see), whose reply must then carry no
 * cookie; it calls `loadPanelSession` once it serves the request.
 */
export function readPanelSession(panel: Panel, request: FastifyRequest): Promise<OpenedSession | null> {
  let session = loaded.get(request);
  if (!session) {
    session = verifyCookie(panel, request);
    loaded.set(request, session);
  }
  return session;
}

async function verifyCookie(panel: Panel, request: FastifyRequest): Promise<OpenedSession | null> {
  const sessions = panel.sessions;
  if (sessions && request.cookies === undefined) {
    throw new TypeError('loadPanelSession: this route cannot read cookies. Fix: await app.register(fastifyCookie) (from @fastify/cookie) before the routes that use the panel session.');
  }
  const value = request.cookies?.[sessionCookieName(panel, request)];
  if (!sessions || value === undefined) return null;
  return sessions.verify(value);
}

/** Sets the session cookie to `value` (from `sessions.start`, `confirm` or `reseal`) for the rest of this request too. */
export function writePanelSession(panel: Panel, request: FastifyRequest, reply: FastifyReply, value: string): void {
  reply.setCookie(sessionCookieName(panel, request), value, sessionCookieOptions(panel, request));
  loaded.set(request, Promise.resolve(panel.sessions?.read(value) ?? null));
}

/** Clears the session cookie in this browser only; `panel.sessions.revoke` refuses the copies elsewhere. */
export function clearPanelSession(panel: Panel, request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(sessionCookieName(panel, request), sessionCookieOptions(panel, request));
  loaded.set(request, Promise.resolve(null));
}
