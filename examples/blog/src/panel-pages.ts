import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { newCsrfToken, secretsEqual, type Panel } from '@panel/core';
import { FLASH_COOKIE } from '@panel/api';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The demo's sign-in password (every seeded user has it); overridable by env. */
export const demoPassword = (env: NodeJS.ProcessEnv = process.env) => env.PANEL_DEMO_PASSWORD || 'demo-password';

function page(title: string, body: string, csrfToken?: string): string {
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>${escapeHtml(title)}</title>${csrfToken ? `<meta name="csrf-token" content="${escapeHtml(csrfToken)}">` : ''}</head>
  <body>
${body}
  </body>
</html>
`;
}

/**
 * The demo panel's pages: the root page naming the resources, and a sign-in form that opens a
 * session (sealed cookie) so that session-based API authentication can be tried. A browser
 * sends the page's CSRF token in `X-CSRF-Token` with its API writes.
 */
export const panelPages: FastifyPluginAsync<{ panel: Panel }> = async (app, { panel }) => {
  const { rootPath, sessionCookie } = panel.config;
  const sessions = panel.sessions!;
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax' as const };
  const sessionOf = (request: FastifyRequest) => sessions.open(request.cookies[sessionCookie]) ?? {};

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.get(rootPath, async (request, reply) => {
    const session = sessionOf(request);
    const user = typeof session.userId === 'number'
      ? await panel.database.db.selectFrom('users').select(['name']).where('id', '=', session.userId).executeTakeFirst()
      : undefined;
    const flash = request.cookies[FLASH_COOKIE];
    if (flash) reply.clearCookie(FLASH_COOKIE, { path: rootPath });
    const items = [...panel.resources.values()]
      .map((r) => `      <li>${escapeHtml(r.naming.humanName)} — <code>/api/resources/v1/${escapeHtml(r.naming.routeKey)}</code></li>`)
      .join('\n');
    const who = user
      ? `<p>Signed in as ${escapeHtml(user.name)}. <form method="post" action="${rootPath}/logout"><button>Sign out</button></form></p>`
      : `<p><a href="${rootPath}/login">Sign in</a></p>`;
    return reply.type('text/html; charset=utf-8').send(
      page('Panel', `    <h1>Panel</h1>\n    ${flash ? `<p role="alert">${escapeHtml(flash)}</p>` : ''}\n    ${who}\n    <p>Resources:</p>\n    <ul>\n${items}\n    </ul>`, typeof session.csrfToken === 'string' ? session.csrfToken : undefined),
    );
  });

  app.get(`${rootPath}/login`, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(
      page('Sign in', `    <h1>Sign in</h1>\n    <form method="post" action="${rootPath}/login">\n      <label>Email <input name="email" type="email"></label>\n      <label>Password <input name="password" type="password"></label>\n      <button>Sign in</button>\n    </form>`),
    ),
  );

  app.post(`${rootPath}/login`, async (request: FastifyRequest<{ Body: Record<string, string> | undefined }>, reply: FastifyReply) => {
    const { email = '', password = '' } = request.body ?? {};
    const user = await panel.database.db.selectFrom('users').select(['id']).where('email', '=', String(email)).executeTakeFirst();
    if (!user || !secretsEqual(String(password), demoPassword())) {
      return reply.code(401).type('text/html; charset=utf-8').send(page('Sign in', '    <p role="alert">Wrong email or password.</p>'));
    }
    reply.setCookie(sessionCookie, sessions.seal({ userId: user.id, csrfToken: newCsrfToken() }), cookieOptions);
    return reply.code(303).header('location', rootPath).send();
  });

  app.post(`${rootPath}/logout`, async (_request, reply) => {
    reply.clearCookie(sessionCookie, { path: '/' });
    return reply.code(303).header('location', rootPath).send();
  });
};
