import { configurePanelApi } from '@panel/api-tokens';

/** The pepper `npm run demo:tokens` uses when PANEL_API_TOKEN_PEPPER is not set (printed at start; never use it for real data). */
export const DEMO_TOKEN_PEPPER = 'demo-pepper-not-for-production-0123456789';

/**
 * Panel API, Edition B: built-in bearer tokens and permission grants (`npm run demo:tokens`).
 *
 * The token pepper is required: token creation and authentication fail until it is set. The demo
 * reads PANEL_API_TOKEN_PEPPER and falls back to a printed demo value. Changing the pepper
 * invalidates every existing token.
 */
export const panelApi = configurePanelApi({
  // Only admins (Ada) may manage API tokens and the default permissions list.
  manageTokensIf: (user) => (user as { admin?: boolean } | null)?.admin === true,
  pepper: () => process.env.PANEL_API_TOKEN_PEPPER || DEMO_TOKEN_PEPPER,
});
