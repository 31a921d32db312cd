import { isAbsolute, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Panel } from '@panel/core';
import { PanelConfigError } from '@panel/core';
import { CONTROLLERS_DIR } from '../routing/discover-controllers.js';

/** Options of `mountPanelApi`, as an app writes them. */
export interface MountPanelApiOptions {
  /** The panel whose resources the API serves. */
  panel: Panel;
  /** The mount path, without or with a leading slash. Default `api` (so `/api`). */
  at?: string;
  /** The folder with one sub-folder of controllers per version; default `<appRoot>/app/controllers/panel/api/resources`. */
  controllersDir?: string;
  /** Largest accepted JSON body in bytes. Default 1 MiB. */
  bodyLimit?: number;
  /** Adds custom routes inside the API engine (they share its 404 and error handling). */
  routes?: (api: FastifyInstance) => void | Promise<void>;
}

/** Mount options after validation. */
export interface NormalizedMountOptions {
  readonly panel: Panel;
  readonly mountPath: string;
  readonly controllersDir: string;
  readonly bodyLimit: number;
  readonly routes: ((api: FastifyInstance) => void | Promise<void>) | undefined;
}

/** Validates `mountPanelApi` options once, at boot; a mistake names the option and the fix. */
export function normalizeMountOptions(options: MountPanelApiOptions): NormalizedMountOptions {
  const { panel, at = 'api', controllersDir, bodyLimit = 1024 * 1024, routes } = options ?? ({} as MountPanelApiOptions);
  if (!panel || typeof panel.resource !== 'function') {
    throw new PanelConfigError('mountPanelApi: the panel option is required. Fix: app.register(mountPanelApi, { panel: await createPanel({ database }) }).');
  }
  if (typeof at !== 'string' || !/^\/?[\w\-.]+(\/[\w\-.]+)*$/.test(at)) {
    throw new PanelConfigError(`mountPanelApi: at must be a path such as "api" or "/panel/api", instead got ${JSON.stringify(at)}. Fix: pass a String of path segments.`);
  }
  if (!Number.isInteger(bodyLimit) || bodyLimit < 1) {
    throw new PanelConfigError(`mountPanelApi: bodyLimit must be a positive number of bytes, instead got ${JSON.stringify(bodyLimit)}. Fix: leave it out for 1 MiB.`);
  }
  if (routes !== undefined && typeof routes !== 'function') {
    throw new PanelConfigError('mountPanelApi: routes must be a function (api) => { api.get(...) }.');
  }
  const dir = controllersDir ?? join(panel.appRoot, CONTROLLERS_DIR);
  return Object.freeze({
    panel,
    mountPath: at.startsWith('/') ? at : `/${at}`,
    controllersDir: isAbsolute(dir) ? dir : join(panel.appRoot, dir),
    bodyLimit,
    routes,
  });
}
