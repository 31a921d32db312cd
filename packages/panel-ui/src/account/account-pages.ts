import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import Handlebars from 'handlebars';
import { secretsEqual, type Panel, type PanelSessions } from '@panel/core';
import { clearPanelSession, confirmPath, isSameOriginRequest, loadPanelSession, requireRecentConfirmation, safeReturnPath, signInPath, writePanelSession } from '@panel/api';
import { screensErrorHandler } from '../screens/unavailable-page.js';
import { PANEL_CSS } from '../assets/panel-assets.js';
import { parseFormBody } from '../forms/form-body.js';
import { ACCOUNT_CSS, ACCOUNT_LAYOUT, ACCOUNT_PAGES } from './account-templates.js';

/** Checks an email and password; answers the user's id, or null for an unknown email and a wrong password alike (spend the same work on both). */
export type CredentialsCheck = (email: string, password: string) => Promise<number | null>;

/** The options of `panelAccountPages`. */
export interface PanelAccountPagesOptions {
  readonly panel: Panel;
  /** How a sign-in (and a password confirmation) checks the email and password. */
  readonly checkCredentials: CredentialsCheck;
  /** The email of a signed-in user, for the password confirmation (the user's id from the session). */
  readonly emailOf: (userId: number) => Promise<string | undefined>;
}

/** The path of the security page (sensitive: it needs a recent password confirmation). */
export const securityPath = (rootPath: string) => `${rootPath === '/' ? '' : rootPath}/security`;

/** Where the account pages' stylesheet is served. */
export const accountStylesheetPath = (rootPath: string) => `${rootPath === '/' ? '' : rootPath}/panel_ui/account/panel.css`;

type FormRequest = FastifyRequest<{ Body: Record<string, string> | undefined; Querystring: Record<string, string | undefined> }>;

const field = (request: FormRequest, name: string) => String(request.body?.[name] ?? '');
const EXPIRED = 'The form expired. Reload the page and try again.';

/** Renders the account pages; compiled once, in a Handlebars environment of their own. */
function accountRenderer(rootPath: string) {
  const handlebars = Handlebars.create();
  const layout = handlebars.compile(ACCOUNT_LAYOUT);
  const pages = new Map(Object.entries(ACCOUNT_PAGES).map(([name, source]) => [name, handlebars.compile(source)]));
  return (reply: FastifyReply, status: number, page: string, title: string, model: { csrfToken?: string | undefined } & Record<string, unknown>) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(layout({ title, rootPath, stylesheet: accountStylesheetPath(rootPath), csrfToken: model.csrfToken, body: pages.get(page)!(model) }));
}

/** Sign-in, sign-out and password confirmation; failed attempts throttled per (account, client) with backoff, per client, and per account from new clients. */
function registerSignIn(app: FastifyInstance, panel: Panel, options: PanelAccountPagesOptions, render: ReturnType<typeof accountRenderer>): void {
  const sessions: PanelSessions = panel.sessions!;
  const { rootPath } = panel.config;
  const csrfMatches = (request: FormRequest, token: unknown) => typeof token === 'string' && secretsEqual(field(request, 'csrf_token'), token);
  const signIn = (reply: FastifyReply, status: number, request: FormRequest, error?: string) =>
    render(reply, status, 'signIn', 'Sign in', { action: signInPath(rootPath), returnTo: request.body?.return_to ?? request.query.return_to, error });
  const tooMany = (retryAfter: number) => `Too many attempts. Try again in ${Math.ceil(retryAfter / 60)} minute(s).`;

  app.get(signInPath(rootPath), async (request: FormRequest, reply) => signIn(reply, 200, request));

  app.post(signInPath(rootPath), async (request: FormRequest, reply) => {
    // Login CSRF: a sign-in has no session, hence no session CSRF token yet; the browser's own
    // word on where the form came from stands in for it.
    if (!isSameOriginRequest(request)) return signIn(reply, 403, request, EXPIRED);
    const email = field(request, 'email');
    const attempt = { email, address: request.ip };
    const verdict = await sessions.throttle.attempt(attempt);
    if (!verdict.allowed) return signIn(reply.header('retry-after', String(verdict.retryAfter)), 429, request, tooMany(verdict.retryAfter));
    // One answer for an unknown email and a wrong password, so the form does not tell which emails exist.
    const userId = await options.checkCredentials(email, field(request, 'password'));
    if (userId === null) return signIn(reply, 401, request, 'Wrong email or password.');
    await sessions.throttle.succeeded(attempt);
    writePanelSession(panel, request, reply, await sessions.start(userId));
    return reply.code(303).header('location', safeReturnPath(request.body?.return_to, rootPath)).send();
  });

  app.post(`${rootPath === '/' ? '' : rootPath}/logout`, async (request: FormRequest, reply) => {
    const session = await loadPanelSession(panel, request, reply);
    // Another site must not sign the user out: the form's CSRF token, or this site's own Origin.
    if (session && !csrfMatches(request, session.data.csrfToken) && request.headers.origin !== `${request.protocol}://${request.host}`) {
      return signIn(reply, 403, request, EXPIRED);
    }
    // Signing out ends every copy of this session cookie, wherever it was copied to.
    if (session) await sessions.revoke(session);
    clearPanelSession(panel, request, reply);
    return reply.code(303).header('location', rootPath).send();
  });

  const confirm = (reply: FastifyReply, status: number, request: FormRequest, csrfToken: unknown, error?: string) =>
    render(reply, status, 'confirm', 'Confirm your password', { action: confirmPath(rootPath), returnTo: request.body?.return_to ?? request.query.return_to, formCsrfToken: typeof csrfToken === 'string' ? csrfToken : undefined, error });

  app.get(confirmPath(rootPath), async (request: FormRequest, reply) => {
    const session = await loadPanelSession(panel, request, reply);
    if (!session) return reply.code(303).header('location', signInPath(rootPath)).send();
    return confirm(reply, 200, request, session.data.csrfToken);
  });

  app.post(confirmPath(rootPath), async (request: FormRequest, reply) => {
    const session = await loadPanelSession(panel, request, reply);
    if (!session || typeof session.data.userId !== 'number') return reply.code(303).header('location', signInPath(rootPath)).send();
    if (!csrfMatches(request, session.data.csrfToken)) return confirm(reply, 403, request, session.data.csrfToken, EXPIRED);
    const email = await options.emailOf(session.data.userId);
    const attempt = { email: email ?? '', address: request.ip };
    const verdict = await sessions.throttle.attempt(attempt);
    if (!verdict.allowed) return confirm(reply.header('retry-after', String(verdict.retryAfter)), 429, request, session.data.csrfToken, tooMany(verdict.retryAfter));
    if (email === undefined || (await options.checkCredentials(email, field(request, 'password'))) !== session.data.userId) {
      return confirm(reply, 401, request, session.data.csrfToken, 'Wrong password.');
    }
    await sessions.throttle.succeeded(attempt);
    writePanelSession(panel, request, reply, sessions.confirm(session));
    return reply.code(303).header('location', safeReturnPath(request.body?.return_to, rootPath)).send();
  });
}

/**
 * The security page, sensitive: "sign out everywhere" ends every session of the user on every
 * device. The page and its action ask for the password again when the last confirmation is
 * older than `session.confirmWindow`.
 */
function registerSecurity(app: FastifyInstance, panel: Panel, render: ReturnType<typeof accountRenderer>): void {
  const sessions = panel.sessions!;
  const path = securityPath(panel.config.rootPath);

  app.get(path, async (request, reply) => {
    if (!(await requireRecentConfirmation(panel, request, reply))) return reply;
    const session = (await loadPanelSession(panel, request, reply))!;
    const csrfToken = String(session.data.csrfToken ?? '');
    return render(reply, 200, 'security', 'Security', { action: `${path}/sign-out-everywhere`, formCsrfToken: csrfToken, csrfToken });
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

/**
 * The panel's own pages, styled like the token screens: sign-in (a session in a sealed cookie),
 * sign-out, password confirmation, and the security page ("sign out everywhere", behind a
 * recent confirmation). A sign-in posted from another site is refused (login CSRF); failed
 * sign-ins and confirmations are throttled. Forms are parsed as the screens parse them (a NUL
 * is a 400 naming the field), and no error answer carries an internal code. Put
 * `securePanelPages` on the panel's root for the screens' security headers.
 *
 * @example
 * await app.register(fastifyCookie);
 * await app.register(panelAccountPages, { panel, checkCredentials, emailOf: async (id) => (await users.find(id))?.email });
 */
export const panelAccountPages: FastifyPluginAsync<PanelAccountPagesOptions> = async (app, options) => {
  const { panel } = options;
  if (!panel?.sessions) throw new Error('panelAccountPages: the panel has no sessions. Fix: give createPanel a sessionSecret.');
  const { rootPath } = panel.config;
  // A field with text no table can store (a NUL character) is a 400 naming it, before any query.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
    try {
      done(null, parseFormBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.setErrorHandler(screensErrorHandler(rootPath));
  const render = accountRenderer(rootPath);
  const css = `${PANEL_CSS}${ACCOUNT_CSS}`;
  app.get(accountStylesheetPath(rootPath), async (_request, reply) => reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(css));
  registerSignIn(app, panel, options, render);
  registerSecurity(app, panel, render);
};
