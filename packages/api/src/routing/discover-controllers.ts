import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { isSourceModule, type Panel } from '@panel/core';
import { ControllerError } from '../errors/api-errors.js';
import { importControllerModule } from './import-controller.js';
import { isControllerClass, type ResourcesController } from '../controller/resources-controller.js';

export { CONTROLLERS_DIR } from './controller-layout.js';

/** What controller discovery reads of a panel (a `Panel` fits): its app root and its resources. */
export type DiscoveryPanel = Pick<Panel, 'appRoot' | 'resources'>;

/** A generated controller found on disk: the version folder it is in and the class it exports. */
export interface DiscoveredController {
  readonly version: string;
  readonly file: string;
  readonly controller: typeof ResourcesController;
  readonly resourceName: string;
}

async function listDirectory(path: string): Promise<import('node:fs').Dirent[]> {
  try {
    return await readdir(path, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Scans `app/controllers/panel/api/resources/<version>/` and imports each controller module.
 * Only controllers that exist get routes; with no folder there are none, and every request is
 * a 404. A module that exports no controller for a resource (the base controller) draws
 * nothing; a controller naming a resource the panel does not have fails the boot.
 */
export async function discoverControllers(panel: DiscoveryPanel, root: string): Promise<DiscoveredController[]> {
  const found: DiscoveredController[] = [];
  const versions = (await listDirectory(root)).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  for (const version of versions) {
    const files = (await listDirectory(join(root, version))).filter((entry) => entry.isFile() && isSourceModule(entry.name)).map((entry) => entry.name).sort();
    const byResource = new Map<string, string>();
    for (const name of files) {
      const file = join(root, version, name);
      const module = await importControllerModule(file, panel.appRoot, version);
      for (const exported of new Set(Object.values(module))) {
        if (!isControllerClass(exported) || !Object.hasOwn(exported, 'resourceName')) continue;
        const resourceName = exported.resourceName!;
        if (!panel.resources.has(resourceName)) {
          throw new ControllerError(
            `${relative(panel.appRoot, file)}: ${exported.name} serves the resource "${resourceName}", which the panel does not have. ` +
              `Fix: delete the controller, or add the resource "${resourceName}" to app/panel/resources.`,
          );
        }
        const previous = byResource.get(resourceName);
        if (previous) {
          throw new ControllerError(`Two controllers in ${version} serve the resource "${resourceName}": ${previous} and ${name}. Fix: delete one of them.`);
        }
        byResource.set(resourceName, name);
        found.push({ version, file, controller: exported, resourceName });
      }
    }
  }
  return found;
}
