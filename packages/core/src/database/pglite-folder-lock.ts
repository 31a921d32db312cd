// PGlite is one process at a time: two PGlite instances writing one data folder corrupt it, and
// PGlite's own postmaster.pid holds a fixed pid (-42) that no other process can check. This lock
// file, beside PGlite's files, names the process that holds the folder.
import { unlinkSync } from 'node:fs';
import { mkdir, readFile, realpath, unlink, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { PgliteFolderInUseError } from '../errors/panel-errors.js';

/** The lock file's name inside a PGlite data folder; it holds the pid of the process that opened the folder. */
export const PGLITE_LOCK_FILE = 'panel-pglite.lock';

/** The lock files this process holds, removed when it exits (a crash leaves them stale: taken over by the next open). */
const held = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const file of held) {
      try {
        unlinkSync(file);
      } catch {
        // Already gone: nothing to release.
      }
    }
  });
}

/** Whether a process with that pid is running (EPERM: it runs, under another user). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid a lock file names, or undefined when it holds none (empty, or cut short by a crash). */
async function holderOf(file: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt((await readFile(file, 'utf8')).trim(), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The folder as the message names it: relative to the working directory when inside it. */
function shown(folder: string): string {
  const path = relative(process.cwd(), folder);
  return path !== '' && !path.startsWith('..') && !isAbsolute(path) ? path : folder;
}

/** A held PGlite folder; `release()` removes the lock file (once; later calls do nothing). */
export interface PgliteFolderLock {
  readonly file: string;
  /** Writes, under the pid, the folder of the socket this process serves the database on (see `pgliteFolderHolder`). */
  recordSocket(socketFolder: string): Promise<void>;
  release(): Promise<void>;
}

/** The running process that holds a PGlite folder, and the socket folder it serves it on when it recorded one. */
export interface PgliteFolderHolder {
  readonly pid: number;
  readonly socketFolder: string | undefined;
}

/**
 * Who holds the PGlite folder `dataDir` now: undefined when no lock file names a running process
 * other than this one (a lock left by a killed process is stale, and ignored).
 *
 * @example
 * const holder = await pgliteFolderHolder('data/pglite');
 * if (holder?.socketFolder) await new pg.Client({ host: holder.socketFolder }).connect();
 */
export async function pgliteFolderHolder(dataDir: string): Promise<PgliteFolderHolder | undefined> {
  let text: string;
  try {
    text = await readFile(join(await realpath(resolve(dataDir)), PGLITE_LOCK_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const [first, second] = text.split('\n');
  const pid = Number.parseInt((first ?? '').trim(), 10);
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || !isAlive(pid)) return undefined;
  const socketFolder = second?.trim();
  return { pid, socketFolder: socketFolder ? socketFolder : undefined };
}

/**
 * Takes the PGlite data folder `dataDir` for this process: creates `panel-pglite.lock` in it
 * with the `wx` flag (fails when it exists), holding this process's pid. A lock whose process
 * is gone (a crash, a kill) is taken over. A folder held by a running process, this one
 * included, throws `PgliteFolderInUseError`, one line naming the folder, the pid and the fix.
 * The lock is released by `release()` and, failing that, when the process exits.
 */
export async function lockPgliteFolder(dataDir: string): Promise<PgliteFolderLock> {
  await mkdir(resolve(dataDir), { recursive: true });
  // One key per folder, whatever path names it (a symlink, a relative path): two handles of this process on one folder are refused too.
  const folder = await realpath(resolve(dataDir));
  const file = join(folder, PGLITE_LOCK_FILE);
  // Two rounds: the second follows the removal of a stale lock; a third process winning the race in between is reported as the holder.
  for (let round = 0; ; round += 1) {
    try {
      await writeFile(file, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const pid = await holderOf(file);
    const stale = pid === undefined || (pid === process.pid ? !held.has(file) : !isAlive(pid));
    if (!stale || round > 0) throw new PgliteFolderInUseError(shown(folder), pid);
    await unlink(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  held.add(file);
  installExitHook();
  return {
    file,
    recordSocket: async (socketFolder) => {
      if (held.has(file)) await writeFile(file, `${process.pid}\n${socketFolder}\n`);
    },
    release: async () => {
      if (!held.delete(file)) return;
      // Only our own lock: a folder taken over after a crash of ours is the new holder's.
      if ((await holderOf(file)) === process.pid) await unlink(file).catch(() => undefined);
    },
  };
}
