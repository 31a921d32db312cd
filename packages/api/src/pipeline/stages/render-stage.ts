import type { FastifyReply } from 'fastify';
import type { RequestContext } from '../request-context.js';

/**
 * The last stage of every request: sends what was rendered (through the serializer Fastify
 * compiled from the route's response schema), 204 with no body when nothing was, nothing when
 * the reply was already sent.
 */
export function sendRendered(context: RequestContext): FastifyReply {
  const { reply, rendered } = context;
  if (reply.sent) return reply;
  if (rendered === undefined) return reply.code(204).send();
  return reply.code(rendered.status).send(rendered.body);
}
