import { PanelConfigError } from '@panel/core';

/** The runtime of `@panel/api-tokens`, which only an Edition B mount loads. */
export type TokensModule = typeof import('@panel/api-tokens');

let loading: Promise<TokensModule> | undefined;

/**
 * Loads `@panel/api-tokens` on first use. It is an optional peer dependency of `@panel/api`: an
 * Edition A app does not install it, and nothing of it loads unless a mount (or the attachments
 * plugin) has the `tokens` option, whose value that package made.
 */
export function loadTokensModule(): Promise<TokensModule> {
  loading ??= import('@panel/api-tokens').catch((error: unknown) => {
    loading = undefined;
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes('@panel/api-tokens')) {
      throw new PanelConfigError('Edition B (the tokens option) needs the package @panel/api-tokens, which is not installed. Fix: npm install @panel/api-tokens');
    }
    throw error;
  });
  return loading;
}
