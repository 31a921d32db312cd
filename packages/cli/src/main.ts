import { Command, CommanderError } from 'commander';
import { registerGeneratorCommands } from './commands/generator-commands.js';
import { registerRoutesCommand } from './commands/routes-command.js';
import { registerOpenApiCommand } from './commands/openapi-command.js';
import { cliVersion } from './cli-version.js';
import { messages } from './messages.js';
import { registerInstallCommand } from './commands/install-command.js';
import { registerTokenCommands } from './commands/token-commands.js';
import { registerDevCommand } from './commands/dev-command.js';
import { registerInitCommands } from './commands/init-command.js';

import type { CliIo } from './cli-io.js';

export type { CliIo } from './cli-io.js';

/**
 * Runs `panel-api` with `argv` (without the node and script entries) and resolves to the exit code.
 *
 * @example
 * await runCli(['generate', '--version', 'v1', '--root', appRoot]);
 */
export async function runCli(argv: readonly string[], io: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) }): Promise<number> {
  let exitCode = 0;
  const program = new Command('panel-api')
    .description('Generates the Panel API controllers from the resources in app/panel/resources, checks them, and lists the routes.')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    // The commands' own --version names the API version (generate --version v2), so the program's
    // options are read only before the command: `panel-api --version` and `-V` print the CLI's.
    .enablePositionalOptions()
    .version(messages.cliVersion(cliVersion(), process.versions.node), '-V, --version', 'print the version of panel-api and Node');
  program
    .command('version')
    .description('print the version of panel-api and Node')
    .action(() => io.out(messages.cliVersion(cliVersion(), process.versions.node)));
  const setExitCode = (code: number) => {
    exitCode = code;
  };
  registerGeneratorCommands(program, io, setExitCode);
  registerRoutesCommand(program, io, setExitCode);
  registerOpenApiCommand(program, io, setExitCode);
  registerInstallCommand(program, io, setExitCode);
  registerTokenCommands(program, io, setExitCode);
  registerDevCommand(program, io, setExitCode);
  registerInitCommands(program, io, setExitCode);
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  return exitCode;
}
