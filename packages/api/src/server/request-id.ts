import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The header a request id comes in and goes out with. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What a client's request id may look like to be kept: 1 to 128 characters among letters,
 * digits and `. _ : + = / -` (UUIDs, ULIDs, base64, a proxy's `host/trace-1`). Anything else
 * (spaces, control characters, a megabyte) would poison the logs, so it is replaced.
 */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:+=/-]{1,128}$/;

/**
 * Fastify's `genReqId`: the client's `X-Request-Id` when it is well formed (so one id follows a
 * request through a proxy, the app and its logs), else a new random UUID.
 */
export function requestIdFor(request: IncomingMessage): string {
  const sent = request.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && REQUEST_ID_PATTERN.test(sent) ? sent : randomUUID();
}
