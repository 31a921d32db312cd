import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { secretsEqual, type Panel, type PanelSessions } from '@panel/core';
import { clearPanelSession, confirmPath, isSameOriginRequest, loadPanelSession, safeReturnPath, signInPath, writePanelSession } from '@panel/api';
import { escapeHtml, htmlPage } from './html-page.js';
import type { CredentialsCheck } from './demo-credentials.js';

type FormRequest = FastifyRequest<{ Body: Record<string, string> | undefined; Querystring: Record<string, string | undefined> }>;

const field = (request: FormRequest, name: string) => String(request.body?.[name] ?? '');

/** Whether the request's `Origin` is this site's own (a browser sends it with every form post). */
const sameOrigin = (request: FormRequest) => request.headers.origin === `${request.protocol}://${request.host}`;

function form(action: string, fields: string, button: string, returnTo?: string, csrfToken?: string): string {
  const hidden = [
    returnTo ? `<input type="hidden" name="return_to" value="${escapeHtml(returnTo)}">` : '',
    csrfToken ? `<input type="hidden" name="csrf_token" value="${escapeHtml(csrfToken)}">` : '',
  ].join('');
  return `    <form method="post" action="${escapeHtml(action)}">${hidden}\n${fields}\n      <button>${button}</button>\n    </form>`;
}

const PASSWORD_FIELD = '      <label>Password <input name="password" type="password" autocomplete="current-password"></label>';

/**
 * Registers the demo's sign-in, sign-out and password confirmation pages, and its one
 * sensitive page (security: "sign out everywhere"), which needs a recent confirmation.
 * Failed sign-ins and confirmations are throttled per account and client and per client
 * address; a sign-in posted from another site is refused (login CSRF).
 */
export function registerSignInPages(app: FastifyInstance, panel: Panel, checkCredentials: CredentialsCheck): void {
  const sessions: PanelSessions = panel.sessions!;
  const { rootPath } = panel.config;
  const html = (reply: FastifyReply, status: number, title: string, body: string) => reply.code(status).type('text/html; charset=utf-8').send(htmlPage(title, body));
  const tooMany = (reply: FastifyReply, title: string, retryAfter: number) =>
    html(reply.header('retry-after', String(retryAfter)), 429, title, `    <p role="alert">Too many attempts. Try again in ${Math.ceil(retryAfter / 60)} minute(s).</p>`);
  const csrfMatches = (request: FormRequest, token: unknown) => typeof token === 'string' && secretsEqual(field(request, 'csrf_token'), token);

  app.get(signInPath(rootPath), async (request: FormRequest, reply) =>
    html(reply, 200, 'Sign in', `    <h1>Sign in</h1>\n${form(signInPath(rootPath), `      <label>Email <input name="email" type="email"></label>\n${PASSWORD_FIELD}`, 'Sign in', request.query.return_to)}`),
  );

  app.post(signInPath(rootPath), async (request: FormRequest, reply) => {
    // Login CSRF: a sign-in has no session, hence no session CSRF token yet; the browser's own
    // word on where the form came from stands in for it, refused as the other forms refuse.
    if (!isSameOriginRequest(request)) return html(reply, 403, 'Sign in', '    <p role="alert">The form expired. Reload the page and try again.</p>');
    const email = field(request, 'email');
    const attempt = { email, address: request.ip };
    const verdict = await sessions.throttle.attempt(attempt);
    if (!verdict.allowed) return tooMany(reply, 'Sign in', verdict.retryAfter);
    // One answer for an unknown email and a wrong password, so the form does not tell which emails exist.
    const userId = await checkCredentials(email, field(request, 'password'));
    if (userId === null) return html(reply, 401, 'Sign in', '    <p role="alert">Wrong email or password.</p>');
    await sessions.throttle.succeeded(attempt);
    writePanelSession(panel, request, reply, await sessions.start(userId));
    return reply.code(303).header('location', safeReturnPath(request.body?.return_to, rootPath)).send();
  });

  app.post(`${rootPath}/logout`, async (request: FormRequest, reply) => {
    const session = await loadPanelSession(panel, request, reply);
    // Another site must not sign the user out: the form's CSRF token, or this site's own Origin.
    if (session && !csrfMatches(request, session.data.csrfToken) && !sameOrigin(request)) {
      return html(reply, 403, 'Sign out', '    <p role="alert">The form expired. Reload the page and try again.</p>');
    }
    // Signing out ends every copy of this session cookie, wherever it was copied to.
    if (session) await sessions.revoke(session);
    clearPanelSession(panel, request, reply);
    return reply.code(303).header('location', rootPath).send();
  });

  app.get(confirmPath(rootPath), async (request: FormRequest, reply) => {
    const session = await loadPanelSession(panel, request, reply);
    if (!session) return reply.code(303).header('location', signInPath(rootPath)).send();
    const body = `    <h1>Confirm your password</h1>\n    <p>This action is sensitive: type your password again to go on.</p>\n${form(confirmPath(rootPath), PASSWORD_FIELD, 'Confirm', request.query.return_to, session.data.csrfToken as string | undefined)}`;
    return html(reply, 200, 'Confirm your password', body);
  });

  app.post(confirmPath(rootPath), async (request: FormRequest, reply) => {
    const session = await loadPanelSession(panel, request, reply);
    if (!session || typeof session.data.userId !== 'number') return reply.code(303).header('location', signInPath(rootPath)).send();
    if (!csrfMatches(request, session.data.csrfToken)) return html(reply, 403, 'Confirm your password', '    <p role="alert">The form expired. Reload the page and try again.</p>');
    const user = await panel.database.db.selectFrom('users').select(['email']).where('id', '=', session.data.userId).executeTakeFirst();
    const attempt = { email: String(user?.email ?? ''), address: request.ip };
    const verdict = await sessions.throttle.attempt(attempt);
    if (!verdict.allowed) return tooMany(reply, 'Confirm your password', verdict.retryAfter);
    if (!user || (await checkCredentials(attempt.email, field(request, 'password'))) !== session.data.userId) {
      return html(reply, 401, 'Confirm your password', '    <p role="alert">Wrong password.</p>');
    }
    await sessions.throttle.succeeded(attempt);
    writePanelSession(panel, request, reply, sessions.confirm(session));
    return reply.code(303).header('location', safeReturnPath(request.body?.return_to, rootPath)).send();
  });
}
