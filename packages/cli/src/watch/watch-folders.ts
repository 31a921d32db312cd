import { readdirSync, statSync, watch, type Dirent, type FSWatcher } from 'node:fs';
import { join, posix, sep } from 'node:path';

/** Changes closer together than this are one change (an editor's save is several file events). */
export const SETTLE_MILLIS = 150;

/** The files that count as a change: modules. */
const MODULE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** Whether `path` is a directory now (false when it is gone). */
function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Watches `folders` (relative to `root`, and every folder below them) and calls `onChange` with
 * the module files that changed, `/`-separated and relative to `root`, once the events have
 * settled for {@link SETTLE_MILLIS}. Throws when a folder cannot be watched.
 *
 * Each directory has its own non-recursive `fs.watch`, not one `{ recursive: true }` watch: on
 * Linux, Node 20's recursive watch watches each file, and a file replaced by a rename (an
 * editor's safe write, `sed -i`, git checkout) lost its watch for good. A directory's watch
 * reports a file renamed into it by name and survives the file's replacement. Folders made later
 * are watched (their module files reported), folders removed are dropped.
 */
export function watchFolders(root: string, folders: readonly string[], onChange: (changed: string[]) => void): { close(): void } {
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  /** The watch of each directory, by its path relative to `root` (`/`-separated). */
  const watchers = new Map<string, FSWatcher>();

  const report = (file: string) => {
    if (closed) return;
    pending.add(file);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const changed = [...pending].sort();
      pending.clear();
      onChange(changed);
    }, SETTLE_MILLIS);
  };
  /** Stops watching `folder` and every folder below it. */
  const drop = (folder: string) => {
    for (const [watched, watcher] of watchers) {
      if (watched === folder || watched.startsWith(`${folder}/`)) {
        watcher.close();
        watchers.delete(watched);
      }
    }
  };
  /** Watches `folder` and the folders below it; `added`: a folder made while watching, whose module files are reported. */
  const watchTree = (folder: string, added: boolean) => {
    if (closed || watchers.has(folder)) return;
    const path = join(root, ...folder.split('/'));
    let watcher: FSWatcher;
    try {
      watcher = watch(path, (_event, filename) => onEvent(folder, filename));
    } catch (error) {
      if (added) return; // gone again before it could be watched
      throw error;
    }
    // A removed folder's watch may fail (EPERM on Windows): it is dropped, not thrown.
    watcher.on('error', () => drop(folder));
    watchers.set(folder, watcher);
    let entries: Dirent[];
    try {
      entries = readdirSync(path, { withFileTypes: true });
    } catch (error) {
      if (added) return drop(folder);
      throw error;
    }
    for (const entry of entries) {
      const child = posix.join(folder, entry.name);
      if (entry.isDirectory()) watchTree(child, added);
      else if (added && MODULE.test(entry.name)) report(child);
    }
  };
  const onEvent = (folder: string, filename: string | Buffer | null) => {
    if (closed || !filename) return;
    const name = posix.join(folder, filename.toString().split(sep).join('/'));
    if (isDirectory(join(root, ...name.split('/')))) watchTree(name, true);
    else if (watchers.has(name)) drop(name);
    else if (MODULE.test(name)) report(name);
  };

  const close = () => {
    closed = true;
    clearTimeout(timer);
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
  try {
    for (const folder of folders) watchTree(posix.normalize(folder.split(sep).join('/')), false);
  } catch (error) {
    close();
    throw error;
  }
  return { close };
}
