import type { FastifyReply, FastifyRequest, onSendHookHandler, preSerializationHookHandler } from 'fastify';
import type { ActionName } from '../controller/callback-chain.js';
import { entityTag, noneMatchHits } from './entity-tag.js';

/** The actions whose success answer carries an ETag: the reads, and the writes that answer a record on the show view. */
const TAGGED: ReadonlySet<ActionName> = new Set(['index', 'show', 'related', 'create', 'update']);
const READS: ReadonlySet<ActionName> = new Set(['index', 'show', 'related']);

/**
 * The route hooks of conditional requests for one action: an ETag on every 200 of show, index
 * and traversal, and on the 201/200 of create and update (the record's show answer, so a client
 * may send it back in `If-Match`); a read whose `If-None-Match` matches answers 304 with no
 * body and the same ETag. A controller that set `ETag` itself keeps its own.
 */
export function conditionalGetHooks(action: ActionName): { preSerialization?: preSerializationHookHandler<unknown>; onSend?: onSendHookHandler<unknown> } {
  if (!TAGGED.has(action)) return {};
  const read = READS.has(action);
  const preSerialization = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => {
    const status = reply.statusCode;
    if ((status === 200 || status === 201) && payload !== null && typeof payload === 'object' && !reply.hasHeader('etag')) {
      const tag = entityTag(payload);
      reply.header('etag', tag);
      if (read && status === 200 && (request.method === 'GET' || request.method === 'HEAD') && noneMatchHits(request.headers['if-none-match'], tag)) {
        reply.code(304);
        done(null, '');
        return;
      }
    }
    done(null, payload);
  };
  // A 304 has no body, and so no Content-Type nor Content-Length (RFC 9110 §15.4.5).
  const onSend = (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => {
    if (reply.statusCode !== 304) return done(null, payload);
    reply.removeHeader('content-type');
    done(null, null);
  };
  return { preSerialization: preSerialization as unknown as preSerializationHookHandler<unknown>, onSend: onSend as unknown as onSendHookHandler<unknown> };
}
