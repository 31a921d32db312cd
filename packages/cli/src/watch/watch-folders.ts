import { watch, type FSWatcher } from 'node:fs';
import { join, posix, sep } from 'node:path';

/** Changes closer together than this are one change (an editor's save is several file events). */
export const SETTLE_MILLIS = 150;

/** The files that count as a change: modules. */
const MODULE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/**
 * Watches `folders` (relative to `root`, recursively, with Node's `fs.watch`) and calls
 * `onChange` with the module files that changed, `/`-separated and relative to `root`, once the
 * events have settled for {@link SETTLE_MILLIS}. Throws when a folder cannot be watched.
 */
export function watchFolders(root: string, folders: readonly string[], onChange: (changed: string[]) => void): { close(): void } {
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const watchers: FSWatcher[] = [];
  const close = () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
  try {
    for (const folder of folders) {
      watchers.push(
        watch(join(root, folder), { recursive: true }, (_event, filename) => {
          if (!filename || !MODULE.test(filename)) return;
          pending.add(posix.join(folder.split(sep).join('/'), filename.split(sep).join('/')));
          clearTimeout(timer);
          timer = setTimeout(() => {
            const changed = [...pending].sort();
            pending.clear();
            onChange(changed);
          }, SETTLE_MILLIS);
        }),
      );
    }
  } catch (error) {
    close();
    throw error;
  }
  return { close };
}
