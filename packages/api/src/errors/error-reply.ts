import { causeLine, inDevelopment } from './cause-line.js';
import { unavailableService } from './unavailable-service.js';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { databaseUnavailableReason, DEFAULT_ROOT_PATH, RecordInvalidError, type ErrorCode, type ErrorMessages } from '@panel/core';
import { confirmPath, signInPath } from '../session/session-paths.js';

/** Every error code of Panel, whichever package throws it (`ERROR_CODES` of `@panel/core`). */
export type { ErrorCode };

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

/** The write actions whose refused record the 422 answer names (the spec's result callbacks). */
export type WriteActionName = 'create' | 'update' | 'destroy';

/** What the error mapping needs to know of the panel, and of where the error was raised. */
export interface ErrorReplyContext {
  /** The panel's root URL path (its config's `rootPath`), where a refused policy check redirects. */
  readonly rootPath: string;
  /** The `WWW-Authenticate` a 401 carries: the challenges of the schemes the mount accepts (`authenticationChallenge`). */
  readonly wwwAuthenticate?: string;
  /**
   * How a refused policy check (`PANEL_ERR_NOT_AUTHORIZED`) answers: `redirect` (Edition A, the
   * default: 302 to `rootPath` with the flash) or `forbidden` (Edition B's mount: 403 JSON).
   */
  readonly policyRefusal?: 'redirect' | 'forbidden';
  /**
   * The write action a refused record (`PANEL_ERR_RECORD_INVALID`) belongs to, and the resource's
   * human name: its 422 says `Failed to create Blog post`. Without it, `Validation failed`.
   */
  readonly action?: { readonly name: WriteActionName; readonly resourceName: string };
  /**
   * The client is a browser page (`Accept: text/html`), answered by a 303 to the page that
   * resolves the error (the sign-in or confirm page) where the table names one; `returnTo` is
   * where that page sends the user back.
   */
  readonly browser?: { readonly returnTo?: string | undefined };
}

/** The flash cookie's name. */
export const FLASH_COOKIE = 'panel_flash';

const message = (error: unknown) => ({ error: (error as Error).message });
const NOT_FOUND = Object.freeze({ error: 'Not Found' });

/**
 * What one code answers: its status and JSON body, or (with `redirect`) a 302 to the panel's
 * root with a flash; `page` is where a browser page goes instead (303).
 */
interface HttpAnswer {
  readonly status: number;
  readonly body?: (error: unknown, context: ErrorReplyContext) => Record<string, unknown>;
  readonly redirect?: { readonly flash: string };
  readonly headers?: Readonly<Record<string, string>> | ((error: unknown) => Readonly<Record<string, string>>);
  readonly page?: (context: ErrorReplyContext) => string;
}

const FORBIDDEN: HttpAnswer = { status: 403, body: () => ({ error: 'Forbidden' }) };
// Edition A: a policy method that denies gives the framework's answer, a flash and a 302 to the root URL.
const NOT_AUTHORIZED_REDIRECT: HttpAnswer = { status: 302, redirect: { flash: 'You are not authorized to perform this action.' } };

/** The 422 body of a refused record: the action's message (a refused delete's messages all under `base`), else `Validation failed`. */
function recordInvalidBody(errors: ErrorMessages, action: ErrorReplyContext['action']): Record<string, unknown> {
  if (action === undefined) return { errors, message: 'Validation failed' };
  if (action.name === 'destroy') {
    const { base = [], ...others } = errors;
    return { errors: { base: [...base, ...Object.values(others).flat()] }, message: `Failed to delete ${action.resourceName}` };
  }
  return { errors, message: `Failed to ${action.name} ${action.resourceName}` };
}

const retryAfter = (error: unknown) => ({ 'retry-after': String((error as { retryAfter?: number }).retryAfter ?? 1) });

/**
 * The registry of HTTP answers: for every code of `ERROR_CODES`, its status and body (or a
 * function of the context that picks one), or null for a code that is not raised while serving
 * a request (a configuration or storage error, a controller error at boot, the token screens'
 * own errors): a 500. A new code without an entry here does not compile. The errors reference
 * page lists the same (a test keeps them in step).
 */
const HTTP_ANSWERS: Readonly<Record<ErrorCode, HttpAnswer | ((context: ErrorReplyContext) => HttpAnswer) | null>> = Object.freeze({
  PANEL_ERR_NOT_AUTHORIZED: (context) => (context.policyRefusal === 'forbidden' ? FORBIDDEN : NOT_AUTHORIZED_REDIRECT),
  PANEL_API_ERR_UNAUTHENTICATED: { status: 401, body: () => ({ error: 'Unauthorized' }), page: ({ rootPath }) => signInPath(rootPath) },
  PANEL_API_ERR_BAD_REQUEST: { status: 400, body: message },
  PANEL_API_ERR_INVALID_AUTHENTICITY_TOKEN: { status: 422, body: message },
  PANEL_API_ERR_CONFIRMATION_REQUIRED: {
    status: 403,
    body: (_error, { rootPath }) => ({ error: 'Password confirmation required', confirm_path: confirmPath(rootPath) }),
    page: ({ rootPath }) => confirmPath(rootPath),
  },
  PANEL_API_ERR_FORBIDDEN: FORBIDDEN,
  PANEL_API_ERR_NOT_FOUND: { status: 404, body: (error) => ({ ...NOT_FOUND, ...(error as { details?: Record<string, unknown> }).details }) },
  PANEL_ERR_RECORD_NOT_FOUND: { status: 404, body: () => NOT_FOUND },
  PANEL_API_ERR_PRECONDITION_FAILED: { status: 412, body: () => ({ error: 'Precondition Failed' }) },
  PANEL_API_ERR_PRECONDITION_REQUIRED: { status: 428, body: () => ({ error: 'Precondition Required' }) },
  PANEL_API_ERR_IDEMPOTENCY_KEY_IN_USE: { status: 409, body: message, headers: retryAfter },
  PANEL_API_ERR_IDEMPOTENCY_KEY_REUSED: { status: 422, body: message },
  PANEL_API_ERR_TOO_MANY_REQUESTS: { status: 429, body: () => ({ error: 'Too Many Requests' }), headers: retryAfter },
  // The rate limit's store did not answer in time: the request may work later, as with an unavailable database.
  PANEL_API_ERR_RATE_LIMIT_UNAVAILABLE: { status: 503, body: () => SERVICE_UNAVAILABLE.body!, headers: SERVICE_UNAVAILABLE.headers! },
  PANEL_ERR_FILE_NOT_FOUND: { status: 404, body: () => NOT_FOUND },
  PANEL_ERR_RECORD_INVALID: { status: 422, body: (error, { action }) => recordInvalidBody((error as { errors: ErrorMessages }).errors, action) },
  // The database cannot answer now (down, restarting, failing over, too slow): the request may work later.
  PANEL_ERR_DATABASE_UNAVAILABLE: { status: 503, body: () => SERVICE_UNAVAILABLE.body!, headers: SERVICE_UNAVAILABLE.headers! },
  PANEL_ERR_UPLOAD_TOO_LARGE: { status: 413, body: () => ({ error: 'Request body is too large' }) },
  PANEL_ERR_UPLOAD_REFUSED: { status: 400, body: message },
  PANEL_ERR_BATCH_REFUSED: { status: 400, body: message },
  PANEL_ERR_CONFIG: null,
  PANEL_ERR_PGLITE_FOLDER_IN_USE: null,
  PANEL_ERR_STORAGE: null,
  PANEL_API_ERR_CONTROLLER: null,
  PANEL_API_ERR_TOKEN_PEPPER: null,
  PANEL_API_ERR_TOKEN_TRANSITION: null,
  PANEL_API_ERR_GRANT_INVALID: null,
  PANEL_API_ERR_TOKEN_NOT_FOUND: null,
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

/** The answer registered for a code, in a context (undefined: none, a 500). */
function answerFor(code: string, context: ErrorReplyContext): HttpAnswer | undefined {
  const entry = Object.hasOwn(HTTP_ANSWERS, code) ? HTTP_ANSWERS[code as ErrorCode] : FRAMEWORK_ANSWERS[code];
  return typeof entry === 'function' ? entry(context) : (entry ?? undefined);
}

/**
 * Every error code the API answers with, with its status (a refused policy check: the default
 * redirect's 302); the errors reference page lists the same.
 */
export const ERROR_STATUS: Readonly<Record<string, number>> = Object.freeze(
  Object.fromEntries(
    Object.keys(HTTP_ANSWERS).flatMap((code) => {
      const answer = answerFor(code, { rootPath: DEFAULT_ROOT_PATH });
      return answer ? [[code, answer.status]] : [];
    }),
  ),
);

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
  const answer = code === undefined ? undefined : answerFor(code, context);
  if (answer?.page && context.browser) {
    const { returnTo } = context.browser;
    return { status: 303, body: undefined, location: `${answer.page(context)}${returnTo === undefined ? '' : `?return_to=${encodeURIComponent(returnTo)}`}` };
  }
  if (answer?.redirect) return { status: answer.status, body: undefined, location: context.rootPath, flash: answer.redirect.flash };
  if (answer) {
    const headers = typeof answer.headers === 'function' ? answer.headers(error) : answer.headers;
    return { status: answer.status, body: answer.body!(error, context), ...(headers ? { headers } : {}) };
  }
  const status = (error as FastifyError | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return { status, body: message(error) };
  // A store that cannot be reached, does not answer in time or answers a server error: the request may work later.
  if (code === 'PANEL_ERR_STORAGE' && (error as { reason?: unknown }).reason === 'unavailable') return SERVICE_UNAVAILABLE;
  // A driver error that reached here untyped (a closed database, the app's own pool) is classified the same way.
  if (databaseUnavailableReason(error) !== undefined) return SERVICE_UNAVAILABLE;
  return { status: 500, body: { error: 'Internal Server Error' } };
}

/**
 * The 422 answer of a write action whose record was refused (the spec's result callbacks
 * `createFailAction`, `updateFailAction`, `destroyFailAction` render it): the table's answer to
 * `PANEL_ERR_RECORD_INVALID` for that action, `{ errors, message: "Failed to create Blog post" }`
 * (a refused delete: every message under `base`, `Failed to delete …`).
 */
export function refusedWriteReply(action: WriteActionName, resourceName: string, errors: ErrorMessages): ErrorReply {
  return errorReply(new RecordInvalidError(errors), { rootPath: DEFAULT_ROOT_PATH, action: { name: action, resourceName } });
}

/**
 * Sends an answer of the table: its headers, the 401's challenge, a redirect (with the flash
 * cookie a refused policy check sets), or the JSON body. For code outside the API's scope that
 * answers an error itself (the panel root, the panel's guards) exactly as the API would.
 */
export function sendErrorReply(reply: FastifyReply, answer: ErrorReply, context: ErrorReplyContext = { rootPath: DEFAULT_ROOT_PATH }): FastifyReply {
  if (answer.headers) reply.headers(answer.headers);
  // A challenge the app set itself (a controller's own `refuse()`) is kept.
  if (answer.status === 401 && context.wwwAuthenticate && !reply.hasHeader('www-authenticate')) reply.header('www-authenticate', context.wwwAuthenticate);
  if (answer.location !== undefined) {
    if (answer.flash) reply.setCookie(FLASH_COOKIE, answer.flash, { path: context.rootPath, httpOnly: true, sameSite: 'lax' });
    return reply.code(answer.status).header('location', answer.location).send();
  }
  return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.body);
}

/**
 * The Fastify error handler of the API's and the attachment URL's scopes (and the panel's
 * screens): logs server errors with their stack (never sent), answers JSON, or the redirect
 * with its flash.
 */
export function apiErrorHandler(context: ErrorReplyContext) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const answer = errorReply(error, context);
    if (answer.status === 503) {
      // An outage is not a bug: one line with the driver's code and message (which may name the fix), no stack, however many requests it refuses.
      const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
      const details = { code: (error as { code?: unknown }).code, reason: (error as { reason?: unknown }).reason, cause: cause?.code, detail: cause?.message };
      // Refused settings (no such database, a wrong password) will not pass by themselves: an error for the operator, not a warning.
      if (details.reason === 'configuration') request.log.error(details, 'Panel API request refused: the database refused the connection settings (check the database URL and credentials)');
      else request.log.warn(details, `Panel API request refused: ${unavailableService(error)} is unavailable`);
    } else if (answer.status >= 500) {
      request.log.error({ err: error }, 'Panel API request failed');
      if (inDevelopment()) console.error(causeLine(request, error));
    }
    return sendErrorReply(reply, answer, context);
  };
}

