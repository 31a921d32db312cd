import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { commandAppConfig } from '../config/command-app-config.js';
import { initAction } from '../actions/init-action.js';
import type { AppConfig } from '../config/app-config.js';
import { messages } from '../messages.js';
import { appDatabaseFromEnvironment, appEnvironment, DEFAULT_PGLITE_DIR, type AppDatabaseSource } from '../tokens/app-database.js';
import { TokenCommandError } from '../tokens/token-command-error.js';

interface InitFlags {
  fromDatabase?: string;
  fromTable?: string;
  database?: string;
  schema: string;
  root: string;
  version: string;
  check?: boolean;
}

/**
 * The database to read and the line saying where it came from: the command's option, else the
 * app's database as the token commands find it (`DATABASE_URL`, `PGLITE_DATA_DIR`, environment
 * then `.env`, then `data/pglite`). Prints the problem and gives undefined when there is none.
 */
function databaseOf(option: string | undefined, command: 'init' | 'resource', app: AppConfig, io: CliIo): { database: string; from?: string } | undefined {
  if (option !== undefined) return { database: option };
  const env = appEnvironment(app.appRoot);
  let found: AppDatabaseSource | undefined;
  try {
    found = appDatabaseFromEnvironment(app.appRoot, env);
  } catch (error) {
    if (!(error instanceof TokenCommandError)) throw error;
    io.err(error.message);
    return undefined;
  }
  if (found === undefined) {
    io.err(messages.initNeedsDatabase(command));
    return undefined;
  }
  const where = (name: string) => (process.env[name] ? 'from the environment' : 'from .env');
  if (found.kind === 'postgres') return { database: found.url, from: `Reading the database DATABASE_URL names (${where('DATABASE_URL')}).` };
  if (found.from === 'PGLITE_DATA_DIR') return { database: found.dataDir, from: `Reading the PGlite folder ${env.PGLITE_DATA_DIR} (PGLITE_DATA_DIR, ${where('PGLITE_DATA_DIR')}).` };
  return { database: found.dataDir, from: `Reading the PGlite folder ${DEFAULT_PGLITE_DIR} (the app's default folder).` };
}

/**
 * Declares `panel-api init --from-database <url>` (one resource file per table of a schema,
 * then the controllers and the OpenAPI document) and `panel-api resource <Name> --from-table
 * <table>` (one table as one resource).
 */
export function registerInitCommands(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  const common = (command: Command) =>
    command
      .option('--schema <name>', 'the PostgreSQL schema to read', 'public')
      .option('--root <dir>', 'the app root (holding app/panel/resources)', process.cwd())
      .option('--version <name>', 'the API version the controllers go under', 'v1')
      .option('--check', 'write nothing; exit 1 naming every difference between the tables and the resources init wrote');

  common(program.command('init'))
    .description('write one resource per table of an existing database (types, associations and labels from its catalog), then the controllers and the OpenAPI document')
    .option('--from-database <url>', 'a postgres:// URL, or a PGlite data folder (default: DATABASE_URL or PGLITE_DATA_DIR from the environment or .env, else data/pglite)')
    .action(async (flags: InitFlags) => {
      const app = commandAppConfig({ root: flags.root }, io);
      if (!app) return setExitCode(2);
      const found = databaseOf(flags.fromDatabase, 'init', app, io);
      if (!found) return setExitCode(2);
      if (found.from !== undefined) io.out(found.from);
      setExitCode(await initAction({ app, database: found.database, option: '--from-database', schema: flags.schema, version: flags.version, check: flags.check === true, print: io.out, printError: io.err }));
    });

  // <Name> and --from-table are checked here, Name first: commander reported the missing option before the missing argument.
  common(program.command('resource [Name]'))
    .usage('<Name> --from-table <table> [options]')
    .description('write the resource of one table of an existing database, then its controller and the OpenAPI document')
    .option('--from-table <table>', 'the table (required)')
    .option('--database <url>', 'a postgres:// URL, or a PGlite data folder (default: DATABASE_URL or PGLITE_DATA_DIR from the environment or .env, else data/pglite)')
    .action(async (name: string | undefined, flags: InitFlags) => {
      if (name === undefined) {
        io.err('panel-api resource needs the <Name> of the resource to write (PascalCase, such as Invoice). Fix: panel-api resource <Name> --from-table <table>.');
        return setExitCode(2);
      }
      if (flags.fromTable === undefined) {
        io.err(`panel-api resource ${name} needs --from-table <table>, the table to read. Fix: panel-api resource ${name} --from-table <table>.`);
        return setExitCode(2);
      }
      if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) {
        io.err(`The resource name must be PascalCase, such as Invoice, instead got "${name}".`);
        return setExitCode(2);
      }
      const app = commandAppConfig({ root: flags.root }, io);
      if (!app) return setExitCode(2);
      const found = databaseOf(flags.database, 'resource', app, io);
      if (!found) return setExitCode(2);
      if (found.from !== undefined) io.out(found.from);
      const database = found.database;
      setExitCode(await initAction({ app, database, option: '--database', schema: flags.schema, version: flags.version, check: flags.check === true, only: { name, table: flags.fromTable }, print: io.out, printError: io.err }));
    });
}
