import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { AppConfigError, loadAppConfig } from '../config/app-config.js';
import { messages } from '../messages.js';
import { watchDev } from '../watch/watch-dev.js';

interface DevFlags {
  version: string;
  root: string;
  resources?: string;
  server?: string;
  js?: boolean;
  ts?: boolean;
}

/**
 * Declares `panel-api dev`: the app's server, regenerated and restarted on every change of its
 * resources, policies, field types, controllers and server code.
 */
export function registerDevCommand(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  program
    .command('dev')
    .description('generate, start the app server, and on every change of app/, src/ or db/: regenerate, check and restart it')
    .option('--version <name>', 'the API version namespace the controllers go under', 'v1')
    .option('--root <dir>', 'the app root (holding app/panel/resources)', process.cwd())
    .option('--resources <dir>', 'the resources folder, relative to the app root (default: panel.config.json resourcesDir, else app/panel/resources)')
    .option('--server <file>', 'the server entry, run with Node (tsx for TypeScript); default: src/server.ts, else src/server.js')
    .option('--js', 'write new controllers as JavaScript (.js)')
    .option('--ts', 'write new controllers as TypeScript (.ts)')
    .argument('[command...]', 'after --: the command that starts the server instead (-- node --env-file=.env server.js)')
    .action(async (command: string[], flags: DevFlags) => {
      if (flags.js && flags.ts) {
        io.err(messages.bothLanguages());
        return setExitCode(2);
      }
      let app: ReturnType<typeof loadAppConfig>;
      try {
        app = loadAppConfig({ root: flags.root, resources: flags.resources, language: flags.js ? 'js' : flags.ts ? 'ts' : undefined });
      } catch (error) {
        if (!(error instanceof AppConfigError)) throw error;
        io.err(error.message);
        return setExitCode(2);
      }
      const context = { appRoot: app.appRoot, resourcesDir: app.resourcesDir, controllersDir: app.controllersDir, language: app.language, version: flags.version };
      setExitCode(await watchDev({ ...context, force: false, dryRun: false, withBase: true, print: io.out, printError: io.err, server: flags.server, command }));
    });
}
