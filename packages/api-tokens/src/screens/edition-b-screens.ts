import type { FastifyRequest } from 'fastify';
import { OneTimeReveals, PanelConfigError } from '@panel/core';
import type { PanelViewer, ScreensHost } from '@panel/panel-ui';
import type { PanelApiTokensConfig } from '../config/panel-api-tokens-config.js';
import { mayManageTokens } from '../config/manage-tokens-gate.js';
import { revealKey } from '../signed-urls/signed-file-url.js';
import type { ApiTokenService } from '../tokens/token-service.js';
import { GRANT_MATRIX_PARTIAL } from './grant-matrix-template.js';
import { SETTINGS_TEMPLATE, TOKEN_GRANTS_TEMPLATE, TOKEN_LIST_TEMPLATE, TOKEN_NEW_TEMPLATE, TOKEN_REVEAL_TEMPLATE, TOKEN_REVOKE_TEMPLATE } from './token-templates.js';
import type { ScreenContext } from './token-screen-context.js';
import { registerTokenScreens } from './token-screens.js';
import { registerSettingsScreen } from './settings-screen.js';

const SCREENS = {
  tokenList: TOKEN_LIST_TEMPLATE,
  tokenNew: TOKEN_NEW_TEMPLATE,
  tokenReveal: TOKEN_REVEAL_TEMPLATE,
  tokenGrants: TOKEN_GRANTS_TEMPLATE,
  tokenRevoke: TOKEN_REVOKE_TEMPLATE,
  settings: SETTINGS_TEMPLATE,
};

/**
 * Edition B's screens inside the panel's shell (`panelScreens({ extensions: [panelApi] })`): the
 * API Tokens screens under `<root_path>/api_tokens`, the default permissions screen at
 * `<root_path>/panel_api/settings`, and the sidebar's "API" section, all for the users
 * `manageTokensIf` allows (asked once per request, fail-closed); anyone else gets the app's 404.
 * The token service is the `tokens` option, else the API mount's (`app.panelApiTokens`).
 */
export async function registerEditionBScreens(config: PanelApiTokensConfig, { app, shell, options, addScreens, addSidebarSection }: ScreensHost): Promise<void> {
  const fix = (text: string) => new PanelConfigError(`panelScreens: ${text}`);
  const tokens = (options.tokens ?? app.panelApiTokens) as ApiTokenService | undefined;
  if (!tokens || typeof tokens.list !== 'function') {
    throw fix('the option "tokens" must be an ApiTokenService. Fix: tokens: new ApiTokenService({ database, pepper }), or register mountPanelApi with extensions: [panelApi] before panelScreens.');
  }
  const ttl = options.revealTtlSeconds ?? 300;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 10 || ttl > 3600) throw fix(`revealTtlSeconds must be a whole number of seconds from 10 to 3600, instead got ${String(ttl)}. Fix: leave it out for 300.`);
  const asked = new WeakMap<FastifyRequest, Promise<boolean>>();
  const may = (viewer: PanelViewer, request: FastifyRequest): Promise<boolean> => {
    let answer = asked.get(request);
    if (answer === undefined) {
      answer = viewer.user === null ? Promise.resolve(false) : mayManageTokens(config.manageTokensIf, viewer.user.record, (error) => request.log.error({ err: error }, 'manageTokensIf threw; token management denied'));
      asked.set(request, answer);
    }
    return answer;
  };
  addScreens(SCREENS, { grantMatrix: GRANT_MATRIX_PARTIAL });
  const { paths } = shell;
  addSidebarSection({ id: 'api', heading: 'API', links: [{ label: 'API Tokens', href: paths.tokens, section: 'tokens' }, { label: 'Default permissions', href: paths.settings, section: 'settings' }], shows: may });
  const screens: ScreenContext = {
    ...shell,
    tokens,
    // In the database, sealed with a key derived from the pepper: any process can show it, once.
    reveals: new OneTimeReveals({ database: shell.panel.database, key: () => revealKey(tokens.pepper()), ttlMillis: ttl * 1000 }),
    mayManageTokens: may,
  };
  registerTokenScreens(app, screens);
  registerSettingsScreen(app, screens);
}
