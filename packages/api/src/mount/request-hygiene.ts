import type { FastifyInstance } from 'fastify';
import { REQUEST_ID_HEADER } from '../server/request-id.js';
import { NOSNIFF } from '../server/nosniff.js';

/** A request body the API cannot read: its `Content-Encoding` is not `identity`. */
function unsupportedEncoding(encoding: string): Error & { statusCode: number; code: string } {
  return Object.assign(new Error(`Unsupported Content-Encoding "${encoding}": send the body uncompressed (no Content-Encoding, or identity)`), {
    statusCode: 415,
    code: 'FST_ERR_CTP_INVALID_CONTENT_ENCODING',
  });
}

/**
 * What every request under the mount goes through first: its answer carries the request id
 * (`X-Request-Id`) and `X-Content-Type-Options: nosniff`, and a body in a `Content-Encoding` other than `identity` is refused with
 * 415 rather than read as if it were plain JSON (the API decompresses nothing). Once the
 * server is closing, answers say `Connection: close`, so an in-flight request's keep-alive
 * socket ends with its answer and the shutdown does not wait for the keep-alive timeout.
 */
export function requestHygiene(api: FastifyInstance): void {
  let closing = false;
  api.addHook('preClose', async () => {
    closing = true;
  });
  api.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  api.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id).headers(NOSNIFF);
    const encoding = request.headers['content-encoding']?.trim().toLowerCase();
    if (encoding && encoding !== 'identity') throw unsupportedEncoding(encoding);
  });
}
