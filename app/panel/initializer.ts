import { configurePanelApi } from '@panel/api-tokens';

/**
 * Panel API, Edition B: built-in bearer tokens and permission grants (added by `panel-api install`).
 *
 * The token pepper is required: token creation and authentication fail until it is set. Set the
 * environment variable PANEL_API_TOKEN_PEPPER to 32 or more random characters (for example the
 * output of `openssl rand -hex 32`), or pass `pepper` from your secret store, which takes
 * precedence. Changing the pepper invalidates every existing token.
 *
 * Pass it to the API: `app.register(mountPanelApi, { panel, tokens: panelApi })`.
 */
export const panelApi = configurePanelApi({
  // Who may manage API tokens and the default permissions list, given the signed-in user.
  // Only `true` allows; any other result, or a thrown error, denies. Default: nobody.
  // For example: manageTokensIf: (user) => user?.admin === true,
  manageTokensIf: () => false,
});
