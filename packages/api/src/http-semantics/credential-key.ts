import type { FastifyRequest } from 'fastify';
import { Current } from '@panel/core';

/** What names the credential of a request, as the controller knows it after authentication. */
export interface CredentialSource {
  readonly request: FastifyRequest;
  /** Edition B: the token that authenticated the request. */
  readonly apiToken?: { readonly id: number } | undefined;
}

/**
 * The credential a request's idempotency keys and rate limit belong to: the Edition B token
 * (`token:<id>`), else the user the code-hook path resolved (`user:<id>`, `Current.user`),
 * else the client: `address:<ip>` for the rate limit (Fastify's `request.ip`, which honours
 * `trustProxy`), `public` for idempotency keys (a public endpoint's keys are the endpoint's).
 * Only what the server verified names it, never a value the client chose.
 */
export function credentialKey(source: CredentialSource, anonymous: 'address' | 'public'): string {
  if (source.apiToken) return `token:${source.apiToken.id}`;
  const user = Current.user as { id?: unknown } | null | undefined;
  if (user !== null && user !== undefined && (typeof user.id === 'number' || typeof user.id === 'string')) return `user:${user.id}`;
  return anonymous === 'address' ? `address:${source.request.ip}` : 'public';
}
