import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { commandAppConfig } from '../config/command-app-config.js';
import { DEFAULT_MIGRATIONS_DIR, installAction } from '../actions/install-action.js';
import { messages } from '../messages.js';

interface InstallFlags {
  root: string;
  migrations: string;
  initializer?: string;
  dryRun?: boolean;
  js?: boolean;
  ts?: boolean;
}

/**
 * Declares `panel-api install` (the spec's `panel_api:install`, Edition B): the migration of the
 * token tables and the configuration block in the panel initializer.
 */
export function registerInstallCommand(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  program
    .command('install')
    .description('Edition B: write the migration of the API token tables and add the configurePanelApi block to the panel initializer')
    .option('--root <dir>', 'the app root', process.cwd())
    .option('--migrations <dir>', 'the migrations folder, relative to the app root', DEFAULT_MIGRATIONS_DIR)
    .option('--initializer <file>', 'the panel initializer, relative to the app root (default app/panel/initializer.ts, or .js)')
    .option('--dry-run', 'print what would be written, write nothing')
    .option('--js', 'write JavaScript files')
    .option('--ts', 'write TypeScript files')
    .action(async (flags: InstallFlags) => {
      if (flags.js && flags.ts) {
        io.err(messages.bothLanguages());
        return setExitCode(2);
      }
      const app = commandAppConfig({ root: flags.root, language: flags.js ? 'js' : flags.ts ? 'ts' : undefined }, io);
      if (!app) return setExitCode(2);
      setExitCode(
        await installAction({
          appRoot: app.appRoot,
          migrationsDir: flags.migrations,
          initializer: flags.initializer,
          language: app.language ?? 'ts',
          dryRun: flags.dryRun === true,
          now: new Date(),
          print: io.out,
          printError: io.err,
        }),
      );
    });
}
