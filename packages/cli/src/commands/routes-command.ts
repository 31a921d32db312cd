import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { commandAppConfig } from '../config/command-app-config.js';
import { routesAction } from '../actions/routes-action.js';

interface RoutesFlags {
  root: string;
  at: string;
  json?: boolean;
  filters?: boolean;
}

/** Declares `panel-api routes`: the routes the runtime would draw for the app, as a table or JSON. */
export function registerRoutesCommand(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  program
    .command('routes')
    .description('print the routes the API would draw: method, path, controller#action and controller file')
    .option('--root <dir>', 'the app root (holding app/panel/resources)', process.cwd())
    .option('--at <path>', 'the mount path passed to mountPanelApi', 'api')
    .option('--json', 'print the routes as a JSON array')
    .option('--filters', 'also print what each list accepts: filter[…] with its operators, q\'s search fields, fields')
    .action(async (flags: RoutesFlags) => {
      const app = commandAppConfig({ root: flags.root }, io);
      if (!app) return setExitCode(2);
      setExitCode(await routesAction({ app, at: flags.at, json: flags.json === true, filters: flags.filters === true, print: io.out, printError: io.err }));
    });
}
