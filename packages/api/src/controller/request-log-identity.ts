import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The identity a request's log lines carry once it is authenticated: the current user's `id`
 * (a string or a number), never anything else of the user or of the credential.
 */
export function userIdOf(user: unknown): string | number | undefined {
  const id = (user as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'number' || (typeof id === 'string' && id.length <= 128) ? id : undefined;
}

/**
 * Puts the current user's id (`userId`) on the request's logger, so the lines logged after
 * authentication, Fastify's "request completed" among them, say who made the request.
 */
export function logUserIdentity(request: FastifyRequest, reply: FastifyReply, user: unknown): void {
  const userId = userIdOf(user);
  if (userId === undefined) return;
  const log = request.log.child({ userId });
  request.log = log;
  reply.log = log;
}
