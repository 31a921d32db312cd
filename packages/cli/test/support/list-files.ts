import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/**
 * Every file under `dir` (recursively; only under its sub-folder `under` when given), as sorted
 * `/`-separated paths relative to `dir`; `[]` when the folder does not exist.
 *
 * @example
 * await listFiles(appRoot, 'app/controllers'); // ['app/controllers/panel/api/resources/v1/…', …]
 */
export async function listFiles(dir: string, under = ''): Promise<string[]> {
  const start = join(dir, under);
  let entries: Dirent[];
  try {
    entries = await readdir(start, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}
