import { relative } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Panel } from '@panel/core';
import type { DiscoveredController } from '../routing/discover-controllers.js';

/** The process warning codes of the boot's controller checks. */
export const NO_ROUTES_WARNING = 'PANEL_WARN_NO_ROUTES';
export const MISSING_CONTROLLER_WARNING = 'PANEL_WARN_MISSING_CONTROLLER';

/**
 * A boot warning: in the app's log when it has a logger, else a process warning on standard
 * error, so that an app started with a bare `Fastify()` hears it too.
 */
export function bootWarning(app: FastifyInstance, code: string, message: string): void {
  if (typeof app.log.level === 'string' && app.log.level !== 'silent') app.log.warn({ code }, message);
  else process.emitWarning(message, { code });
}

/**
 * Says at boot what `panel-api routes` would (where only generated controllers are served:
 * Edition A, or any mount whose extensions add no controllers): a mount with no controllers at all answers 404 everywhere, and a resource without
 * a controller in a version folder the app serves has no routes there. Each message names the
 * folder and the `panel-api generate` command that fixes it.
 */
export function warnAboutMissingControllers(app: FastifyInstance, panel: Panel, controllersDir: string, discovered: readonly DiscoveredController[]): void {
  const dir = relative(panel.appRoot, controllersDir) || controllersDir;
  if (panel.resources.size === 0) return;
  if (discovered.length === 0) {
    bootWarning(app, NO_ROUTES_WARNING, `Panel API: No routes: ${dir} holds no controllers, so the API answers 404 everywhere. Run \`panel-api generate\` to create them.`);
    return;
  }
  for (const version of [...new Set(discovered.map((found) => found.version))].sort()) {
    const served = new Set(discovered.filter((found) => found.version === version).map((found) => found.resourceName));
    const missing = [...panel.resources.keys()].filter((name) => !served.has(name));
    if (missing.length === 0) continue;
    const flag = version === 'v1' ? '' : ` --version ${version}`;
    const names = missing.length === 1 ? `the resource ${missing[0]} has` : `the resources ${missing.join(', ')} have`;
    bootWarning(app, MISSING_CONTROLLER_WARNING, `Panel API: ${names} no controller in ${dir}/${version}, so the API answers 404 for ${missing.length === 1 ? 'it' : 'them'} there. Fix: run \`panel-api generate${flag}\`.`);
  }
}
