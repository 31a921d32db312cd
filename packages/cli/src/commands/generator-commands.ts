import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { AppConfigError, loadAppConfig, type Language } from '../config/app-config.js';
import { generateAction, type GenerateContext } from '../actions/generate-action.js';
import { checkAction } from '../actions/check-action.js';
import { messages } from '../messages.js';
import { watchGenerate } from '../watch/watch-generate.js';

interface GeneratorFlags {
  version: string;
  force?: boolean;
  dryRun?: boolean;
  check?: boolean;
  root: string;
  resources?: string;
  js?: boolean;
  ts?: boolean;
  watch?: boolean;
}

function generatorOptions(command: Command): Command {
  return command
    .option('--version <name>', 'the API version namespace the controllers go under', 'v1')
    .option('--force', 'overwrite controllers that already exist')
    .option('--dry-run', 'print what would be written, write nothing')
    .option('--check', 'write nothing; exit 1 naming every missing or orphaned controller (for CI)')
    .option('--root <dir>', 'the app root (holding app/panel/resources)', process.cwd())
    .option('--resources <dir>', 'the resources folder, relative to the app root (default: panel.config.json resourcesDir, else app/panel/resources)')
    .option('--js', 'write new controllers as JavaScript (.js)')
    .option('--ts', 'write new controllers as TypeScript (.ts)');
}

/** Builds the run's context from the flags and panel.config.json, then runs `--check` or the generator. */
async function run(flags: GeneratorFlags, command: Command, rest: Pick<GenerateContext, 'withBase' | 'only'>, io: CliIo, alongside: readonly string[] = []): Promise<number> {
  if (flags.js && flags.ts) {
    io.err(messages.bothLanguages());
    return 2;
  }
  const language: Language | undefined = flags.js ? 'js' : flags.ts ? 'ts' : undefined;
  let app: ReturnType<typeof loadAppConfig>;
  try {
    app = loadAppConfig({ root: flags.root, resources: flags.resources, language });
  } catch (error) {
    if (!(error instanceof AppConfigError)) throw error;
    io.err(error.message);
    return 2;
  }
  const context: GenerateContext = {
    appRoot: app.appRoot,
    resourcesDir: app.resourcesDir,
    controllersDir: app.controllersDir,
    language: app.language,
    version: flags.version,
    force: flags.force === true,
    dryRun: flags.dryRun === true,
    print: io.out,
    printError: io.err,
    ...rest,
  };
  if (flags.check) return checkAction({ ...context, allVersions: command.getOptionValueSource('version') === 'default' });
  if (flags.watch) {
    if (flags.force || flags.dryRun) {
      io.err('--watch never overwrites and always writes: it cannot be used with --force or --dry-run.');
      return 2;
    }
    return watchGenerate({ ...context, command: alongside });
  }
  if (alongside.length > 0) {
    io.err(`A command after -- runs beside --watch only, instead got "${alongside.join(' ')}" without --watch.`);
    return 2;
  }
  return (await generateAction(context)).exitCode;
}

/**
 * Declares the generator commands `generate`, `controllers` and `controller <ResourceName>`
 * (the spec's `panel_api:generate`, `panel_api:controllers` and `panel_api:controller`); each
 * builds a context and runs the generate action, or the check action with `--check`.
 */
export function registerGeneratorCommands(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  generatorOptions(program.command('generate'))
    .description('create one controller per resource, then the BaseResourcesController they extend')
    .option('--watch', 'then watch the resources folder: create the controllers of new resources and regenerate openapi/<version>.json, one line per change')
    .argument('[command...]', 'with --watch, after --: a command run beside the watcher and stopped with it (npm run dev: -- tsx watch src/server.ts)')
    .action(async (alongside: string[], flags: GeneratorFlags, command: Command) => setExitCode(await run(flags, command, { withBase: true }, io, alongside)));

  generatorOptions(program.command('controllers'))
    .description('create one controller per resource, without the BaseResourcesController')
    .action(async (flags: GeneratorFlags, command: Command) => setExitCode(await run(flags, command, { withBase: false }, io)));

  generatorOptions(program.command('controller <ResourceName>'))
    .description('create the controller of one resource')
    .action(async (name: string, flags: GeneratorFlags, command: Command) => setExitCode(await run(flags, command, { withBase: false, only: [name] }, io)));
}
