export { panelScreens, type PanelScreensOptions } from './plugin/panel-screens.js';
export { screenPaths, type ScreenPaths } from './screens/screen-context.js';
export { PANEL_SECURITY_HEADERS, PANEL_CONTENT_SECURITY_POLICY } from './security/security-headers.js';
export { NOTICE_COOKIE, usersTable, type LoadPanelUser, type PanelUser } from './shell/panel-viewer.js';
export { securePanelPages, type SecurePanelPagesOptions } from './security/secure-panel-pages.js';
export { parseFormBody, formProblem, type FormBody } from './forms/form-body.js';
export { panelAccountPages, securityPath, accountStylesheetPath, type PanelAccountPagesOptions, type CredentialsCheck } from './account/account-pages.js';
