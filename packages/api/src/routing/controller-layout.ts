import { posix } from 'node:path';

/**
 * The folder, relative to the app root, that holds one sub-folder of controllers per API version:
 * where `panel-api generate` writes them and `mountPanelApi` finds them (both read this one
 * name). POSIX separators; `path.join` takes them on every system.
 */
export const CONTROLLERS_DIR = posix.join('app', 'controllers', 'panel', 'api', 'resources');

/**
 * The stem of the base controller's file in each version folder (`base-resources-controller.ts`
 * or `.js`): the file `panel-api generate` writes, Edition B's catch-all extends, and a missing
 * import of which the boot and `generate --check` name with the command that creates it.
 */
export const BASE_CONTROLLER_STEM = 'base-resources-controller';

/** Whether a file name (`base-resources-controller.ts`, `.js`, `.mts`, `.mjs`) is the base controller's module. */
export function isBaseControllerFile(name: string): boolean {
  return name.replace(/\.m?[jt]s$/, '') === BASE_CONTROLLER_STEM;
}
