import type { FastifyInstance, FastifyRequest } from 'fastify';
import { textProblem } from '@panel/core';
import { BadRequestError } from '../errors/api-errors.js';
import { REQUEST_ID_HEADER } from '../server/request-id.js';
import { NOSNIFF } from '../server/nosniff.js';

/** A request body the API cannot read: its `Content-Encoding` is not `identity`. */
function unsupportedEncoding(encoding: string): Error & { statusCode: number; code: string } {
  return Object.assign(new Error(`Unsupported Content-Encoding "${encoding}": send the body uncompressed (no Content-Encoding, or identity)`), {
    statusCode: 415,
    code: 'FST_ERR_CTP_INVALID_CONTENT_ENCODING',
  });
}

/** How many times a header occurs in the request as sent (Node keeps only the first `Authorization`). */
function occurrences(request: FastifyRequest, name: string): number {
  const raw = request.raw.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) count += 1;
  return count;
}

/**
 * Why a request cannot be read as the API reads it, before any route runs; undefined when it can.
 * Two `Authorization` headers (Node reads the first, a proxy may read the last: they would
 * disagree on who is asking); a `Transfer-Encoding` other than `chunked` (the body would be read
 * as if plainly chunked); a query value or name with text the database cannot store.
 */
export function unreadableRequest(request: FastifyRequest): string | undefined {
  if (occurrences(request, 'authorization') > 1) return 'More than one Authorization header: send exactly one';
  const transfer = request.headers['transfer-encoding'];
  if (transfer !== undefined && transfer.trim().toLowerCase() !== 'chunked') return `Unsupported Transfer-Encoding "${transfer}": send the body with Content-Length or Transfer-Encoding: chunked`;
  const query = (request.query ?? {}) as Record<string, unknown>;
  for (const name in query) {
    const problem = textProblem(name) ?? textProblem(query[name]);
    if (problem) return `Query parameter ${JSON.stringify(name)} ${problem}`;
  }
  return undefined;
}

/**
 * What every request under the mount goes through first: its answer carries the request id
 * (`X-Request-Id`) and `X-Content-Type-Options: nosniff`; a body in a `Content-Encoding` other
 * than `identity` is refused with 415 rather than read as if it were plain JSON (the API
 * decompresses nothing), and a request `unreadableRequest` names is refused with 400 (the
 * message says why). Once the
 * server is closing, answers say `Connection: close`, so an in-flight request's keep-alive
 * socket ends with its answer and the shutdown does not wait for the keep-alive timeout.
 */
export function requestHygiene(api: FastifyInstance): void {
  let closing = false;
  api.addHook('preClose', async () => {
    closing = true;
  });
  // Callback hooks, not async ones: every request runs them, and a promise per hook is work for nothing.
  api.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  api.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id).headers(NOSNIFF);
    const encoding = request.headers['content-encoding']?.trim().toLowerCase();
    if (encoding && encoding !== 'identity') return done(refuseOnArrival(request, unsupportedEncoding(encoding)));
    const problem = unreadableRequest(request);
    done(problem ? refuseOnArrival(request, new BadRequestError(problem)) : undefined);
  });
}

const refusedOnArrival = new WeakSet<FastifyRequest>();

function refuseOnArrival(request: FastifyRequest, error: Error): Error {
  refusedOnArrival.add(request);
  return error;
}

/**
 * Whether the request was refused on arrival for its framing (an encoding, two Authorization
 * headers, a transfer coding): answered at once, before its body is read, and naming no single
 * credential, so it spends no rate limit.
 */
export function wasRefusedOnArrival(request: FastifyRequest): boolean {
  return refusedOnArrival.has(request);
}
