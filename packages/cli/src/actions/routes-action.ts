import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { compileResources, loadResourceClasses, PanelConfigError, type CompiledResource } from '@panel/core';
import { discoverControllers, queryableFields, relatedRoutes, routeTable, type DiscoveryPanel, type RouteEntry } from '@panel/api';
import type { AppConfig } from '../config/app-config.js';
import { appTokensConfig } from '../config/app-tokens-config.js';
import { appPath } from '../discovery/scan-resources.js';
import { messages } from '../messages.js';
import { ensureTypeScriptLoader } from '../runtime/typescript-loader.js';
import { noResourcesMessage } from './generate-action.js';

/** What `panel-api routes` was asked for. */
export interface RoutesContext {
  readonly app: AppConfig;
  /** The mount path given to `mountPanelApi` (`at`); default `api`. */
  readonly at: string;
  readonly json: boolean;
  /** Also what each list accepts (`--filters`): its filters and their operators, `q`'s fields, `fields`. */
  readonly filters?: boolean;
  readonly print: (line: string) => void;
  readonly printError: (line: string) => void;
}

/** One printed route. */
export interface PrintedRoute {
  readonly method: string;
  readonly path: string;
  readonly controller: string;
  readonly action: string;
  readonly resource: string;
  /** The controller file, relative to the app root. */
  readonly file: string;
  /** With `--filters`, on a list: what its query accepts. */
  readonly query?: ListQueryDescription;
  /** On a traversal (Edition B): the association, and the controller whose rules answer. */
  readonly association?: string;
  readonly targetController?: string;
}

/** What a list's query accepts, as `queryableFields` answers for a request without per-actor rules. */
export interface ListQueryDescription {
  /** Each `filter[<key>]` and its operators. */
  readonly filters: Readonly<Record<string, readonly string[]>>;
  /** The fields `q` searches (empty: `q` is refused). */
  readonly search: readonly string[];
  /** The names `fields=` takes. */
  readonly fields: readonly string[];
}

/** What a list of `resource` accepts in its query string. */
export function listQueryDescription(resource: CompiledResource): ListQueryDescription {
  const { filter, search, read } = queryableFields({ resource, view: 'index' });
  return {
    filters: Object.fromEntries([...filter].map(([key, field]) => [key, field.kind.filter!.operators])),
    search: search.map((field) => field.name),
    fields: read.map((field) => field.name),
  };
}

function printable(appRoot: string, mountPath: string, route: RouteEntry, query: ListQueryDescription | undefined): PrintedRoute {
  return {
    method: route.method,
    path: `${mountPath}${route.path}`,
    controller: route.controller.name,
    action: route.action,
    resource: route.resourceName,
    file: appPath(appRoot, route.file),
    ...(query ? { query } : {}),
    ...(route.association !== undefined ? { association: route.association, targetController: route.targetController?.name ?? '' } : {}),
  };
}

/**
 * What routing reads of a panel, built as `createPanel` builds it (the resource classes imported
 * from the resources folder, then compiled), without the database and services routing never uses.
 */
export async function routingPanel(appRoot: string, resourcesDir: string): Promise<DiscoveryPanel & Parameters<typeof routeTable>[0]> {
  const resources = compileResources(await loadResourceClasses(join(appRoot, resourcesDir)));
  return {
    appRoot,
    resources,
    resource(name: string) {
      const resource = resources.get(name);
      if (!resource) throw new PanelConfigError(`No resource named "${name}". Known resources: ${[...resources.keys()].join(', ') || 'none'}.`);
      return resource;
    },
  };
}

/** Rows as columns padded to their widest cell, two spaces apart. */
function columns(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '));
}

/**
 * Prints the routes the runtime would draw, computed by the runtime's own code: it loads the
 * app's resources and imports its controllers exactly as `createPanel` and `mountPanelApi` do at
 * boot (`discoverControllers`, then `routeTable`, and in Edition B `relatedRoutes`, the
 * association traversals). No database is opened.
 */
export async function routesAction(context: RoutesContext): Promise<number> {
  const { appRoot, resourcesDir, controllersDir } = context.app;
  const mountPath = context.at.startsWith('/') ? context.at : `/${context.at}`;
  // Before booting: the runtime's own message for a missing folder speaks of createPanel() options.
  if (!existsSync(join(appRoot, resourcesDir))) {
    context.printError(noResourcesMessage(appRoot, resourcesDir, join(appRoot, resourcesDir)));
    return 1;
  }
  let routes: PrintedRoute[];
  try {
    await ensureTypeScriptLoader();
    const panel = await routingPanel(appRoot, resourcesDir);
    const controllers = await discoverControllers(panel, join(appRoot, controllersDir));
    const lists = (route: RouteEntry) => (context.filters === true && route.action === 'index' ? listQueryDescription(panel.resource(route.resourceName)) : undefined);
    // Edition B (the initializer exports a configurePanelApi configuration) also draws the traversal routes, as mountPanelApi does.
    const traversals = (await appTokensConfig(appRoot)) !== undefined ? relatedRoutes(panel, controllers) : [];
    routes = [...routeTable(panel, controllers), ...traversals].map((route) => printable(appRoot, mountPath, route, lists(route)));
  } catch (error) {
    context.printError(messages.bootFailed((error as Error).message));
    return 1;
  }
  if (context.json) {
    context.print(JSON.stringify(routes, null, 2));
    return 0;
  }
  if (routes.length === 0) {
    context.print(messages.noRoutes(controllersDir));
    return 0;
  }
  const rows = [messages.routesHeader(), ...routes.map((r) => [r.method, r.path, `${r.controller}#${r.action}${r.targetController ? ` → ${r.targetController}` : ''}`, r.file] as const)];
  for (const line of columns(rows)) context.print(line);
  for (const route of routes) {
    if (!route.query) continue;
    context.print('');
    context.print(`${route.method} ${route.path}`);
    const lines = [
      ...Object.entries(route.query.filters).map(([key, operators]) => [`  filter[${key}]`, operators.join(' ')]),
      ['  q', route.query.search.length > 0 ? route.query.search.join(', ') : messages.noSearchFields()],
      ['  fields', route.query.fields.join(', ')],
    ];
    for (const line of columns(lines)) context.print(line);
  }
  return 0;
}
