import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { databaseUnavailableReason, DEFAULT_ROOT_PATH, type PanelErrorCode } from '@panel/core';
import type { ApiErrorCode } from './api-errors.js';
import { confirmPath } from '../session/session-paths.js';

/** Every error code of Panel: core's and the API's. */
export type ErrorCode = PanelErrorCode | ApiErrorCode;

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

// The answer when the database cannot answer now (down, restarting, failing over, too slow): the request may work later.
const SERVICE_UNAVAILABLE: ErrorReply = Object.freeze({ status: 503, body: { error: 'Service Unavailable' }, headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) } });

/** What the error mapping needs to know of the panel. */
export interface ErrorReplyContext {
  /** The panel's root URL path (its config's `rootPath`), where a refused policy check redirects. */
  readonly rootPath: string;
  /** The `WWW-Authenticate` a 401 carries: the challenges of the schemes the mount accepts (`authenticationChallenge`). */
  readonly wwwAuthenticate?: string;
}

/** The flash cookie's name. */
export const FLASH_COOKIE = 'panel_flash';

const message = (error: unknown) => ({ error: (error as Error).message });
const NOT_FOUND = Object.freeze({ error: 'Not Found' });

/** What one code answers: its status and JSON body, or (with `redirect`) a 302 to the panel's root with a flash. */
interface HttpAnswer {
  readonly status: number;
  readonly body?: (error: unknown, context: ErrorReplyContext) => Record<string, unknown>;
  readonly redirect?: { readonly flash: string };
  readonly headers?: Readonly<Record<string, string>> | ((error: unknown) => Readonly<Record<string, string>>);
}

const retryAfter = (error: unknown) => ({ 'retry-after': String((error as { retryAfter?: number }).retryAfter ?? 1) });

/**
 * The registry of HTTP answers: for each code that has one, its status and body. A code that
 * is not here (a configuration or storage error, a controller error at boot) is a 500. The
 * errors reference page lists the same (a test keeps them in step).
 */
const HTTP_ANSWERS: Readonly<Partial<Record<ErrorCode, HttpAnswer>>> = Object.freeze({
  // Edition A: a policy method that denies gives the framework's answer, a flash and a 302 to the root URL.
  PANEL_ERR_NOT_AUTHORIZED: { status: 302, redirect: { flash: 'You are not authorized to perform this action.' } },
  PANEL_API_ERR_UNAUTHENTICATED: { status: 401, body: () => ({ error: 'Unauthorized' }) },
  PANEL_API_ERR_BAD_REQUEST: { status: 400, body: message },
  PANEL_API_ERR_INVALID_AUTHENTICITY_TOKEN: { status: 422, body: message },
  PANEL_API_ERR_CONFIRMATION_REQUIRED: { status: 403, body: (_error, { rootPath }) => ({ error: 'Password confirmation required', confirm_path: confirmPath(rootPath) }) },
  PANEL_API_ERR_FORBIDDEN: { status: 403, body: () => ({ error: 'Forbidden' }) },
  PANEL_ERR_RECORD_NOT_FOUND: { status: 404, body: () => NOT_FOUND },
  PANEL_API_ERR_PRECONDITION_FAILED: { status: 412, body: () => ({ error: 'Precondition Failed' }) },
  PANEL_API_ERR_PRECONDITION_REQUIRED: { status: 428, body: () => ({ error: 'Precondition Required' }) },
  PANEL_API_ERR_IDEMPOTENCY_KEY_IN_USE: { status: 409, body: message, headers: retryAfter },
  PANEL_API_ERR_IDEMPOTENCY_KEY_REUSED: { status: 422, body: message },
  PANEL_API_ERR_TOO_MANY_REQUESTS: { status: 429, body: () => ({ error: 'Too Many Requests' }), headers: retryAfter },
  PANEL_ERR_FILE_NOT_FOUND: { status: 404, body: () => NOT_FOUND },
  PANEL_ERR_RECORD_INVALID: { status: 422, body: (error) => ({ errors: (error as { errors: unknown }).errors, message: 'Validation failed' }) },
  // The database cannot answer now (down, restarting, failing over, too slow): the request may work later.
  PANEL_ERR_DATABASE_UNAVAILABLE: { status: 503, body: () => SERVICE_UNAVAILABLE.body!, headers: SERVICE_UNAVAILABLE.headers! },
});

/**
 * Fastify's own errors that an answer maps by code. A URL that cannot be decoded (`%ff`) or
 * whose parameter is longer than the router takes cannot name a record: it answers like any
 * unusable id, 404 `{ "error": "Not Found" }`, never the framework's code. Fastify raises them
 * before any route runs, so they reach this table through the server's `frameworkErrors`
 * (`panelServerOptions()` sets it).
 */
const FRAMEWORK_ANSWERS: Readonly<Record<string, HttpAnswer>> = Object.freeze({
  FST_ERR_BAD_URL: { status: 404, body: () => NOT_FOUND },
  FST_ERR_MAX_PARAM_LENGTH: { status: 404, body: () => NOT_FOUND },
});

/** Every error code the API answers with, with its status; the errors reference page lists the same. */
export const ERROR_STATUS: Readonly<Record<string, number>> = Object.freeze(Object.fromEntries(Object.entries(HTTP_ANSWERS).map(([code, answer]) => [code, answer.status])));

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The one place that turns an error into an HTTP answer, by its `code` (never `instanceof`,
 * so two copies of a package agree). Known codes get their registered answer; Fastify's own
 * client errors (malformed JSON, body too large, unsupported media type) keep their 4xx status;
 * a driver error that says the database is unavailable is 503 with `Retry-After`; anything else
 * is a 500 whose body says nothing of the cause. Pass the panel's `rootPath`
 * (`{ rootPath: panel.config.rootPath }`); without it, the config's default is assumed.
 */
export function errorReply(error: unknown, context: ErrorReplyContext = { rootPath: DEFAULT_ROOT_PATH }): ErrorReply {
  const code = codeOf(error);
  const answer = code === undefined ? undefined : (HTTP_ANSWERS[code as ErrorCode] ?? FRAMEWORK_ANSWERS[code]);
  if (answer?.redirect) return { status: answer.status, body: undefined, location: context.rootPath, flash: answer.redirect.flash };
  if (answer) {
    const headers = typeof answer.headers === 'function' ? answer.headers(error) : answer.headers;
    return { status: answer.status, body: answer.body!(error, context), ...(headers ? { headers } : {}) };
  }
  const status = (error as FastifyError | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return { status, body: message(error) };
  // A driver error that reached here untyped (a closed database, the app's own pool) is classified the same way.
  if (databaseUnavailableReason(error) !== undefined) return SERVICE_UNAVAILABLE;
  return { status: 500, body: { error: 'Internal Server Error' } };
}

/**
 * The Fastify error handler of the API's and the attachment URL's scopes: logs server errors
 * with their stack (never sent), answers JSON, or the redirect with its flash.
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
    // A challenge the app set itself (a controller's own `refuse()`) is kept.
    if (answer.status === 401 && context.wwwAuthenticate && !reply.hasHeader('www-authenticate')) reply.header('www-authenticate', context.wwwAuthenticate);
    if (answer.location !== undefined) {
      if (answer.flash) reply.setCookie(FLASH_COOKIE, answer.flash, { path: context.rootPath, httpOnly: true, sameSite: 'lax' });
      return reply.code(answer.status).header('location', answer.location).send();
    }
    return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.body);
  };
}
