import { relative } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Panel } from '@panel/core';
import type { DiscoveredController } from '../routing/discover-controllers.js';

/** The process warning codes of the boot's controller checks. */
export const NO_ROUTES_WARNING = 'PANEL_WARN_NO_ROUTES';
export const MISSING_CONTROLLER_WARNING = 'PANEL_WARN_MISSING_CONTROLLER';
export const EMPTY_DEFAULT_PERMISSIONS_WARNING = 'PANEL_WARN_EMPTY_DEFAULT_PERMISSIONS';
export const MISSING_DIGEST_INDEX_WARNING = 'PANEL_WARN_MISSING_TOKEN_DIGEST_INDEX';

/**
 * A boot warning: in the app's log when it has a logger, else a process warning on standard
 * error, so that an app started with a bare `Fastify()` hears it too.
 */
export function bootWarning(app: FastifyInstance, code: string, message: string): void {
  if (typeof app.log.level === 'string' && app.log.level !== 'silent') app.log.warn({ code }, message);
  else process.emitWarning(message, { code });
}

/**
 * Says at boot what `panel-api routes` would (Edition A, where only generated controllers are
 * served): a mount with no controllers at all answers 404 everywhere, and a resource without
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
 * Edition B: says at boot when the default permissions list is empty, because then every
 * request on the code-hook path (the app's `setupAuthentication`, not a token) gets 403. A
 * database that cannot answer yet (tables not migrated) says nothing here.
 */
export async function warnAboutEmptyDefaultPermissions(app: FastifyInstance, defaultPermissions: () => Promise<readonly unknown[]>): Promise<void> {
  let grants: readonly unknown[];
  try {
    grants = await defaultPermissions();
  } catch {
    return;
  }
  if (grants.length > 0) return;
  bootWarning(
    app,
    EMPTY_DEFAULT_PERMISSIONS_WARNING,
    "Panel API Edition B: the default permissions list is empty, so requests on the code-hook path (the base controller's setupAuthentication, without a token) get 403. Fix: grant index/show per resource on the panel's default permissions screen, or await app.panelApiTokens.setDefaultPermissions(['books:index', …]).",
  );
}

/**
 * Edition B: says at boot when the tokens table lacks the digest index (an app installed before
 * `apiTokensSchemaV2`), because then every token lookup reads the whole table. A database that
 * cannot answer yet says nothing here.
 */
export async function warnAboutMissingDigestIndex(app: FastifyInstance, hasDigestIndex: () => Promise<boolean>): Promise<void> {
  let present: boolean;
  try {
    present = await hasDigestIndex();
  } catch {
    return;
  }
  if (present) return;
  bootWarning(
    app,
    MISSING_DIGEST_INDEX_WARNING,
    'Panel API Edition B: the tokens table has no digest index (apiTokensSchemaV2), so every token lookup reads the whole panel_api_tokens table. Fix: run `panel-api install` (it adds the migration), then run your migrations.',
  );
}
