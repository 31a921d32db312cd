import type { FastifyReply } from 'fastify';
import type { RequestContext } from '../request-context.js';

/**
 * The last stage of every request: sends what was rendered (through the serializer Fastify
 * compiled from the route's response schema), with its `entityTag` when it has one, 204 with
 * no body when nothing was rendered, nothing when the reply was already sent.
 */
export function sendRendered(context: RequestContext): FastifyReply {
  const { reply, rendered } = context;
  if (reply.sent) return reply;
  if (rendered === undefined) return reply.code(204).send();
  if (rendered.entityTag !== undefined) reply.header('etag', rendered.entityTag);
  return reply.code(rendered.status).send(rendered.body);
}
