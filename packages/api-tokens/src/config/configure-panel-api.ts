import { PanelConfigError } from '@panel/core';
import type { AttachmentsHost, ExtensionHost } from '@panel/api';
import type { ScreensHost } from '@panel/panel-ui';
import type { PanelApiTokensConfig } from './panel-api-tokens-config.js';
import type { TokenPepperSource } from '../pepper/token-pepper.js';
import { DENY_EVERYONE, type ManageTokensIf } from './manage-tokens-gate.js';

export type { PanelApiTokensConfig } from './panel-api-tokens-config.js';

/** Edition B options as the app's initializer writes them (`Panel::Api.configure`). */
export interface PanelApiTokensOptions {
  /** Who may manage tokens and the default permissions list; only `true` allows. Default: nobody. */
  manageTokensIf?: ManageTokensIf;
  /** The token pepper from the app's secret store; else `PANEL_API_TOKEN_PEPPER`. */
  pepper?: TokenPepperSource;
  /** How long a signed file URL given to a token actor lives, in seconds. Default 300. */
  signedUrlTtlSeconds?: number;
}

const KNOWN = ['manageTokensIf', 'pepper', 'signedUrlTtlSeconds'];

/**
 * Validates the Edition B options once, at startup, and returns them frozen; a mistake throws a
 * `PanelConfigError` naming the option and the fix. The app lists the result in `mountPanelApi`'s
 * and `mountPanelAttachments`' `extensions` (an app that does not is Edition A).
 *
 * @example
 * export const panelApi = configurePanelApi({ manageTokensIf: (user) => (user as { admin?: boolean } | null)?.admin === true });
 */
export function configurePanelApi(options: PanelApiTokensOptions = {}): PanelApiTokensConfig {
  for (const key of Object.keys(options)) {
    if (!KNOWN.includes(key)) throw new PanelConfigError(`configurePanelApi: unknown option "${key}". Fix: use one of ${KNOWN.join(', ')}.`);
  }
  const gate = options.manageTokensIf ?? DENY_EVERYONE;
  if (typeof gate !== 'function' || gate.length > 1) {
    throw new PanelConfigError('configurePanelApi: manageTokensIf must be a function of the user, (user) => boolean, or of nothing, () => boolean reading Current.user. Fix: for example manageTokensIf: (user) => user?.admin === true.');
  }
  const pepper = options.pepper;
  if (pepper !== undefined && pepper !== null && typeof pepper !== 'string' && typeof pepper !== 'function') {
    throw new PanelConfigError('configurePanelApi: pepper must be a string or a function returning one. Fix: pass the secret from your secret store, or leave it out to read PANEL_API_TOKEN_PEPPER.');
  }
  const ttl = options.signedUrlTtlSeconds ?? 300;
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > 7 * 24 * 3600) {
    throw new PanelConfigError(`configurePanelApi: signedUrlTtlSeconds must be a whole number of seconds from 1 to 604800, instead got ${String(ttl)}. Fix: leave it out for 300 (five minutes).`);
  }
  const config: PanelApiTokensConfig = Object.freeze({
    edition: 'B' as const,
    name: 'Edition B (@panel/api-tokens)',
    manageTokensIf: gate,
    pepper,
    signedUrlTtlSeconds: ttl,
    mount: async (host: ExtensionHost) => (await import('../edition-b/edition-b-extension.js')).mountEditionB(config, host),
    attachments: async (host: AttachmentsHost) => (await import('../edition-b/edition-b-extension.js')).serveSignedFiles(config, host),
    registerScreens: async (host: ScreensHost) => (await import('../screens/edition-b-screens.js')).registerEditionBScreens(config, host),
  });
  return config;
}
