/**
 * The token of an `Authorization: Bearer <token>` header (the scheme is case-insensitive, as
 * RFC 6750 says); undefined when the header is absent or names another scheme, so the request
 * falls through to `setupAuthentication`. An empty or malformed token is returned as it is: a
 * present Bearer token always wins, and a bad one is a 401. Tokens are never read from the
 * query string.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*bearer(?:\s+(.*))?$/i.exec(header);
  return match ? (match[1] ?? '').trim() : undefined;
}
