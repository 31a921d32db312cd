import { sql } from 'kysely';
import type { PanelDatabase } from '../database/panel-database.js';
import type { CompiledResource } from '../resources/compiled-resource.js';
import { PanelConfigError } from '../errors/panel-errors.js';
import { hasFileFields } from './attachment-select.js';
import { ATTACHMENTS_TABLE, BLOBS_TABLE } from './attachment-tables.js';

/**
 * At startup, when a resource declares a `file` or `files` field: checks that the blobs and
 * attachments tables exist, so that a missing migration fails there with the fix, not on the
 * first index page.
 */
export async function checkAttachmentTables(database: PanelDatabase, resources: ReadonlyMap<string, CompiledResource>): Promise<void> {
  const withFiles = [...resources.values()].filter(hasFileFields).map((r) => r.name);
  if (withFiles.length === 0) return;
  const { rows } = await sql<{ blobs: string | null; attachments: string | null }>`select to_regclass(${BLOBS_TABLE}) as blobs, to_regclass(${ATTACHMENTS_TABLE}) as attachments`.execute(database.db);
  if (rows[0]?.blobs && rows[0]?.attachments) return;
  throw new PanelConfigError(
    `createPanel: ${withFiles.join(', ')} ${withFiles.length === 1 ? 'declares' : 'declare'} file fields, but the tables ${BLOBS_TABLE} and ${ATTACHMENTS_TABLE} do not exist. ` +
      'Fix: await runPanelMigrations(database) before createPanel().',
  );
}
