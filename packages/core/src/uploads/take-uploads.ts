import { sql, type Kysely } from 'kysely';
import { UPLOADS_TABLE } from './upload-tables.js';

/**
 * Inside a write's transaction: takes pending uploads (deletes their rows: each upload id is
 * used once) that are `owner`'s and live, and answers their blob ids by digest. Fewer than
 * asked means another write took one meanwhile, or it expired since it was looked up: the
 * caller refuses the write, and its rollback gives the uploads back.
 */
export async function takeUploads(trx: Kysely<any>, owner: string, digests: readonly string[]): Promise<Map<string, number>> {
  if (digests.length === 0) return new Map();
  const rows = await trx
    .deleteFrom(UPLOADS_TABLE)
    .where('digest', 'in', digests)
    .where('owner', '=', owner)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning(['digest', 'blob_id'])
    .execute();
  return new Map(rows.map((row) => [row.digest as string, Number(row.blob_id)]));
}
