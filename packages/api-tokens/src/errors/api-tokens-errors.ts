import { PanelError } from '@panel/core';

/**
 * The errors of Panel API's Edition B token service, each with a stable `code` (listed with
 * every package's in `ERROR_CODES` of `@panel/core`); detect them by code
 * (`isPanelError(error, 'PANEL_API_ERR_TOKEN_PEPPER')`), which survives two copies of the package.
 */
export type ApiTokensErrorCode = 'PANEL_API_ERR_TOKEN_PEPPER' | 'PANEL_API_ERR_TOKEN_TRANSITION' | 'PANEL_API_ERR_GRANT_INVALID' | 'PANEL_API_ERR_TOKEN_NOT_FOUND';

/** The base of the token service's errors: a `PanelError` with a token-service code. */
export class ApiTokensError extends PanelError<ApiTokensErrorCode> {}

/**
 * No usable pepper: token creation and authentication refuse to run until one is set
 * (spec: "Required. Token creation and authentication raise until it is set.").
 */
export class TokenPepperError extends ApiTokensError {
  constructor(message: string) {
    super('PANEL_API_ERR_TOKEN_PEPPER', message);
  }
}

/** A lifecycle step the token's status does not allow, such as enabling a revoked token. */
export class TokenTransitionError extends ApiTokensError {
  constructor(message: string) {
    super('PANEL_API_ERR_TOKEN_TRANSITION', message);
  }
}

/** A permission grant that cannot exist: an unknown verb or resource, or a write on the default permissions list. */
export class GrantInvalidError extends ApiTokensError {
  constructor(message: string) {
    super('PANEL_API_ERR_GRANT_INVALID', message);
  }
}

/** No token with that id. */
export class TokenNotFoundError extends ApiTokensError {
  constructor(id: number) {
    super('PANEL_API_ERR_TOKEN_NOT_FOUND', `No API token with id ${id}.`);
  }
}
