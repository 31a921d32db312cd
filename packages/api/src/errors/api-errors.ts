import { PanelError } from '@panel/core';

/**
 * The errors of the API runtime, each with a stable `code` (listed with every package's in
 * `ERROR_CODES` of `@panel/core`). Detect them by code (`isPanelError(error,
 * 'PANEL_API_ERR_UNAUTHENTICATED')`), not only with `instanceof`.
 */
export type ApiErrorCode =
  | 'PANEL_API_ERR_UNAUTHENTICATED'
  | 'PANEL_API_ERR_BAD_REQUEST'
  | 'PANEL_API_ERR_NOT_FOUND'
  | 'PANEL_API_ERR_CONTROLLER'
  | 'PANEL_API_ERR_INVALID_AUTHENTICITY_TOKEN'
  | 'PANEL_API_ERR_CONFIRMATION_REQUIRED'
  | 'PANEL_API_ERR_FORBIDDEN'
  | 'PANEL_API_ERR_PRECONDITION_FAILED'
  | 'PANEL_API_ERR_PRECONDITION_REQUIRED'
  | 'PANEL_API_ERR_IDEMPOTENCY_KEY_IN_USE'
  | 'PANEL_API_ERR_IDEMPOTENCY_KEY_REUSED'
  | 'PANEL_API_ERR_TOO_MANY_REQUESTS'
  | 'PANEL_API_ERR_RATE_LIMIT_UNAVAILABLE';

/** The base of the API runtime's errors: a `PanelError` with an API code. */
export class ApiError extends PanelError<ApiErrorCode> {}

/**
 * Thrown by `setupAuthentication` (or anything it awaits) to reject the request with
 * 401 `{ "error": "Unauthorized" }` (`Panel::Api::AuthenticationError`).
 */
export class AuthenticationError extends ApiError {
  constructor(message = 'Unauthorized') {
    super('PANEL_API_ERR_UNAUTHENTICATED', message);
  }
}

/** A query parameter or body the API cannot use: 400 with the message as `error`. */
export class BadRequestError extends ApiError {
  constructor(message: string) {
    super('PANEL_API_ERR_BAD_REQUEST', message);
  }
}

/**
 * Nothing at this URL for this client: no route of the mount, an OpenAPI document its `public`
 * function refuses, the panel's root when no panel page serves it. 404 `{ "error": "Not Found" }`,
 * plus the `details` given (the panel root's explanation).
 */
export class NotFoundError extends ApiError {
  /** Keys the 404 body carries after `error`. */
  readonly details: Readonly<Record<string, unknown>>;
  constructor(details: Readonly<Record<string, unknown>> = {}) {
    super('PANEL_API_ERR_NOT_FOUND', 'Not Found');
    this.details = details;
  }
}

/** An unsafe request without a valid CSRF token, under the `exception` strategy: 422. */
export class InvalidAuthenticityTokenError extends ApiError {
  constructor() {
    super('PANEL_API_ERR_INVALID_AUTHENTICITY_TOKEN', "Can't verify CSRF token authenticity.");
  }
}

/**
 * A sensitive action (creating a token, changing grants) without a recent password
 * confirmation in the panel session (sudo mode): 403, with where to confirm.
 */
export class ConfirmationRequiredError extends ApiError {
  constructor() {
    super('PANEL_API_ERR_CONFIRMATION_REQUIRED', 'Password confirmation required');
  }
}

/** A generated controller folder the runtime cannot use, found at boot. */
export class ControllerError extends ApiError {
  constructor(message: string) {
    super('PANEL_API_ERR_CONTROLLER', message);
  }
}

/**
 * Edition B: the actor holds no permission grant for the resource and verb (or, on the
 * code-hook path, asked for a write, which always needs a Bearer token): 403
 * `{ "error": "Forbidden" }`, raised before the record is loaded. Also what a refused policy
 * method answers in Edition B.
 */
export class ForbiddenError extends ApiError {
  constructor(message = 'Forbidden') {
    super('PANEL_API_ERR_FORBIDDEN', message);
  }
}

/** `If-Match` names no current ETag of the record: 412 `{ "error": "Precondition Failed" }`, nothing written. */
export class PreconditionFailedError extends ApiError {
  constructor() {
    super('PANEL_API_ERR_PRECONDITION_FAILED', 'Precondition Failed');
  }
}

/** An update or delete without `If-Match` where the mount or controller requires it (`requireIfMatch`): 428. */
export class PreconditionRequiredError extends ApiError {
  constructor() {
    super('PANEL_API_ERR_PRECONDITION_REQUIRED', 'Precondition Required');
  }
}

/** A request with an `Idempotency-Key` whose first request is still running: 409 with `Retry-After`. */
export class IdempotencyKeyInUseError extends ApiError {
  /** Seconds after which a retry may find the first request's answer. */
  readonly retryAfter: number;
  constructor(retryAfter = 1) {
    super('PANEL_API_ERR_IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry later');
    this.retryAfter = retryAfter;
  }
}

/** An `Idempotency-Key` used before with another method, path or body: 422. */
export class IdempotencyKeyReusedError extends ApiError {
  constructor() {
    super('PANEL_API_ERR_IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request');
  }
}

/** The credential spent its rate limit for the window: 429 `{ "error": "Too Many Requests" }` with `Retry-After`. */
export class TooManyRequestsError extends ApiError {
  /** Seconds until the window ends. */
  readonly retryAfter: number;
  constructor(retryAfter: number) {
    super('PANEL_API_ERR_TOO_MANY_REQUESTS', 'Too Many Requests');
    this.retryAfter = retryAfter;
  }
}

/**
 * The rate limit's store (an app's Redis, the database) did not answer within
 * `rateLimit.timeoutMillis`, or answered no count: 503 `{ "error": "Service Unavailable" }` with
 * `Retry-After`, as for an unavailable database. The request is neither counted nor served.
 */
export class RateLimitUnavailableError extends ApiError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('PANEL_API_ERR_RATE_LIMIT_UNAVAILABLE', message);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}
