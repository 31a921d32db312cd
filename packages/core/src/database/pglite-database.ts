import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Kysely } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import { PGliteDialect } from './pglite-dialect.js';
import { PANEL_TYPE_PARSERS } from './type-parsers.js';
import { withUnavailableErrors } from './unavailable-error-dialect.js';
import { withSharedTransactions } from './request-transaction.js';
import type { QueryListeners } from './query-listeners.js';
import { readSnapshot, writeSnapshot } from './pglite-snapshot-file.js';
import { lockPgliteFolder } from './pglite-folder-lock.js';
import { servePgliteSocket, type PgliteSocketServer } from './pglite-socket-server.js';
import type { PanelDatabase } from './panel-database-types.js';
import type { OpenDatabaseOptions, PgliteSnapshotOptions } from './open-database-options.js';

/** The folder of a PGlite `dataDir` on disk (a path, or `file://…`); undefined for `memory://` and the browser's stores. */
function folderOf(dataDir: string | undefined): string | undefined {
  if (!dataDir) return undefined;
  if (dataDir.startsWith('file://')) return dataDir.slice('file://'.length);
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(dataDir) ? undefined : dataDir;
}

export async function openPglite(options: Pick<OpenDatabaseOptions, 'dataDir' | 'loadDataDir' | 'connectionTimeoutMillis'>, listeners: QueryListeners, onQuery: PanelDatabase['onQuery']): Promise<PanelDatabase & { pglite: PGlite }> {
  const folder = folderOf(options.dataDir);
  // PGlite creates its data folder but not the folders above it (`data/pglite` would be ENOENT).
  if (options.dataDir) await mkdir(dirname(resolve(options.dataDir)), { recursive: true });
  // One process at a time on a folder, the server, the CLI and any script alike: a second one fails here, before PGlite touches a file.
  const lock = folder === undefined ? undefined : await lockPgliteFolder(folder);
  let pglite: PGlite;
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    pglite = new PGlite({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      parsers: PANEL_TYPE_PARSERS,
    });
    await pglite.waitReady;
  } catch (error) {
    await lock?.release();
    throw error;
  }
  const dialect = new PGliteDialect(pglite, { connectionTimeoutMillis: options.connectionTimeoutMillis });
  const db = new Kysely<any>({ dialect: withSharedTransactions(withUnavailableErrors(dialect), {}, listeners) });
  // Another process (the token CLI) reaches a folder's database through this one while it runs.
  let served: PgliteSocketServer | undefined;
  if (lock !== undefined) {
    served = await servePgliteSocket({ pglite, db });
    await lock.recordSocket(served.folder);
  }
  return {
    db,
    primary: db,
    kind: 'pglite',
    pglite,
    onQuery,
    close: async () => {
      try {
        await served?.close();
        await db.destroy();
        if (!pglite.closed) await pglite.close();
      } finally {
        await lock?.release();
      }
    },
  };
}

/**
 * Loads the snapshot when its file holds one made under the same key; otherwise (or when the
 * saved one does not start) prepares a fresh database, saves it, and goes on with it.
 */
export async function openFromSnapshot(snapshot: PgliteSnapshotOptions, listeners: QueryListeners, onQuery: PanelDatabase['onQuery'], connectionTimeoutMillis?: number): Promise<PanelDatabase> {
  const saved = await readSnapshot(snapshot);
  if (saved) {
    try {
      const { pglite: _, ...database } = await openPglite({ loadDataDir: saved, connectionTimeoutMillis }, listeners, onQuery);
      return database;
    } catch {
      // A damaged file: made again below.
    }
  }
  const { pglite, ...database } = await openPglite({ connectionTimeoutMillis }, listeners, onQuery);
  try {
    await snapshot.prepare(database);
    await writeSnapshot(snapshot, pglite);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
