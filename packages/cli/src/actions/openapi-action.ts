import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { normalizePanelConfig } from '@panel/core';
import { buildOpenApiDocument, discoverControllers, routeTable, uploadRoutes, type OpenApiOptions } from '@panel/api';
import type { AppConfig } from '../config/app-config.js';
import { messages } from '../messages.js';
import { ensureTypeScriptLoader } from '../runtime/typescript-loader.js';
import { noResourcesMessage } from './generate-action.js';
import { routingPanel } from './routes-action.js';

/** Where an app keeps the `openapi` options it gives `mountPanelApi`, so that the CLI reads the same. */
export const OPENAPI_OPTIONS_FILE = 'app/panel/openapi.ts';

/** What `panel-api openapi` was asked for. */
export interface OpenApiContext {
  readonly app: AppConfig;
  readonly version: string;
  readonly at: string;
  /** The file to write, or with `check` to compare; relative to the app root. Default `openapi/<version>.json`. */
  readonly out: string | undefined;
  readonly check: boolean;
  readonly print: (line: string) => void;
  readonly printError: (line: string) => void;
}

/** The `openapi` export of the app's options module, or none. */
async function openApiOptions(appRoot: string): Promise<OpenApiOptions> {
  const file = join(appRoot, OPENAPI_OPTIONS_FILE);
  if (!existsSync(file)) return {};
  const module = (await import(pathToFileURL(file).href)) as { openapi?: OpenApiOptions };
  return module.openapi ?? {};
}

/**
 * Writes the OpenAPI document of one API version, built by the runtime's own code
 * (`buildOpenApiDocument` over `routeTable`) from the app's resources and controllers, with the
 * options of `app/panel/openapi.ts`; no database is opened. With `check`, writes nothing and
 * fails (exit 1) when the file differs from what it would write.
 */
export async function openApiAction(context: OpenApiContext): Promise<number> {
  const { appRoot, resourcesDir, controllersDir } = context.app;
  const mountPath = context.at.startsWith('/') ? context.at : `/${context.at}`;
  if (!existsSync(join(appRoot, resourcesDir))) {
    context.printError(noResourcesMessage(appRoot, resourcesDir, join(appRoot, resourcesDir)));
    return 1;
  }
  let text: string;
  try {
    await ensureTypeScriptLoader();
    const panel = await routingPanel(appRoot, resourcesDir);
    const controllers = await discoverControllers(panel, join(appRoot, controllersDir));
    // The mount's upload route too (outside the versions): the document describes it, as the running app's does.
    const routes = [...routeTable(panel, controllers), ...uploadRoutes(panel, controllers)];
    if (!routes.some((route) => route.path.startsWith(`/resources/${context.version}/`))) {
      context.printError(messages.openApiNoVersion(context.version, controllersDir));
      return 1;
    }
    const options = await openApiOptions(appRoot);
    // The panel's default perPage and maxPerPage: an app that changes them sees the check fail, and regenerates from the running app.
    const document = buildOpenApiDocument({ panel: { ...panel, config: normalizePanelConfig({}) }, mountPath, version: context.version, routes, healthPath: 'health', defaults: {}, options });
    text = `${JSON.stringify(document, null, 2)}\n`;
  } catch (error) {
    context.printError(messages.openApiBootFailed((error as Error).message));
    return 1;
  }
  const out = resolve(appRoot, context.out ?? join('openapi', `${context.version}.json`));
  if (context.check) {
    const committed = existsSync(out) ? await readFile(out, 'utf8') : undefined;
    if (committed === text) {
      context.print(messages.openApiUpToDate(out));
      return 0;
    }
    context.printError(messages.openApiStale(out, context.version));
    return 1;
  }
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, text);
  context.print(messages.openApiWritten(out));
  return 0;
}
