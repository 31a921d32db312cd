import type { FastifyPluginAsync } from 'fastify';
import type { Panel } from '@panel/core';
import { FLASH_COOKIE, loadPanelSession } from '@panel/api';
import { panelAccountPages, screensErrorHandler, securityPath } from '@panel/panel-ui';
import { escapeHtml, htmlPage } from './html-page.js';
import { verifyDemoCredentials, type CredentialsCheck } from './demo-credentials.js';

export { demoPassword } from './demo-credentials.js';

/** The options of the demo panel's pages. */
export interface PanelPagesOptions {
  panel: Panel;
  /** How a sign-in checks the email and password; default the demo password for every user. */
  checkCredentials?: CredentialsCheck;
  /** Serve the demo's root page; false when another plugin (the panel shell of `@panel/panel-ui`) serves it. Default true. */
  home?: boolean;
}

/**
 * The demo panel's pages: the root page naming the resources, and `@panel/panel-ui`'s account
 * pages: a sign-in form that opens a session (sealed cookie) so that session-based API
 * authentication can be tried, password confirmation, and a sensitive security page. A browser sends the page's CSRF token in
 * `X-CSRF-Token` with its API writes.
 */
export const panelPages: FastifyPluginAsync<PanelPagesOptions> = async (app, { panel, checkCredentials, home = true }) => {
  const { rootPath } = panel.config;

  // An error's answer never carries an internal code or message (a 500 is { "error": "Internal Server Error" }); an outage is a page for a browser.
  app.setErrorHandler(screensErrorHandler(rootPath));

  if (home) app.get(rootPath, async (request, reply) => {
    const session = (await loadPanelSession(panel, request, reply))?.data ?? {};
    const user = typeof session.userId === 'number'
      ? await panel.database.db.selectFrom('users').select(['name']).where('id', '=', session.userId).executeTakeFirst()
      : undefined;
    const flash = request.cookies[FLASH_COOKIE];
    if (flash) reply.clearCookie(FLASH_COOKIE, { path: rootPath });
    const items = [...panel.resources.values()]
      .map((r) => `      <li>${escapeHtml(r.naming.humanName)} — <code>/api/resources/v1/${escapeHtml(r.naming.routeKey)}</code></li>`)
      .join('\n');
    const who = user
      ? `<p>Signed in as ${escapeHtml(user.name)}. <a href="${securityPath(rootPath)}">Security</a> <form method="post" action="${rootPath}/logout"><input type="hidden" name="csrf_token" value="${escapeHtml(String(session.csrfToken ?? ''))}"><button>Sign out</button></form></p>`
      : `<p><a href="${rootPath}/login">Sign in</a></p>`;
    return reply.type('text/html; charset=utf-8').send(
      htmlPage('Panel', `    <h1>Panel</h1>\n    ${flash ? `<p role="alert">${escapeHtml(flash)}</p>` : ''}\n    ${who}\n    <p>Resources:</p>\n    <ul>\n${items}\n    </ul>`, typeof session.csrfToken === 'string' ? session.csrfToken : undefined),
    );
  });

  // Sign-in, sign-out, password confirmation and the security page: @panel/panel-ui's, styled like the token screens.
  await app.register(panelAccountPages, {
    panel,
    checkCredentials: checkCredentials ?? verifyDemoCredentials(panel.database.db),
    emailOf: async (id) => {
      const user = await panel.database.db.selectFrom('users').select(['email']).where('id', '=', id).executeTakeFirst();
      return user === undefined ? undefined : String(user.email);
    },
  });
};
