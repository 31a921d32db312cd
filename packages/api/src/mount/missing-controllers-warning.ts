import { relative } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Panel } from '@panel/core';
import type { DiscoveredController } from '../routing/discover-controllers.js';

/** The process warning codes of the boot's controller checks. */
export const NO_ROUTES_WARNING = 'PANEL_WARN_NO_ROUTES';
export const MISSING_CONTROLLER_WARNING = 'PANEL_WARN_MISSING_CONTROLLER';
export const POLICIES_NOT_APPLIED_WARNING = 'PANEL_WARN_POLICIES_NOT_APPLIED';

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

/**
 * Says at boot that declared policies are not applied: a resource has `static policy` but the
 * panel has no authorization client, naming the first of the spec's conditions that is unmet
 * (`authorizationInactiveReason`) and the options that apply them.
 */
export function warnAboutInactivePolicies(app: FastifyInstance, panel: Panel): void {
  if (panel.authorization !== null) return;
  const declaring = [...panel.resources.values()].filter((resource) => resource.resourceClass.policy !== undefined).map((resource) => resource.name);
  if (declaring.length === 0) return;
  const names = declaring.length === 1 ? `The resource ${declaring[0]} declares a policy` : `The resources ${declaring.join(', ')} declare policies`;
  bootWarning(
    app,
    POLICIES_NOT_APPLIED_WARNING,
    `Panel: ${names}, but policies do not apply: ${panel.authorizationInactiveReason ?? 'no authorization client is in force'}. Every action is allowed and every record is listed. ` +
      "Fix: createPanel({ plugins: [policyAuthorization()], license: { features: ['api', 'authorization'] }, authorizationClient: 'policies' }).",
  );
}
