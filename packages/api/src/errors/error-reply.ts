import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
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
}

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
 * type) keep their 4xx status; anything else is a 500 whose body says nothing of the cause.
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

/**
 * The Fastify error handler of the API scope: logs server errors with their stack (never sent),
 * answers JSON, or the redirect with its flash.
 */
export function apiErrorHandler(context: ErrorReplyContext) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const answer = errorReply(error, context);
    if (answer.status >= 500) request.log.error({ err: error }, 'Panel API request failed');
    if (answer.location !== undefined) {
      if (answer.flash) reply.setCookie(FLASH_COOKIE, answer.flash, { path: context.rootPath, httpOnly: true, sameSite: 'lax' });
      return reply.code(answer.status).header('location', answer.location).send();
    }
    return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.body);
  };
}
