import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { databaseUnavailableReason } from '@panel/core';
import { ERROR_STATUS } from './api-errors.js';
import { confirmPath } from '../session/session-paths.js';

/** A reply as the error mapping decides it. */
export interface ErrorReply {
  readonly status: number;
  /** The JSON body; undefined for a redirect. */
  readonly body: Record<string, unknown> | undefined;
  /** Where a redirect goes. */
  readonly location?: string;
  /** A flash message for the panel to show after a redirect. */
  readonly flash?: string;
  /** Headers the answer carries (`Retry-After` on a 503). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The `Retry-After` of a 503 when the database is unavailable, in seconds: long enough for a
 * failover or a restart to make progress, short enough that a client does not wait for nothing.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

// The database cannot answer now (down, restarting, failing over, too slow): the request may work later.
const SERVICE_UNAVAILABLE: ErrorReply = Object.freeze({ status: 503, body: { error: 'Service Unavailable' }, headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) } });

/** What the error mapping needs to know of the panel. */
export interface ErrorReplyContext {
  /** The panel's root URL path, where a refused policy check redirects. */
  readonly rootPath: string;
}

/** The flash cookie's name. */
export const FLASH_COOKIE = 'panel_flash';

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The one place that turns an error into an HTTP answer. Known codes get their status and a
 * JSON body; Fastify's own client errors (malformed JSON, body too large, unsupported media
 * type) keep their 4xx status; an unavailable database is 503 with `Retry-After`; anything
 * else is a 500 whose body says nothing of the cause.
 */
export function errorReply(error: unknown, context: ErrorReplyContext = { rootPath: '/panel' }): ErrorReply {
  const code = codeOf(error);
  switch (code) {
    case 'PANEL_ERR_NOT_AUTHORIZED':
      // Edition A: a policy method that denies gives the framework's answer, a flash and a 302 to the root URL.
      return { status: 302, body: undefined, location: context.rootPath, flash: 'You are not authorized to perform this action.' };
    case 'PANEL_API_ERR_UNAUTHENTICATED':
      return { status: 401, body: { error: 'Unauthorized' } };
    case 'PANEL_API_ERR_CONFIRMATION_REQUIRED':
      return { status: 403, body: { error: 'Password confirmation required', confirm_path: confirmPath(context.rootPath) } };
    case 'PANEL_ERR_RECORD_NOT_FOUND':
      return { status: 404, body: { error: 'Not Found' } };
    case 'PANEL_ERR_RECORD_INVALID':
      return { status: 422, body: { errors: (error as { errors: unknown }).errors, message: 'Validation failed' } };
    case 'PANEL_ERR_DATABASE_UNAVAILABLE':
      return SERVICE_UNAVAILABLE;
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
  // A driver error that reached here untyped (a closed database, the app's own pool) is classified the same way.
  if (databaseUnavailableReason(error) !== undefined) return SERVICE_UNAVAILABLE;
  return { status: 500, body: { error: 'Internal Server Error' } };
}

/**
 * The Fastify error handler of the API scope: logs server errors with their stack (never sent),
 * answers JSON, or the redirect with its flash.
 */
export function apiErrorHandler(context: ErrorReplyContext) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const answer = errorReply(error, context);
    if (answer.status === 503) {
      // An outage is not a bug: one line with the driver's code, no stack, however many requests it refuses.
      const cause = (error as { cause?: { code?: unknown } }).cause;
      request.log.warn({ code: (error as { code?: unknown }).code, reason: (error as { reason?: unknown }).reason, cause: cause?.code }, 'Panel API request refused: the database is unavailable');
    } else if (answer.status >= 500) request.log.error({ err: error }, 'Panel API request failed');
    if (answer.headers) reply.headers(answer.headers);
    if (answer.location !== undefined) {
      if (answer.flash) reply.setCookie(FLASH_COOKIE, answer.flash, { path: context.rootPath, httpOnly: true, sameSite: 'lax' });
      return reply.code(answer.status).header('location', answer.location).send();
    }
    return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.body);
  };
}
