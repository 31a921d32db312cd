import type { Command } from 'commander';
import type { CliIo } from '../main.js';
import { generateAction, type GenerateContext } from '../actions/generate-action.js';

interface GeneratorFlags {
  version: string;
  force?: boolean;
  dryRun?: boolean;
  root: string;
}

function context(flags: GeneratorFlags, rest: Pick<GenerateContext, 'withBase' | 'only'>, io: CliIo): GenerateContext {
  return { appRoot: flags.root, version: flags.version, force: flags.force === true, dryRun: flags.dryRun === true, print: io.out, printError: io.err, ...rest };
}

function generatorOptions(command: Command): Command {
  return command
    .option('--version <name>', 'the API version namespace the controllers go under', 'v1')
    .option('--force', 'overwrite controllers that already exist')
    .option('--dry-run', 'print what would be written, write nothing')
    .option('--root <dir>', 'the app root (holding app/panel/resources)', process.cwd());
}

/**
 * Declares the generator commands `generate`, `controllers` and `controller <ResourceName>`
 * (the spec's `panel_api:generate`, `panel_api:controllers` and `panel_api:controller`); each
 * builds a context and runs the generate action.
 */
export function registerCommands(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  generatorOptions(program.command('generate'))
    .description('create one controller per resource, then the BaseResourcesController they extend')
    .action(async (flags: GeneratorFlags) => setExitCode((await generateAction(context(flags, { withBase: true }, io))).exitCode));

  generatorOptions(program.command('controllers'))
    .description('create one controller per resource, without the BaseResourcesController')
    .action(async (flags: GeneratorFlags) => setExitCode((await generateAction(context(flags, { withBase: false }, io))).exitCode));

  generatorOptions(program.command('controller <ResourceName>'))
    .description('create the controller of one resource')
    .action(async (name: string, flags: GeneratorFlags) => setExitCode((await generateAction(context(flags, { withBase: false, only: [name] }, io))).exitCode));
}
