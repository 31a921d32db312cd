import { databaseSetupProblem, openDatabase, pgliteFolderHolder, type OpenDatabaseOptions, type PanelDatabase } from '@panel/core';
import type { ApiTokenService } from '@panel/api-tokens';
import type { AppConfig } from '../config/app-config.js';
import { appTokensConfig } from '../config/app-tokens-config.js';
import { routingPanel } from '../actions/routes-action.js';
import { ensureTypeScriptLoader } from '../runtime/typescript-loader.js';
import { TokenCommandError } from './token-command-error.js';
import { appDatabaseSource, appEnvironment, type AppDatabaseFlags, type AppDatabaseSource } from './app-database.js';

/** What a token command prints a problem with, and where. */
export interface TokenCommandContext {
  readonly app: AppConfig;
  readonly database: AppDatabaseFlags;
  readonly print: (line: string) => void;
  readonly printError: (line: string) => void;
  /** The process's environment (the app's `.env` is read under it). */
  readonly env?: NodeJS.ProcessEnv;
}

async function loadTokensModule(): Promise<typeof import('@panel/api-tokens')> {
  try {
    return await import('@panel/api-tokens');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new TokenCommandError('The token commands are Edition B, and @panel/api-tokens is not installed. Fix: npm install @panel/api-tokens, then npx panel-api install.');
  }
}

/** The one line that explains `error`, when it is a mistake of the command line, the app or its database; undefined for a defect. */
function problemLine(error: unknown): string | undefined {
  if (error instanceof TokenCommandError) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  // The token service's errors (PANEL_API_ERR_…) and a refused name (PANEL_ERR_RECORD_INVALID), detected by code as the package asks.
  if (typeof code === 'string' && (code.startsWith('PANEL_API_ERR_') || code === 'PANEL_ERR_RECORD_INVALID')) return (error as Error).message;
  const setup = databaseSetupProblem(error);
  if (setup !== undefined && /relation "panel_api_(tokens|permission_grants)" does not exist/.test(String((error as Error).message) + String((error as { cause?: Error }).cause?.message))) {
    return 'The database has no API token tables: their migration has not run on it. Fix: npx panel-api install writes the migration (Edition B); run the app\'s migrations (start the app once), then run this again.';
  }
  return setup;
}

/**
 * How the command opens the app's database: PostgreSQL by its URL; a PGlite folder directly when
 * it is free, or, while the app's process holds it, through the socket that process serves it on
 * (the change reaches the running app without a restart).
 */
async function databaseOptions(source: AppDatabaseSource): Promise<OpenDatabaseOptions> {
  if (source.kind === 'postgres') return { url: source.url, maxConnections: 1 };
  const holder = await pgliteFolderHolder(source.dataDir);
  if (holder?.socketFolder === undefined) return { dataDir: source.dataDir };
  return { url: `postgres://postgres@localhost/postgres?host=${encodeURIComponent(holder.socketFolder)}`, maxConnections: 1 };
}

/**
 * Runs `work` with the app's token service, as the app's mount builds it: the app's database
 * (see `appDatabaseSource`), grants checked against the route keys of the app's resources, the
 * pepper from the app's initializer or `PANEL_API_TOKEN_PEPPER`. Closes the database after. A
 * mistake prints one line on standard error and gives exit code 1.
 */
export async function withTokenService(context: TokenCommandContext, work: (tokens: ApiTokenService) => Promise<number>): Promise<number> {
  let database: PanelDatabase | undefined;
  try {
    const env = appEnvironment(context.app.appRoot, context.env);
    const source = appDatabaseSource(context.app.appRoot, context.database, env);
    const { ApiTokenService } = await loadTokensModule();
    await ensureTypeScriptLoader();
    const panel = await routingPanel(context.app.appRoot, context.app.resourcesDir);
    const config = await appTokensConfig(context.app.appRoot);
    database = await openDatabase(await databaseOptions(source));
    const tokens = new ApiTokenService({ database, pepper: config?.pepper, env, resources: [...panel.resources.values()].map((resource) => resource.naming.routeKey) });
    return await work(tokens);
  } catch (error) {
    const line = problemLine(error);
    if (line === undefined) throw error;
    context.printError(line);
    return 1;
  } finally {
    await database?.close();
  }
}
