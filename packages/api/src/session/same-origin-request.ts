import type { FastifyRequest } from 'fastify';

/** The origin a URL header names (`https://shop.example:8443`), or undefined when it is not an absolute http(s) URL. */
function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? `${url.protocol}//${url.host}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a form post comes from a page of this site, by what the browser says of its origin
 * (OWASP's CSRF prevention, "verifying origin with standard headers"): `Sec-Fetch-Site` when
 * sent (`same-origin` or `none`, a URL the user typed), else `Origin` (`null`, sent by sandboxed
 * or privacy-redirected documents, is refused), else the origin of `Referer`; each compared with
 * the request's own origin (`request.protocol` and `request.host`, which follow
 * `X-Forwarded-*` only under Fastify's `trustProxy`). A request that carries none of them did
 * not come from a browser's cross-site form (browsers send `Origin` with every cross-origin
 * POST) and is allowed. The sign-in form, which has no session and so no session CSRF token
 * yet, is checked this way (login CSRF).
 *
 * @example
 * if (!isSameOriginRequest(request)) return reply.code(403).send('The form expired.');
 */
export function isSameOriginRequest(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  // Through the URL parser too, so a default port written out (`:80`) compares equal.
  const own = originOf(`${request.protocol}://${request.host}`)?.toLowerCase();
  if (own === undefined) return false;
  const origin = request.headers.origin;
  if (typeof origin === 'string') return originOf(origin)?.toLowerCase() === own;
  const referer = request.headers.referer;
  if (typeof referer === 'string') return originOf(referer)?.toLowerCase() === own;
  return true;
}
