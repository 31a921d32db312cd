import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { PanelConfigError } from '../errors/panel-errors.js';

/** Where a snapshot is kept and what it was made under (`OpenDatabaseOptions.snapshot` without `prepare`). */
interface SnapshotFile {
  readonly file: string;
  readonly key: string;
}

/** The first line of a snapshot file: the format, then a digest of the key and the PGlite version. */
const MAGIC = 'panel-pglite-snapshot/2';

/** The installed PGlite's version (its package.json is not exported, so it is found beside the entry point). */
function pgliteVersion(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

function header(key: string): Buffer {
  const digest = createHash('sha256').update(`${pgliteVersion()}\0${key}`).digest('hex');
  return Buffer.from(`${MAGIC} ${digest}\n`, 'ascii');
}

/** Checks the snapshot options, naming the option and the fix. */
export function checkSnapshotOptions(options: { snapshot?: SnapshotFile & { prepare: unknown }; url?: string; dataDir?: string; loadDataDir?: Blob }): void {
  const { snapshot } = options;
  if (!snapshot) return;
  const other = options.url ? 'url' : options.dataDir ? 'dataDir' : options.loadDataDir ? 'loadDataDir' : undefined;
  if (other) throw new PanelConfigError(`Database options: snapshot and ${other} cannot be used together. Fix: a snapshot is an in-memory PGlite; remove ${other}, or remove snapshot.`);
  if (typeof snapshot.file !== 'string' || snapshot.file === '') throw new PanelConfigError('Database option snapshot.file must be a file path, e.g. ".pglite/dev-snapshot.tar".');
  if (typeof snapshot.key !== 'string' || snapshot.key === '') throw new PanelConfigError('Database option snapshot.key must be a non-empty string, e.g. a hash of your migrations and seed.');
  if (typeof snapshot.prepare !== 'function') throw new PanelConfigError('Database option snapshot.prepare must be a function that migrates and seeds the new database.');
}

/** The saved data folder when `file` holds a snapshot made under `key`, else undefined (missing, stale or not a snapshot). */
export async function readSnapshot(snapshot: SnapshotFile): Promise<Blob | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(resolve(snapshot.file));
  } catch {
    return undefined;
  }
  const expected = header(snapshot.key);
  if (bytes.length <= expected.length || !bytes.subarray(0, expected.length).equals(expected)) return undefined;
  return new Blob([bytes.subarray(expected.length)]);
}

/** Saves the data folder of `pglite` to `file` under `key`: written aside and renamed, so a reader never sees half a snapshot. */
export async function writeSnapshot(snapshot: SnapshotFile, pglite: PGlite): Promise<void> {
  const file = resolve(snapshot.file);
  // A checkpoint first, so that loading it is not a crash recovery: that would move every
  // sequence past the 32 values PostgreSQL logs ahead (the next id 34 instead of 5).
  await pglite.exec('CHECKPOINT');
  const data = await pglite.dumpDataDir('none');
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, Buffer.concat([header(snapshot.key), Buffer.from(await data.arrayBuffer())]));
  await rename(partial, file);
}
