import type { OpenApiObject, OpenApiOptions } from '../openapi/openapi-options.js';

const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

/** The challenge of one declared Security Scheme, or undefined when HTTP has none for it (a cookie, a query key). */
function challenge(scheme: OpenApiObject, realm: string): string | undefined {
  if (scheme.type === 'http' && typeof scheme.scheme === 'string') {
    const name = scheme.scheme.toLowerCase();
    // Basic needs a realm (RFC 7617); the others are named as registered (`Bearer`, RFC 6750).
    if (name === 'basic') return `Basic realm=${quoted(realm)}, charset="UTF-8"`;
    return name === 'bearer' ? `Bearer realm=${quoted(realm)}` : `${scheme.scheme} realm=${quoted(realm)}`;
  }
  // A key in the Authorization header is sent as `Authorization: ApiKey <key>`.
  if (scheme.type === 'apiKey' && scheme.in === 'header' && String(scheme.name).toLowerCase() === 'authorization') return `ApiKey realm=${quoted(realm)}`;
  return undefined;
}

/**
 * The `WWW-Authenticate` of the mount's 401 answers (RFC 9110 §11.6.1): one challenge per
 * scheme the mount accepts in the `Authorization` header, its gate's (an extension's: Edition B's Bearer tokens) first, then
 * the schemes the integrator declares in `openapi.securitySchemes` (Panel cannot see what
 * `setupAuthentication` accepts otherwise). Undefined when none is declared that HTTP can name
 * (a session cookie alone).
 *
 * @example
 * authenticationChallenge({ securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } }, [], '/api');
 * // 'Bearer realm="/api"'
 */
export function authenticationChallenge(options: OpenApiOptions, gateSchemes: readonly OpenApiObject[], realm: string): string | undefined {
  const schemes = [...gateSchemes, ...Object.values(options.securitySchemes ?? {})];
  const challenges = [...new Set(schemes.map((scheme) => challenge(scheme, realm)).filter((value) => value !== undefined))];
  return challenges.length > 0 ? challenges.join(', ') : undefined;
}
