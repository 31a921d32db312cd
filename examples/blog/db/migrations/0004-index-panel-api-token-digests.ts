import type { Kysely } from 'kysely';
import { apiTokensSchemaV2 } from '@panel/api-tokens';

/**
 * Panel API, Edition B: the unique index on token digests (written by `panel-api install` in
 * an app whose tokens migration predates it). Authentication looks a token up by its digest,
 * so that an unknown token id and a known one with a wrong secret cost the same. The schema
 * is versioned in `@panel/api-tokens`, so this migration keeps doing what it did when it
 * ran, whatever later versions of the package add.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await apiTokensSchemaV2.up(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await apiTokensSchemaV2.down(db);
}
