import type { Kysely } from 'kysely';
import { TOKEN_RATE_LIMITS_TABLE } from '@panel/core';
import { writeAndAnnounce, type TokenTables } from './token-tables.js';

// The rate-limit table belongs to @panel/core's migrations, not to the token tables' types.
const untyped = (db: object) => db as Kysely<any>;

/** A token's own rate limit (requests per window), or null when it spends the mount's limit; read on the primary, as the token is. */
export async function readTokenRateLimit(tables: TokenTables, id: number): Promise<number | null> {
  const row = await untyped(tables.primary).selectFrom(TOKEN_RATE_LIMITS_TABLE).select('max_requests').where('token_id', '=', id).executeTakeFirst();
  return row ? Number(row.max_requests) : null;
}

/**
 * Sets a token's own rate limit (a positive whole number), or removes it with null; a
 * `RangeError` for anything else. Every process hears of it (`{ kind: 'token', id }`).
 */
export async function writeTokenRateLimit(tables: TokenTables, id: number, maxRequests: number | null): Promise<void> {
  if (maxRequests !== null && (!Number.isInteger(maxRequests) || maxRequests < 1)) throw new RangeError(`A token's rate limit must be a positive whole number of requests, instead got ${JSON.stringify(maxRequests)}.`);
  await writeAndAnnounce(tables, async (trx, announce) => {
    const db = untyped(trx);
    if (maxRequests === null) await db.deleteFrom(TOKEN_RATE_LIMITS_TABLE).where('token_id', '=', id).execute();
    else await db.insertInto(TOKEN_RATE_LIMITS_TABLE).values({ token_id: id, max_requests: maxRequests }).onConflict((oc) => oc.column('token_id').doUpdateSet({ max_requests: maxRequests })).execute();
    announce({ kind: 'token', id });
  });
}
