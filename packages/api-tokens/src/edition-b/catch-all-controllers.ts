import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isSourceModule, type Panel } from '@panel/core';
import { importControllerModule, isBaseControllerFile, isControllerClass, ResourcesController, type DiscoveredController } from '@panel/api';

/** The version the catch-all controller serves (the spec's only named version). */
export const CATCH_ALL_VERSION = 'v1';

/** The app's `BaseResourcesController` of a version folder, when it has one. */
async function baseController(root: string, version: string, appRoot: string): Promise<typeof ResourcesController | undefined> {
  let names: string[];
  try {
    names = (await readdir(join(root, version))).filter((name) => isSourceModule(name) && isBaseControllerFile(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  for (const name of names) {
    const module = await importControllerModule(join(root, version, name), appRoot, version);
    const found = Object.values(module).find((value) => isControllerClass(value) && !Object.hasOwn(value, 'resourceName'));
    if (found) return found as typeof ResourcesController;
  }
  return undefined;
}

/**
 * Edition B's routing: the discovered (override) controllers, plus a catch-all controller for
 * every other resource, under `v1`. The catch-all extends the app's `BaseResourcesController`
 * when `v1` has one (so its `setupAuthentication` is the code-hook path), else the runtime's
 * `ResourcesController` (whose hook refuses every request, so only tokens get in).
 */
export async function withCatchAllControllers(panel: Pick<Panel, 'appRoot' | 'resources'>, discovered: readonly DiscoveredController[], root: string): Promise<DiscoveredController[]> {
  const Base = (await baseController(root, CATCH_ALL_VERSION, panel.appRoot)) ?? ResourcesController;
  const served = new Set(discovered.filter((c) => c.version === CATCH_ALL_VERSION).map((c) => c.resourceName));
  const catchAll = [...panel.resources.values()]
    .filter((resource) => !served.has(resource.name))
    .map((resource) => {
      const controller = class extends Base {
        static override resourceName = resource.name;
      };
      Object.defineProperty(controller, 'name', { value: resource.naming.controllerName });
      return { version: CATCH_ALL_VERSION, file: join(root, CATCH_ALL_VERSION, '(catch-all)'), controller, resourceName: resource.name };
    });
  return [...discovered, ...catchAll];
}
