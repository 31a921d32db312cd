import type { FastifyInstance } from 'fastify';
import { MAX_TEXT_KEY_LENGTH, type Panel } from '@panel/core';
import { bootWarning } from './missing-controllers-warning.js';

/** The process warning code of the boot's check of the router's path parameter length. */
export const MAX_PARAM_LENGTH_WARNING = 'PANEL_WARN_MAX_PARAM_LENGTH';

/** The `maxParamLength` a text key needs: its longest value, each character percent-encoded. */
export const TEXT_KEY_PARAM_LENGTH = 3 * MAX_TEXT_KEY_LENGTH;

/**
 * Says at boot when a resource has a text key and the app's Fastify instance refuses a path
 * parameter shorter than such a key may be. Fastify answers a longer `:id` with a 414 before any
 * route or hook runs, and the limit belongs to the instance (a plugin cannot raise it for its
 * own routes), so the app's author raises it: the message names the limit and the option.
 */
export function warnAboutTextKeyLength(app: FastifyInstance, panel: Panel): void {
  const config = app.initialConfig as { routerOptions?: { maxParamLength?: number }; maxParamLength?: number };
  const limit = config.routerOptions?.maxParamLength ?? config.maxParamLength ?? 100;
  if (limit >= TEXT_KEY_PARAM_LENGTH) return;
  const keyed = [...panel.resources.values()].filter((resource) => resource.key.type === 'text').map((resource) => resource.name);
  if (keyed.length === 0) return;
  const names = keyed.length === 1 ? `the resource ${keyed[0]} has a text key` : `the resources ${keyed.join(', ')} have text keys`;
  bootWarning(
    app,
    MAX_PARAM_LENGTH_WARNING,
    `Panel API: ${names} of up to ${MAX_TEXT_KEY_LENGTH} characters, but this Fastify instance's maxParamLength is ${limit}, so a longer :id answers 414 before the API sees it. Fix: Fastify({ routerOptions: { maxParamLength: ${TEXT_KEY_PARAM_LENGTH} } }).`,
  );
}
