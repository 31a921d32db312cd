import type { FastifyRequest } from 'fastify';

/** What names the credential of a request, once it is authenticated (a request's context has these). */
export interface CredentialSource {
  readonly request: FastifyRequest;
  /** The credential an extension's gate verified (Edition B's token). */
  readonly credential: { readonly id: number } | undefined;
  /** The current user the code-hook path resolved (null when none). */
  readonly user: unknown;
}

/**
 * The credential a request's idempotency keys and rate limit belong to: the credential an
 * extension's gate verified (`token:<id>`), else the user the code-hook path resolved
 * (`user:<id>`), else the client: `address:<ip>` (Fastify's `request.ip`, which honours
 * `trustProxy`) for the rate limit and for idempotency keys, so that one anonymous client never
 * replays another's stored answer; `public` for what an anonymous upload belongs to. Only what
 * the server verified names it, never a value the client chose.
 */
export function credentialKey(source: CredentialSource, anonymous: 'address' | 'public'): string {
  if (source.credential) return `token:${source.credential.id}`;
  const user = source.user as { id?: unknown } | null | undefined;
  if (user !== null && user !== undefined && (typeof user.id === 'number' || typeof user.id === 'string')) return `user:${user.id}`;
  return anonymous === 'address' ? `address:${source.request.ip}` : 'public';
}
