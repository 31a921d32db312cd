export { ApiTokenService, type ApiToken, type AuthenticatedToken, type ApiTokenServiceOptions, type CreateTokenInput } from './tokens/token-service.js';
export { tokenStatus, type TokenStatus, type StoredTokenStatus } from './tokens/token-status.js';
export { GRANT_VERBS, DEFAULT_LIST_VERBS, grantKey, isGrantVerb, type Grant, type GrantVerb } from './grants/grant-verbs.js';
export { normalizeGrants, type GrantInput, type GrantRules } from './grants/grant-list.js';
export { mintToken, parseToken, tokenDigest, digestsEqual, TOKEN_PREFIX, type MintedToken } from './secret/token-secret.js';
export { resolveTokenPepper, pepperProblem, PEPPER_ENV, MIN_PEPPER_LENGTH, type TokenPepperSource } from './pepper/token-pepper.js';
export { apiTokensSchemaV1, TOKENS_TABLE, GRANTS_TABLE } from './schema/api-tokens-schema.js';
export type { ApiTokensDatabase, TokensTable, GrantsTable } from './schema/api-tokens-tables.js';
export { ApiTokensError, TokenPepperError, TokenTransitionError, GrantInvalidError, TokenNotFoundError, type ApiTokensErrorCode } from './errors/api-tokens-errors.js';
