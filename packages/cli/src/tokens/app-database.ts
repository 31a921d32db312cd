import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as util from 'node:util';
import { TokenCommandError } from './token-command-error.js';

/** Where the database of the app is, as the token commands found it. */
export type AppDatabaseSource = { readonly kind: 'postgres'; readonly url: string; readonly from: string } | { readonly kind: 'pglite'; readonly dataDir: string; readonly from: string };

/** What `--database-url` and `--pglite-dir` said, when given. */
export interface AppDatabaseFlags {
  readonly databaseUrl?: string | undefined;
  readonly pgliteDir?: string | undefined;
}

/** The PGlite folder of an app made by `npm create @panel/app` (its `PGLITE_DATA_DIR` default). */
export const DEFAULT_PGLITE_DIR = 'data/pglite';

/**
 * The app's environment: its `.env` file (when there is one) under the process's environment,
 * as the server the scaffolder writes loads it (`process.loadEnvFile('.env')` never overrides a
 * variable already set).
 */
export function appEnvironment(appRoot: string, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const file = join(appRoot, '.env');
  if (!existsSync(file)) return env;
  const parseEnv = (util as { parseEnv?: (content: string) => NodeJS.ProcessEnv }).parseEnv;
  if (parseEnv === undefined) return env;
  return { ...parseEnv(readFileSync(file, 'utf8')), ...env };
}


/**
 * The app's database, in this order (the first that is set wins): `--database-url`,
 * `--pglite-dir`, `DATABASE_URL`, `PGLITE_DATA_DIR`, then `data/pglite` when that folder exists.
 * Variables come from the environment, then from the app's `.env`. A PGlite folder is relative
 * to the app root, and must exist: a command never creates a database.
 *
 * @example
 * appDatabaseSource('/srv/shop', {}, { DATABASE_URL: 'postgres://localhost/shop' })
 * // { kind: 'postgres', url: 'postgres://localhost/shop', from: 'DATABASE_URL' }
 */
export function appDatabaseSource(appRoot: string, flags: AppDatabaseFlags, env: NodeJS.ProcessEnv): AppDatabaseSource {
  if (flags.databaseUrl && flags.pgliteDir) throw new TokenCommandError('--database-url and --pglite-dir cannot be used together: name one database.');
  if (flags.databaseUrl) return { kind: 'postgres', url: flags.databaseUrl, from: '--database-url' };
  if (flags.pgliteDir) return pglite(appRoot, flags.pgliteDir, '--pglite-dir');
  const found = appDatabaseFromEnvironment(appRoot, env);
  if (found !== undefined) return found;
  throw new TokenCommandError(
    `No database found for the app in ${appRoot}: DATABASE_URL is not set (in the environment or .env), and there is no PGlite folder ${DEFAULT_PGLITE_DIR}. ` +
      'Fix: set DATABASE_URL=postgres://…, or pass --pglite-dir <folder> (the dataDir your server gives openDatabase), or start the app once to create its database.',
  );
}

/**
 * The app's database when no option names one: `DATABASE_URL`, `PGLITE_DATA_DIR` (from `env`,
 * see `appEnvironment`), then `data/pglite` when that folder exists; undefined when none is set.
 * `init` calls it too, so both find the database the same way.
 */
export function appDatabaseFromEnvironment(appRoot: string, env: NodeJS.ProcessEnv): AppDatabaseSource | undefined {
  if (env.DATABASE_URL) return { kind: 'postgres', url: env.DATABASE_URL, from: 'DATABASE_URL' };
  if (env.PGLITE_DATA_DIR) return pglite(appRoot, env.PGLITE_DATA_DIR, 'PGLITE_DATA_DIR');
  if (existsSync(resolve(appRoot, DEFAULT_PGLITE_DIR))) return pglite(appRoot, DEFAULT_PGLITE_DIR, DEFAULT_PGLITE_DIR);
  return undefined;
}

function pglite(appRoot: string, folder: string, from: string): AppDatabaseSource {
  const dataDir = resolve(appRoot, folder);
  if (!existsSync(dataDir)) throw new TokenCommandError(`No PGlite folder at ${dataDir} (${from}). Fix: name the folder your server gives openDatabase as dataDir, or start the app once to create it.`);
  return { kind: 'pglite', dataDir, from };
}
