import { basename, dirname, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ControllerError } from '../errors/api-errors.js';
import { isBaseControllerFile } from './controller-layout.js';

/**
 * The file a `ERR_MODULE_NOT_FOUND` message names, when it names one: Node gives an absolute path
 * or URL, other loaders the specifier as written, resolved here from the importing file.
 */
function missingFile(message: string, file: string): string | undefined {
  const named = /Cannot find module '([^']+)'/.exec(message)?.[1];
  if (named === undefined) return undefined;
  if (named.startsWith('file:')) return fileURLToPath(named);
  if (!named.startsWith('.')) return named;
  const importer = / imported from (\S+)/.exec(message)?.[1];
  return resolve(dirname(importer === undefined ? file : importer.startsWith('file:') ? fileURLToPath(importer) : importer), named);
}

/**
 * Imports one controller module at boot. A controller whose base controller file is missing (a
 * `controller Book --version v3` run before `generate --version v3`, or a deleted file) would
 * stop the boot with Node's bare `ERR_MODULE_NOT_FOUND`; this names the controller, the missing
 * base and the command that creates it instead.
 */
export async function importControllerModule(file: string, appRoot: string, version: string): Promise<Record<string, unknown>> {
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    const missing = missingFile((error as Error).message, file);
    const at = relative(appRoot, file);
    if (missing !== undefined && dirname(missing) === dirname(file) && isBaseControllerFile(basename(missing))) {
      const stem = relative(appRoot, missing).replace(/\.m?[jt]s$/, '');
      throw new ControllerError(
        `${at}: its base controller ${stem}.ts (or .js) does not exist. ` +
          `Fix: run \`panel-api generate${version === 'v1' ? '' : ` --version ${version}`}\` to create the BaseResourcesController, or restore the file.`
      );
    }
    throw new ControllerError(`${at}: cannot be imported: ${(error as Error).message}. Fix: restore the missing file, or correct the import.`);
  }
}
