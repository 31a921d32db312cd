import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isResourceClass, type ResourceClass } from './resource.js';
import { PanelConfigError } from '../errors/panel-errors.js';

/** File names a module folder scan imports: TypeScript or JavaScript sources, never declarations or tests. */
export function isSourceModule(file: string): boolean {
  return /\.(ts|mts|js|mjs)$/.test(file) && !/\.d\.(ts|mts)$/.test(file) && !/\.(test|spec)\./.test(file);
}

/**
 * Imports every module in a resources folder (`app/panel/resources`) and returns the resource
 * classes they export, default or named, in file order.
 */
export async function loadResourceClasses(directory: string): Promise<ResourceClass[]> {
  let files: string[];
  try {
    files = (await readdir(directory)).filter(isSourceModule).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new PanelConfigError(`Panel resources folder not found: ${directory}. Fix: create it with one resource class per file, or pass resources: [...] to createPanel().`);
    }
    throw error;
  }
  const classes: ResourceClass[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(join(directory, file)).href)) as Record<string, unknown>;
    for (const exported of new Set(Object.values(module))) {
      if (isResourceClass(exported) && !classes.includes(exported)) classes.push(exported);
    }
  }
  return classes;
}
