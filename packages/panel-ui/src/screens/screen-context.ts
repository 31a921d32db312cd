import type { FastifyReply, FastifyRequest } from 'fastify';
import { secretsEqual, type Panel } from '@panel/core';
import { BadRequestError, confirmPath, loadPanelSession, requireRecentConfirmation, signInPath } from '@panel/api';
import type { PageRenderer, ScreenModel, ShownSection } from '../shell/page-renderer.js';
import type { SidebarSection } from '../shell/sidebar-section.js';
import { panelViewer, takeFlash, type LoadPanelUser, type LoadPanelUsers, type PanelViewer } from '../shell/panel-viewer.js';
import { formField, formProblem } from '../forms/form-body.js';
import { resourceLabels } from '../shell/resource-label.js';

/** What every page inside the shell needs: the panel, the user loader, the paths, the renderer and the extensions' sidebar sections. */
export interface ShellContext {
  readonly panel: Panel;
  readonly loadUser: LoadPanelUser;
  /** Finds several users' rows at once: a screen that names many users sends one statement, not one per user. */
  readonly loadUsers: LoadPanelUsers;
  readonly renderer: PageRenderer;
  readonly paths: ScreenPaths;
  /**
   * The sidebar's resources for a viewer: those whose index the viewer's policy allows, each
   * linked to its screen; absent, every resource is named without a link.
   */
  readonly sidebar?: (viewer: PanelViewer) => Promise<readonly { label: string; routeKey: string; href?: string }[]>;
  /** The extensions' sidebar sections (Edition B's "API"), in the order they were added; each shown to the viewers it chooses. */
  readonly sections: readonly SidebarSection[];
}

/** The screens' URLs under the panel's root path. */
export interface ScreenPaths {
  readonly root: string;
  readonly tokens: string;
  readonly settings: string;
  readonly assets: string;
  readonly logout: string;
  readonly signIn: string;
  readonly confirm: string;
}

/** The screens' paths for a root path (`/panel` → `/panel/api_tokens`, …; `/` → `/api_tokens`). */
export function screenPaths(rootPath: string): ScreenPaths {
  const base = rootPath === '/' ? '' : rootPath;
  return {
    root: rootPath,
    tokens: `${base}/api_tokens`,
    settings: `${base}/panel_api/settings`,
    assets: `${base}/panel_ui/assets`,
    logout: `${base}/logout`,
    signIn: signInPath(rootPath),
    confirm: confirmPath(rootPath),
  };
}

/** What a gated screen needs before it answers. */
export interface GuardRules {
  /** Whether this viewer may see the screen at all (an extension's rule: Edition B's `manageTokensIf`). */
  readonly may: (viewer: PanelViewer, request: FastifyRequest) => Promise<boolean>;
  /** A POST: the form must carry the session's CSRF token. */
  readonly write?: boolean;
  /** Sudo mode: the user's password must have been typed within `session.confirmWindow`. */
  readonly sudo?: boolean;
}

/**
 * The gate of an extension's screen (Edition B's token and settings URLs), GET and POST alike.
 * When `rules.may` does not answer `true` for the viewer (Edition B: no session, a thrown
 * `manageTokensIf`, any answer but `true`), the request is answered exactly as a URL the app
 * does not have (404 through the app's not-found handler), so the screen's existence is not
 * disclosed (nor is the session sealed again: an unknown URL does not reseal it). Then a form field with a NUL character
 * or a lone surrogate is a 400 naming it; then, for a POST, the CSRF token; then,
 * where asked, a recent password confirmation. Returns the viewer, or null when it answered.
 */
export async function guardScreen(context: ShellContext, request: FastifyRequest, reply: FastifyReply, rules: GuardRules): Promise<PanelViewer | null> {
  // The session is sealed again only once the viewer may see the screen: a refusal carries no
  // cookie, exactly as the app's 404 for a URL it does not have.
  const viewer = await panelViewer(context.panel, context.loadUser, request, reply, false);
  if ((await rules.may(viewer, request)) !== true) {
    reply.callNotFound();
    return null;
  }
  await loadPanelSession(context.panel, request, reply);
  // Text no table can store (a NUL character): 400 naming the field, before any query sees it.
  const problem = formProblem(request.body);
  if (problem) throw new BadRequestError(problem);
  if (rules.write && (viewer.csrfToken === '' || !secretsEqual(formField(request.body, 'csrf_token'), viewer.csrfToken))) {
    await sendPage(context, request, reply, viewer, 403, 'expired', { title: 'The form expired' }, {});
    return null;
  }
  if (rules.sudo && !(await requireRecentConfirmation(context.panel, request, reply))) return null;
  return viewer;
}

/** The sections this viewer may see, each link marked `current` on its own screen. */
async function shownSections(sections: readonly SidebarSection[], viewer: PanelViewer, request: FastifyRequest, page: ScreenModel): Promise<ShownSection[]> {
  const shown: ShownSection[] = [];
  for (const section of sections) {
    if ((await section.shows(viewer, request)) !== true) continue;
    shown.push({ id: section.id, heading: section.heading, links: section.links.map((link) => ({ label: link.label, href: link.href, current: link.section === page.section })) });
  }
  return shown;
}

/** Renders a screen inside the shell, never cached (the screens show private data). */
export async function sendPage(context: ShellContext, request: FastifyRequest, reply: FastifyReply, viewer: PanelViewer, status: number, screen: string, page: ScreenModel, model: object): Promise<FastifyReply> {
  const { paths, panel } = context;
  const shell = {
    rootPath: paths.root,
    assets: paths.assets,
    logoutPath: paths.logout,
    signInPath: paths.signIn,
    resources: (context.sidebar ? await context.sidebar(viewer) : resourceLabels(panel)).map((entry) => ({ ...entry, current: entry.routeKey === page.resource })),
    user: viewer.user ? { displayName: viewer.user.displayName } : null,
    csrfToken: viewer.csrfToken,
    sections: await shownSections(context.sections, viewer, request, page),
    flash: takeFlash(request, reply, paths.root),
  };
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(context.renderer.render(screen, shell, page, model));
}

/** A 303 to `location` (the answer to every successful form post: reloading does not post again). */
export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('location', location).send();
}
