import { ApiTokensError } from '@panel/api-tokens';

export { ApiTokenService, apiTokensSchemaV1, grantKey } from '@panel/api-tokens';

/** Whether an error is one of the token service's refusals (detected by its code, as the docs advise). */
export function isPanelApiTokensError(error: unknown): boolean {
  return error instanceof ApiTokensError || (typeof (error as { code?: unknown })?.code === 'string' && String((error as { code: string }).code).startsWith('PANEL_API_ERR_'));
}
