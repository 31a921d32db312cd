/**
 * `@panel/panel-ui/security`: what an app's own panel pages (sign-in, confirmation, security)
 * share with the screens, without loading the screens' template engine.
 */
export { securePanelPages, type SecurePanelPagesOptions } from './secure-panel-pages.js';
export { PANEL_SECURITY_HEADERS, PANEL_CONTENT_SECURITY_POLICY } from './security-headers.js';
export { parseFormBody, formProblem, type FormBody } from '../forms/form-body.js';
