import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { commandAppConfig } from '../config/command-app-config.js';
import { openApiAction } from '../actions/openapi-action.js';

interface OpenApiFlags {
  root: string;
  at: string;
  version: string;
  out?: string;
  check?: boolean;
}

/** Declares `panel-api openapi`: writes (or with `--check`, verifies) one version's OpenAPI 3.1 document, without a database. */
export function registerOpenApiCommand(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  program
    .command('openapi')
    .description('write the OpenAPI 3.1 document of an API version (the one the app serves at <mount>/resources/<version>/openapi.json)')
    .option('--root <dir>', 'the app root (holding app/panel/resources)', process.cwd())
    .option('--at <path>', 'the mount path passed to mountPanelApi', 'api')
    .option('--version <version>', 'the API version', 'v1')
    .option('--out <file>', 'the file to write, relative to the app root (default openapi/<version>.json)')
    .option('--check', 'write nothing; exit 1 when the file is not what would be written')
    .action(async (flags: OpenApiFlags) => {
      const app = commandAppConfig({ root: flags.root }, io);
      if (!app) return setExitCode(2);
      setExitCode(await openApiAction({ app, version: flags.version, at: flags.at, out: flags.out, check: flags.check === true, print: io.out, printError: io.err }));
    });
}
