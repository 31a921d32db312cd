import type { FastifyPluginAsync } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { PanelConfigError, type Panel } from '@panel/core';
import { readYourWrites } from '@panel/api';
import { COPY_SECRET_JS, PANEL_CSS } from '../assets/panel-assets.js';
import { RESOURCE_FORM_BODY_LIMIT, registerFormParser } from '../forms/form-body.js';
import { applySecurityHeaders } from '../security/security-headers.js';
import { PageRenderer } from '../shell/page-renderer.js';
import { eachUser, panelViewer, usersTable, usersTableRows, type LoadPanelUser, type LoadPanelUsers } from '../shell/panel-viewer.js';
import { resourceLabels } from '../shell/resource-label.js';
import { HOME_TEMPLATE } from '../templates/home-template.js';
import { FORM_EXPIRED_TEMPLATE } from '../templates/form-expired-template.js';
import { screenPaths, sendPage, type ShellContext } from '../screens/screen-context.js';
import { isScreensExtension, type ScreensExtension, type SidebarSection } from './screens-extension.js';
import { CONTROL_PARTIALS, RESOURCE_DELETE_TEMPLATE, RESOURCE_FORM_TEMPLATE, RESOURCE_PROBLEM_TEMPLATE, RESOURCE_SHOW_TEMPLATE } from '../templates/resource-record-templates.js';
import { RECORDS_TABLE_PARTIAL, RESOURCE_INDEX_TEMPLATE, VALUE_PARTIAL } from '../templates/resource-list-templates.js';
import { registerResourceScreens } from '../resources/resource-screens.js';
import { ResourcePaths } from '../resources/resource-paths.js';
import { ScreenActor } from '../resources/screen-actor.js';
import { warnAboutFormlessFields } from '../resources/formless-fields-warning.js';
import { formErrorHandler } from '../resources/form-size-limit.js';

/** The options of `panelScreens`. */
export interface PanelScreensOptions {
  /** The panel: its resources fill the sidebar and the grant matrices; its sessions sign users in. */
  panel: Panel;
  /**
   * The screens' extensions (docs/extensions.md). Edition B's token and default-permissions
   * screens are `extensions: [configurePanelApi(…)]`, managing the token service of the API
   * mount registered before (`app.panelApiTokens`) or the `tokens` option. Without any, only the
   * shell, its home and the resource screens are served, and no user sees "API Tokens".
   */
  extensions?: readonly ScreensExtension[];
  /** The earlier spelling of Edition B: `panelApi` (the `configurePanelApi(…)` result) is `extensions: [panelApi]`. */
  panelApi?: ScreensExtension;
  /** Edition B's token service, read by its screens (default: the API mount's `app.panelApiTokens`). */
  tokens?: object;
  /** Finds the signed-in user's row by id (the gate's argument); default the `users` table's row. */
  loadUser?: LoadPanelUser;
  /**
   * Finds several users' rows by id at once (the token list's creators); default the `users`
   * rows in one statement, or, when only `loadUser` is given, `loadUser` once per id.
   */
  loadUsers?: LoadPanelUsers;
  /** Serve the shell's home screen at the root path too (leave false when the app has its own). Default false. */
  home?: boolean;
  /** Edition B: how long a new token's secret waits for its one-time reveal screen, in seconds (read by its screens). Default 300. */
  revealTtlSeconds?: number;
  /**
   * The largest create or update form of the resource screens, in bytes (a larger one is a 413
   * page). Default 1 MiB, the API mount's default `bodyLimit`: give both the same value, so that
   * a form takes what the API takes.
   */
  formBodyLimit?: number;
}

const SCREENS = {
  home: HOME_TEMPLATE,
  expired: FORM_EXPIRED_TEMPLATE,
  resourceIndex: RESOURCE_INDEX_TEMPLATE,
  resourceShow: RESOURCE_SHOW_TEMPLATE,
  resourceForm: RESOURCE_FORM_TEMPLATE,
  resourceDelete: RESOURCE_DELETE_TEMPLATE,
  problem: RESOURCE_PROBLEM_TEMPLATE,
};

const PARTIALS = { value: VALUE_PARTIAL, recordsTable: RECORDS_TABLE_PARTIAL, ...CONTROL_PARTIALS };

/** Checks the options; returns the extensions (none: the shell, its home and the resource screens only). */
function checkOptions(options: PanelScreensOptions, hasCookies: boolean): ScreensExtension[] {
  const fix = (text: string) => new PanelConfigError(`panelScreens: ${text}`);
  if (!options?.panel?.config) throw fix('the option "panel" is missing. Fix: app.register(panelScreens, { panel, tokens, panelApi }).');
  if (!options.panel.sessions) throw fix('the panel has no sessions. Fix: pass sessionSecret to createPanel; the screens sign users in with the panel session.');
  const listed = options.extensions ?? [];
  if (!Array.isArray(listed) || !listed.every(isScreensExtension)) throw fix('extensions must be a list of screens extensions (each with a name and registerScreens()), such as [configurePanelApi({ manageTokensIf })]. Fix: see docs/extensions.md.');
  const extensions = [...listed];
  if (options.tokens !== undefined || options.panelApi !== undefined) {
    if (!isScreensExtension(options.panelApi)) throw fix('the option "panelApi" must be the result of configurePanelApi({ manageTokensIf }). Fix: pass panelApi from your initializer.');
    extensions.push(options.panelApi);
  }
  if (extensions.length === 0 && options.home !== true) throw fix('without tokens there is nothing to serve but the home screen. Fix: pass home: true (Edition A), or tokens and panelApi for the API token screens (Edition B).');
  const { formBodyLimit } = options;
  if (formBodyLimit !== undefined && (!Number.isInteger(formBodyLimit) || formBodyLimit < 1)) throw fix(`the option "formBodyLimit" must be a positive whole number of bytes, instead got ${String(formBodyLimit)}. Fix: pass the API mount's bodyLimit, or leave it out for 1048576 (1 MiB).`);
  if (!hasCookies) throw fix('cookies are not parsed. Fix: await app.register(fastifyCookie) (from @fastify/cookie) before panelScreens.');
  return extensions;
}

/**
 * Panel's server-rendered screens as a Fastify plugin: the shell (sidebar of resources and of
 * each extension's section, flash area, sign-out), the resource screens, and each extension's
 * screens (Edition B: the API Tokens screens under `<root_path>/api_tokens` and the default
 * permissions screen at `<root_path>/panel_api/settings`), with their stylesheet and copy script
 * under `<root_path>/panel_ui/assets`. Forms work without JavaScript; every POST carries the
 * session's CSRF token; every answer carries the security headers (CSP without inline script,
 * `frame-ancestors 'none'`). Sign-in, confirmation and sign-out pages are `panelAccountPages`'.
 * Without extensions (Edition A), `home: true` is required.
 *
 * @example
 * await app.register(fastifyCookie);
 * await app.register(mountPanelApi, { panel, extensions: [panelApi] });
 * await app.register(panelScreens, { panel, home: true, extensions: [panelApi] });
 * // Edition A: the shell, its home screen and the resource screens.
 * await app.register(panelScreens, { panel, home: true });
 */
export const panelScreens: FastifyPluginAsync<PanelScreensOptions> = async (app, options) => {
  const extensions = checkOptions(options, app.hasDecorator('parseCookie'));
  const { panel } = options;
  const resourcePaths = new ResourcePaths(panel.config.rootPath);
  const sections: SidebarSection[] = [];
  const context: ShellContext = {
    panel,
    sections,
    loadUser: options.loadUser ?? usersTable(panel),
    loadUsers: options.loadUsers ?? (options.loadUser ? eachUser(options.loadUser) : usersTableRows(panel)),
    renderer: new PageRenderer(SCREENS, PARTIALS),
    paths: screenPaths(panel.config.rootPath),
    // The sidebar links each resource whose index the viewer's policy allows (a policy method runs no statement).
    sidebar: async (viewer) => {
      const labels = resourceLabels(panel);
      if (!viewer.user) return labels;
      const actor = new ScreenActor(panel, viewer.user.record, `user:${viewer.user.id}`);
      const resources = [...panel.resources.values()];
      const allowed = await Promise.all(resources.map((resource) => actor.may(resource, 'index')));
      return labels.filter((_, index) => allowed[index]).map((label) => ({ ...label, href: resourcePaths.index(label.routeKey) }));
    },
  };
  registerFormParser(app);
  // Forms with a file control post multipart/form-data, read part by part by the resource screens (resources/multipart-form.ts).
  await app.register(fastifyMultipart);
  // An error's answer never carries an internal code or message (a 500 is { "error": "Internal Server Error" }); a form too large is the 413 page.
  app.setErrorHandler(formErrorHandler(context));
  readYourWrites(app, panel.database, { cookie: 'always' });
  app.addHook('onSend', async (_request, reply, payload) => {
    applySecurityHeaders(reply);
    return payload;
  });

  const assets = { 'panel.css': ['text/css; charset=utf-8', PANEL_CSS], 'copy-secret.js': ['text/javascript; charset=utf-8', COPY_SECRET_JS] } as const;
  for (const [file, [type, body]] of Object.entries(assets)) {
    app.get(`${context.paths.assets}/${file}`, async (_request, reply) => reply.type(type).header('cache-control', 'public, max-age=3600').send(body));
  }

  if (options.home) {
    app.get(panel.config.rootPath, async (request, reply) => {
      const viewer = await panelViewer(panel, context.loadUser, request, reply);
      const resources = resourceLabels(panel).map((r) => ({ ...r, apiPath: `/api/resources/v1/${r.routeKey}` }));
      const records = [...panel.resources.values()].map((resource) => resource.naming.humanName);
      return sendPage(context, request, reply, viewer, 200, 'home', { title: 'Panel', section: 'home' }, { resources, records });
    });
  }
  registerResourceScreens(app, { ...context, resourcePaths, formBodyLimit: options.formBodyLimit ?? RESOURCE_FORM_BODY_LIMIT, byRouteKey: new Map([...panel.resources.values()].map((resource) => [resource.naming.routeKey, resource])) });
  warnAboutFormlessFields(app, panel);
  // The extensions' screens (Edition B's), inside the same shell, parsers and headers.
  for (const extension of extensions) {
    await extension.registerScreens({ app, shell: context, options: options as unknown as Record<string, unknown>, addScreens: (screens, partials) => context.renderer.addScreens(screens, partials), addSidebarSection: (section) => sections.push(section) });
  }
};
