import type { Kysely } from 'kysely';
import { ATTACHMENTS_TABLE, BLOBS_TABLE } from './attachment-tables.js';

/**
 * In the transaction that removed attachments (or pending uploads): deletes those of `blobIds`
 * that no attachment names any more (one statement), and answers their keys, whose bytes to
 * purge once the transaction has committed.
 */
export async function deleteUnattachedBlobs(trx: Kysely<any>, blobIds: readonly unknown[]): Promise<string[]> {
  if (blobIds.length === 0) return [];
  const blobs = await trx
    .deleteFrom(`${BLOBS_TABLE} as b`)
    .where('b.id', 'in', blobIds)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom(`${ATTACHMENTS_TABLE} as a`).select('a.id').whereRef('a.blob_id', '=', 'b.id'))))
    .returning('b.key')
    .execute();
  return blobs.map((blob) => blob.key as string);
}
