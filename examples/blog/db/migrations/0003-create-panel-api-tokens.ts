import type { Kysely } from 'kysely';
import { apiTokensSchemaV1 } from '@panel/api-tokens';

/**
 * Panel API, Edition B: the tables `panel_api_tokens` and `panel_api_permission_grants`
 * (written by `panel-api install`). The schema is versioned in `@panel/api-tokens`, so this
 * migration keeps doing what it did when it ran, whatever later versions of the package add.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await apiTokensSchemaV1.up(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await apiTokensSchemaV1.down(db);
}
