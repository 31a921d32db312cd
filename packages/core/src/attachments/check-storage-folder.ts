import { readdir } from 'node:fs/promises';
import type { PanelDatabase } from '../database/panel-database.js';
import type { CompiledResource } from '../resources/compiled-resource.js';
import type { StorageService } from '../storage/storage-service.js';
import { hasFileFields } from './attachment-select.js';
import { BLOBS_TABLE } from './attachment-tables.js';

/** The code of the warning `createPanel` emits when a disk storage folder is empty but blobs exist. */
export const STORAGE_EMPTY_WARNING = 'PANEL_WARN_STORAGE_EMPTY';

async function isEmptyFolder(path: string): Promise<boolean> {
  try {
    return (await readdir(path)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

/**
 * At startup, for a disk storage (a service with a `root` folder): when the folder is missing or
 * empty while the blobs table has rows, every attachment URL would answer 404. That is the sign
 * of an app started from another folder than the one its files were uploaded under (the default
 * folder is `<current directory>/storage`), or of a deleted folder, so the boot says so with a
 * process warning (`PANEL_WARN_STORAGE_EMPTY`) naming the folder and the fix. It never fails the
 * boot: an app may have deleted its files on purpose.
 */
export async function warnWhenStorageFolderEmpty(database: PanelDatabase, resources: ReadonlyMap<string, CompiledResource>, storage: StorageService): Promise<void> {
  const root = (storage as { root?: unknown }).root;
  if (storage.name !== 'disk' || typeof root !== 'string') return;
  if (![...resources.values()].some(hasFileFields)) return;
  if (!(await isEmptyFolder(root))) return;
  const { count } = await database.db.selectFrom(BLOBS_TABLE).select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow();
  const blobs = Number(count);
  if (blobs === 0) return;
  process.emitWarning(
    `Panel's storage folder ${root} is empty, but ${BLOBS_TABLE} holds ${blobs} blob${blobs === 1 ? '' : 's'}: their attachment URLs will answer 404. ` +
      'Fix: start the app from the folder its files were uploaded under (the default storage is <current directory>/storage), ' +
      'or pass storage: diskStorage({ root }) to createPanel() with that folder.',
    { code: STORAGE_EMPTY_WARNING },
  );
}
