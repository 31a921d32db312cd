import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { compileResources, loadResourceClasses, PanelConfigError } from '@panel/core';
import { discoverControllers, routeTable, type DiscoveryPanel, type RouteEntry } from '@panel/api';
import type { AppConfig } from '../config/app-config.js';
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
}

function printable(appRoot: string, mountPath: string, route: RouteEntry): PrintedRoute {
  return {
    method: route.method,
    path: `${mountPath}${route.path}`,
    controller: route.controller.name,
    action: route.action,
    resource: route.resourceName,
    file: appPath(appRoot, route.file),
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
 * boot (`discoverControllers`, then `routeTable`). No database is opened.
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
    routes = routeTable(panel, controllers).map((route) => printable(appRoot, mountPath, route));
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
  const rows = [messages.routesHeader(), ...routes.map((r) => [r.method, r.path, `${r.controller}#${r.action}`, r.file] as const)];
  for (const line of columns(rows)) context.print(line);
  return 0;
}
