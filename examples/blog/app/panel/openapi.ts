import type { OpenApiOptions } from '@panel/api';

/**
 * What the demo's OpenAPI document says of authentication (its `setupAuthentication` accepts an
 * `ApiKey` header or the panel's session cookie), and its interactive reference page. Passed to
 * `mountPanelApi({ openapi })` and read by `panel-api openapi`.
 */
export const openapi: OpenApiOptions = {
  info: { title: 'Panel API demo: a blog and a product catalogue' },
  securitySchemes: {
    apiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`Authorization: ApiKey <key>` (`demo-admin-key`, `demo-reader-key`).' },
    session: { type: 'apiKey', in: 'cookie', name: 'panel_session', description: "The panel's signed-in session (an unsafe request also sends the CSRF token)." },
  },
  docs: true,
};
