import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { commandAppConfig } from '../config/command-app-config.js';
import { initAction } from '../actions/init-action.js';

interface InitFlags {
  fromDatabase?: string;
  fromTable?: string;
  database?: string;
  schema: string;
  root: string;
  version: string;
  check?: boolean;
}

/** The database to read: --from-database, else --database, else DATABASE_URL. */
function databaseOf(flags: InitFlags): string | undefined {
  return flags.fromDatabase ?? flags.database ?? (process.env.DATABASE_URL || undefined);
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
    .option('--from-database <url>', 'a postgres:// URL, or a PGlite data folder (default: DATABASE_URL)')
    .action(async (flags: InitFlags) => {
      const database = databaseOf(flags);
      if (database === undefined) {
        io.err('panel-api init needs a database: --from-database postgres://user@host:5432/db (or a PGlite data folder), or DATABASE_URL.');
        return setExitCode(2);
      }
      const app = commandAppConfig({ root: flags.root }, io);
      if (!app) return setExitCode(2);
      setExitCode(await initAction({ app, database, schema: flags.schema, version: flags.version, check: flags.check === true, print: io.out, printError: io.err }));
    });

  common(program.command('resource <Name>'))
    .description('write the resource of one table of an existing database, then its controller and the OpenAPI document')
    .requiredOption('--from-table <table>', 'the table')
    .option('--database <url>', 'a postgres:// URL, or a PGlite data folder (default: DATABASE_URL)')
    .action(async (name: string, flags: InitFlags) => {
      const database = databaseOf(flags);
      if (database === undefined) {
        io.err('panel-api resource needs a database: --database postgres://user@host:5432/db (or a PGlite data folder), or DATABASE_URL.');
        return setExitCode(2);
      }
      if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) {
        io.err(`The resource name must be PascalCase, such as Invoice, instead got "${name}".`);
        return setExitCode(2);
      }
      const app = commandAppConfig({ root: flags.root }, io);
      if (!app) return setExitCode(2);
      setExitCode(await initAction({ app, database, schema: flags.schema, version: flags.version, check: flags.check === true, only: { name, table: flags.fromTable! }, print: io.out, printError: io.err }));
    });
}
