/**
 * The errors of the API runtime, each with a stable `code`. Detect them by code
 * (`error.code === 'PANEL_API_ERR_UNAUTHENTICATED'`), not only with `instanceof`.
 */
export type ApiErrorCode =
  | 'PANEL_API_ERR_UNAUTHENTICATED'
  | 'PANEL_API_ERR_BAD_REQUEST'
  | 'PANEL_API_ERR_CONTROLLER'
  | 'PANEL_API_ERR_INVALID_AUTHENTICITY_TOKEN'
  | 'PANEL_API_ERR_CONFIRMATION_REQUIRED';

/** The base of the API runtime's errors. */
export class ApiError extends Error {
  readonly code: ApiErrorCode;
  constructor(code: ApiErrorCode, message: string) {
    super(message);
    this.code = code;
    this.name = new.target.name;
  }
}

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

/** Every error code the API answers with, with its status; the errors reference page lists the same. */
export const ERROR_STATUS: Readonly<Record<string, number>> = Object.freeze({
  PANEL_API_ERR_UNAUTHENTICATED: 401,
  PANEL_API_ERR_BAD_REQUEST: 400,
  PANEL_API_ERR_INVALID_AUTHENTICITY_TOKEN: 422,
  PANEL_API_ERR_CONFIRMATION_REQUIRED: 403,
  PANEL_ERR_RECORD_NOT_FOUND: 404,
  PANEL_ERR_RECORD_INVALID: 422,
});
