import type { Transaction } from 'kysely';
import { GRANTS_TABLE } from '../schema/api-tokens-schema.js';
import type { ApiTokensDatabase } from '../schema/api-tokens-tables.js';
import type { Grant } from './grant-verbs.js';
import { writeAndAnnounce, type TokenTables } from '../tokens/token-tables.js';

/** Adds grants to a token, or to the default permissions list when `tokenId` is null. */
export async function insertGrants(trx: Transaction<ApiTokensDatabase>, tokenId: number | null, grants: readonly Grant[]): Promise<void> {
  if (grants.length === 0) return;
  await trx.insertInto(GRANTS_TABLE).values(grants.map((g) => ({ token_id: tokenId, resource: g.resource, verb: g.verb }))).execute();
}

/** Replaces a token's grants in one transaction; every process's token cache hears of it (`{ kind: 'token', id }`). */
export async function replaceTokenGrants(tables: TokenTables, id: number, grants: readonly Grant[]): Promise<void> {
  await writeAndAnnounce(tables, async (trx, announce) => {
    await trx.deleteFrom(GRANTS_TABLE).where('token_id', '=', id).execute();
    await insertGrants(trx, id, grants);
    announce({ kind: 'token', id });
  });
}
