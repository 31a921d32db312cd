/**
 * Every error code of Panel, across its packages, with the package whose classes throw it: the
 * one registry of codes. A package adds a code here, to its own code type (`PanelErrorCode`,
 * `ApiErrorCode`, `ApiTokensErrorCode`: a class's code must be in this registry, or the compiler
 * refuses it) and its class in its own errors file; `isPanelError` knows every code listed, and
 * the API's error table (`errorReply` in `@panel/api`) must say what each one answers, or the
 * compiler refuses it.
 */
export const ERROR_CODES = Object.freeze({
  PANEL_ERR_CONFIG: '@panel/core',
  PANEL_ERR_RECORD_NOT_FOUND: '@panel/core',
  PANEL_ERR_RECORD_INVALID: '@panel/core',
  PANEL_ERR_NOT_AUTHORIZED: '@panel/core',
  PANEL_ERR_FILE_NOT_FOUND: '@panel/core',
  PANEL_ERR_STORAGE: '@panel/core',
  PANEL_ERR_DATABASE_UNAVAILABLE: '@panel/core',
  PANEL_ERR_PGLITE_FOLDER_IN_USE: '@panel/core',
  PANEL_ERR_UPLOAD_TOO_LARGE: '@panel/core',
  PANEL_ERR_UPLOAD_REFUSED: '@panel/core',
  PANEL_ERR_BATCH_REFUSED: '@panel/core',
  PANEL_API_ERR_UNAUTHENTICATED: '@panel/api',
  PANEL_API_ERR_BAD_REQUEST: '@panel/api',
  PANEL_API_ERR_NOT_FOUND: '@panel/api',
  PANEL_API_ERR_CONTROLLER: '@panel/api',
  PANEL_API_ERR_INVALID_AUTHENTICITY_TOKEN: '@panel/api',
  PANEL_API_ERR_CONFIRMATION_REQUIRED: '@panel/api',
  PANEL_API_ERR_FORBIDDEN: '@panel/api',
  PANEL_API_ERR_PRECONDITION_FAILED: '@panel/api',
  PANEL_API_ERR_PRECONDITION_REQUIRED: '@panel/api',
  PANEL_API_ERR_IDEMPOTENCY_KEY_IN_USE: '@panel/api',
  PANEL_API_ERR_IDEMPOTENCY_KEY_REUSED: '@panel/api',
  PANEL_API_ERR_TOO_MANY_REQUESTS: '@panel/api',
  PANEL_API_ERR_RATE_LIMIT_UNAVAILABLE: '@panel/api',
  PANEL_API_ERR_TOKEN_PEPPER: '@panel/api-tokens',
  PANEL_API_ERR_TOKEN_TRANSITION: '@panel/api-tokens',
  PANEL_API_ERR_GRANT_INVALID: '@panel/api-tokens',
  PANEL_API_ERR_TOKEN_NOT_FOUND: '@panel/api-tokens',
} as const);

/** Every error code of Panel, whichever package throws it. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** Whether a string is a code of the registry. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}
