import { readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';

/** The installed PGlite's version (its package.json is not exported, so it is found beside the entry point). */
function pgliteVersion(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The file that keeps a freshly initialized PGlite data directory between test files and runs. */
export const PGLITE_SNAPSHOT_FILE = join(tmpdir(), `panel-test-pglite-${pgliteVersion()}.tar`);

let snapshot: Promise<Blob> | undefined;

async function makeSnapshot(): Promise<Blob> {
  const fresh = new PGlite();
  try {
    await fresh.waitReady;
    const blob = await fresh.dumpDataDir('none');
    // Written aside and renamed, so that a test file reading it never sees half a snapshot.
    const partial = `${PGLITE_SNAPSHOT_FILE}.${process.pid}.partial`;
    await writeFile(partial, Buffer.from(await blob.arrayBuffer()));
    await rename(partial, PGLITE_SNAPSHOT_FILE);
    return blob;
  } finally {
    await fresh.close();
  }
}

/**
 * A freshly initialized PGlite data directory as a `dumpDataDir()` snapshot. A new in-memory
 * PGlite runs initdb, 3–5 s on this project's machines; loading this snapshot takes about 1 s, so
 * every PGlite test file opens its database from it. Made once per PGlite version and kept in the
 * system's temporary folder; a missing or unreadable file is made again.
 */
export function pgliteSnapshot(): Promise<Blob> {
  snapshot ??= readFile(PGLITE_SNAPSHOT_FILE).then(
    (bytes) => (bytes.length > 0 ? new Blob([bytes]) : makeSnapshot()),
    () => makeSnapshot(),
  );
  return snapshot;
}
