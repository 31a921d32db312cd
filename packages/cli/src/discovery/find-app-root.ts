import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** An app root found near the folder panel-api was pointed at, and the `cd` that reaches it. */
export interface NearbyAppRoot {
  /** Absolute. */
  readonly root: string;
  /** The folder relative to the current directory, as a `cd` argument. */
  readonly cd: string;
}

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules').map((e) => e.name).sort();
  } catch {
    return [];
  }
}

/**
 * When `<appRoot>/<resourcesDir>` does not exist, the app root the user probably meant: the
 * nearest folder above `appRoot` that holds `resourcesDir` (run from `app/src`), else a folder
 * right below it (run from the folder holding the app), else undefined.
 *
 * @example
 * findNearbyAppRoot('/srv/shop/app/src', 'app/panel/resources'); // { root: '/srv/shop', cd: '../..' } from /srv/shop/app/src
 */
export function findNearbyAppRoot(appRoot: string, resourcesDir: string, cwd = process.cwd()): NearbyAppRoot | undefined {
  const found = (root: string): NearbyAppRoot => ({ root, cd: relative(cwd, root) || '.' });
  for (let dir = dirname(appRoot); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, resourcesDir))) return found(dir);
  }
  const below = subfolders(appRoot).find((name) => existsSync(join(appRoot, name, resourcesDir)));
  return below === undefined ? undefined : found(join(appRoot, below));
}
