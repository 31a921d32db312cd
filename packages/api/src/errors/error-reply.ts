import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_STATUS } from './api-errors.js';

/** A reply as the error mapping decides it. */
export interface ErrorReply {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The one place that turns an error into an HTTP answer. Known codes get their status and a
 * JSON body; Fastify's own client errors (malformed JSON, body too large, unsupported media
 * type) keep their 4xx status; anything else is a 500 whose body says nothing of the cause.
 */
export function errorReply(error: unknown): ErrorReply {
  const code = codeOf(error);
  switch (code) {
    case 'PANEL_API_ERR_UNAUTHENTICATED':
      return { status: 401, body: { error: 'Unauthorized' } };
    case 'PANEL_ERR_RECORD_NOT_FOUND':
      return { status: 404, body: { error: 'Not Found' } };
    case 'PANEL_ERR_RECORD_INVALID':
      return { status: 422, body: { errors: (error as { errors: unknown }).errors, message: 'Validation failed' } };
    default:
      break;
  }
  if (code !== undefined && ERROR_STATUS[code] !== undefined) {
    return { status: ERROR_STATUS[code]!, body: { error: (error as Error).message } };
  }
  const status = (error as FastifyError | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, body: { error: (error as Error).message } };
  }
  return { status: 500, body: { error: 'Internal Server Error' } };
}

/** Fastify error handler for the API scope: logs server errors with their stack, sends JSON. */
export function handleApiError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, body } = errorReply(error);
  if (status >= 500) request.log.error({ err: error }, 'Panel API request failed');
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}
