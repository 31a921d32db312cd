import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { commandAppConfig } from '../config/command-app-config.js';
import { grantList } from '../tokens/expires-option.js';
import { createTokenAction, listTokensAction, revokeTokenAction, setDefaultPermissionsAction, setGrantsAction, showDefaultPermissionsAction } from '../tokens/token-actions.js';
import type { TokenCommandContext } from '../tokens/token-service-session.js';

interface DatabaseFlags {
  root: string;
  databaseUrl?: string;
  pgliteDir?: string;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** The options every Edition B command takes: the app root and where its database is. */
function withDatabaseOptions(command: Command): Command {
  return command
    .option('--root <dir>', 'the app root (holding app/panel/resources)', process.cwd())
    .option('--database-url <url>', 'the PostgreSQL database (default: DATABASE_URL, from the environment or the app\'s .env)')
    .option('--pglite-dir <dir>', 'the PGlite folder, relative to the app root (default: PGLITE_DATA_DIR, else data/pglite)');
}

/**
 * Declares Edition B's commands: `token create|list|revoke`, `grants set`, `default-permissions
 * set|show`. They call the token service the panel's screens call, on the app's database.
 */
export function registerTokenCommands(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  const context = (flags: DatabaseFlags): TokenCommandContext | undefined => {
    const app = commandAppConfig({ root: flags.root }, io);
    return app && { app, database: { databaseUrl: flags.databaseUrl, pgliteDir: flags.pgliteDir }, print: io.out, printError: io.err };
  };
  const run = async (flags: DatabaseFlags, action: (context: TokenCommandContext) => Promise<number>) => {
    const found = context(flags);
    setExitCode(found ? await action(found) : 2);
  };

  const token = program.command('token').description('Edition B: create, list and revoke API tokens');
  withDatabaseOptions(
    token
      .command('create')
      .description('create an API token; its secret is printed once, alone on standard output')
      .requiredOption('--name <name>', 'what the token is for (120 characters at most)')
      .option('--grant <grants>', 'grants as <route_key>:<verb>, comma-separated or repeated (verbs: index, show, create, update, destroy)', collect, [])
      .option('--expires <when>', 'a duration (30d, 12h, 90m, 2w) or a date (2027-01-31); default: never')
      .option('--json', 'print the token and its secret as JSON'),
  ).action((flags: DatabaseFlags & { name: string; grant: string[]; expires?: string; json?: boolean }) =>
    run(flags, (c) => createTokenAction(c, { name: flags.name, grants: grantList(flags.grant), expires: flags.expires, json: flags.json === true, now: new Date() })),
  );
  withDatabaseOptions(token.command('list').description('list the API tokens: status, expiry, last use, grants (never a secret)').option('--json', 'print the tokens as JSON')).action(
    (flags: DatabaseFlags & { json?: boolean }) => run(flags, (c) => listTokensAction(c, { json: flags.json === true })),
  );
  withDatabaseOptions(token.command('revoke').description('revoke an API token for good').argument('<id>', 'the token\'s id (panel-api token list)')).action((id: string, flags: DatabaseFlags) =>
    run(flags, (c) => revokeTokenAction(c, { id })),
  );

  const grants = program.command('grants').description('Edition B: the grants of an API token');
  withDatabaseOptions(
    grants
      .command('set')
      .description('replace the grants of an API token')
      .argument('<id>', 'the token\'s id (panel-api token list)')
      .option('--grant <grants>', 'grants as <route_key>:<verb>, comma-separated or repeated; none given: no grants', collect, []),
  ).action((id: string, flags: DatabaseFlags & { grant: string[] }) => run(flags, (c) => setGrantsAction(c, { id, grants: grantList(flags.grant) })));

  const defaults = program.command('default-permissions').description('Edition B: the default permissions list (the code-hook path\'s grants; index and show only)');
  withDatabaseOptions(
    defaults
      .command('set')
      .description('replace the default permissions list')
      .option('--grant <grants>', 'grants as <route_key>:index or <route_key>:show, comma-separated or repeated; none given: an empty list', collect, []),
  ).action((flags: DatabaseFlags & { grant: string[] }) => run(flags, (c) => setDefaultPermissionsAction(c, { grants: grantList(flags.grant) })));
  withDatabaseOptions(defaults.command('show').description('print the default permissions list')).action((flags: DatabaseFlags) => run(flags, (c) => showDefaultPermissionsAction(c)));
}
