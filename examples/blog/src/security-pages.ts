import type { FastifyInstance, FastifyRequest } from 'fastify';
import { secretsEqual, type Panel } from '@panel/core';
import { clearPanelSession, loadPanelSession, requireRecentConfirmation, signInPath } from '@panel/api';
import { escapeHtml, htmlPage } from './html-page.js';

/** The path of the demo's security page (sensitive: it needs a recent password confirmation). */
export const securityPath = (rootPath: string) => `${rootPath === '/' ? '' : rootPath}/security`;

/**
 * The demo's sensitive page, guarded as the token screens will be: "sign out everywhere"
 * ends every session of the user on every device. Both the page and its action ask for the
 * password again when the last confirmation is older than `session.confirmWindow`.
 */
export function registerSecurityPages(app: FastifyInstance, panel: Panel): void {
  const sessions = panel.sessions!;
  const path = securityPath(panel.config.rootPath);

  app.get(path, async (request, reply) => {
    if (!(await requireRecentConfirmation(panel, request, reply))) return reply;
    const session = (await loadPanelSession(panel, request, reply))!;
    const csrfToken = String(session.data.csrfToken ?? '');
    const body = `    <h1>Security</h1>
    <form method="post" action="${path}/sign-out-everywhere"><input type="hidden" name="csrf_token" value="${escapeHtml(csrfToken)}">
      <button>Sign out everywhere</button>
    </form>`;
    return reply.type('text/html; charset=utf-8').send(htmlPage('Security', body, csrfToken));
  });

  app.post(`${path}/sign-out-everywhere`, async (request: FastifyRequest<{ Body: Record<string, string> | undefined }>, reply) => {
    if (!(await requireRecentConfirmation(panel, request, reply))) return reply;
    const session = (await loadPanelSession(panel, request, reply))!;
    const presented = String(request.body?.csrf_token ?? request.headers['x-csrf-token'] ?? '');
    if (typeof session.data.csrfToken !== 'string' || !secretsEqual(presented, session.data.csrfToken)) {
      return reply.code(403).type('application/json; charset=utf-8').send({ error: "Can't verify CSRF token authenticity." });
    }
    await sessions.revokeAll(session.data.userId as number);
    clearPanelSession(panel, request, reply);
    return reply.code(303).header('location', signInPath(panel.config.rootPath)).send();
  });
}
