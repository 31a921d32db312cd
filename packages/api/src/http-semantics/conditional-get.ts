import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest, onSendHookHandler, preSerializationHookHandler } from 'fastify';
import type { ActionName } from '../controller/callback-chain.js';
import { entityTag, entityTagOfBytes, FORM_HINT, noneMatchHits } from './entity-tag.js';

/** The actions whose success answer carries an ETag: the reads, and the writes that answer a record on the show view. */
const TAGGED: ReadonlySet<ActionName> = new Set(['index', 'show', 'related', 'create', 'update']);
const READS: ReadonlySet<ActionName> = new Set(['index', 'show', 'related']);

/**
 * The payload a HEAD's 304 hands on: Fastify's HEAD route runs its own `onSend` after the
 * route's, which reads a length from the payload (and throws on `null`) or drains a stream. An
 * empty stream gives the answer GET's 304 has: no body and no `Content-Length`.
 */
const noBody = (): Readable => Readable.from([]);

/** Where a reply keeps the body its ETag is taken from once serialized (a 200 or 201 object body without an ETag of its controller's): a property, not a `WeakMap` entry, so that every answer pays no table insert and delete. */
const TO_TAG = Symbol('panel.toTag');
type TaggedReply = FastifyReply & { [TO_TAG]?: object | undefined };

/**
 * The route hooks of conditional requests for one action: an ETag on every 200 of show, index
 * and traversal, and on the 201/200 of create and update (the record's show answer, so a client
 * may send it back in `If-Match`); a read (GET or HEAD) whose `If-None-Match` matches answers
 * 304 with no body and the same ETag. A controller that set `ETag` itself keeps its own, and so
 * does a write whose answer is not its record's show answer alone (`Rendered.entityTag`: with
 * `include`, or under a public show).
 *
 * The ETag is the digest of the payload as serialized for sending (`entityTagOfBytes`), taken in
 * `onSend`: the body is serialized once, by the route's compiled serializer, not a second time
 * to be hashed. `preSerialization` notes which answers are tagged (an object body: a string or
 * buffer a controller sends as it is never was) and keeps the body: one that holds a signed file
 * URL is hashed from it (`entityTag`), each signed value counting as the form its signer gave it.
 */
export function conditionalGetHooks(action: ActionName): { preSerialization?: preSerializationHookHandler<unknown>; onSend?: onSendHookHandler<unknown> } {
  if (!TAGGED.has(action)) return {};
  const read = READS.has(action);
  const preSerialization = (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => {
    const status = reply.statusCode;
    if ((status === 200 || status === 201) && payload !== null && typeof payload === 'object' && !reply.hasHeader('etag')) (reply as TaggedReply)[TO_TAG] = payload;
    done(null, payload);
  };
  const onSend = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => {
    const body = (reply as TaggedReply)[TO_TAG];
    if (body !== undefined) (reply as TaggedReply)[TO_TAG] = undefined;
    if (body !== undefined && typeof payload === 'string') {
      // Encoded once: the same bytes are hashed and sent (Fastify would measure and encode the text again).
      const bytes = Buffer.from(payload);
      // A body that may hold a signed URL is hashed with each signed value's own form; any other, from its bytes as sent.
      const tag = bytes.includes(FORM_HINT) ? entityTag(body) : entityTagOfBytes(bytes);
      payload = bytes;
      reply.header('etag', tag);
      if (read && reply.statusCode === 200 && (request.method === 'GET' || request.method === 'HEAD') && noneMatchHits(request.headers['if-none-match'], tag)) reply.code(304);
    }
    if (reply.statusCode !== 304) return done(null, payload);
    // A 304 has no body, and so no Content-Type nor Content-Length (RFC 9110 §15.4.5); a HEAD's likewise.
    reply.removeHeader('content-type');
    done(null, request.method === 'HEAD' ? noBody() : null);
  };
  return { preSerialization: preSerialization as unknown as preSerializationHookHandler<unknown>, onSend: onSend as unknown as onSendHookHandler<unknown> };
}
