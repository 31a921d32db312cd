import type { CliIo } from '../cli-io.js';
import { AppConfigError, loadAppConfig, type AppConfig } from './app-config.js';

/**
 * A command's app config from its flags and `panel.config.json`; on a mistake there, prints the
 * message on standard error and gives undefined, for the command to exit 2.
 */
export function commandAppConfig(flags: Parameters<typeof loadAppConfig>[0], io: Pick<CliIo, 'err'>): AppConfig | undefined {
  try {
    return loadAppConfig(flags);
  } catch (error) {
    if (!(error instanceof AppConfigError)) throw error;
    io.err(error.message);
    return undefined;
  }
}
