import { GRANTS_TABLE } from '../schema/api-tokens-schema.js';
import { grantKey, type Grant, type GrantVerb } from './grant-verbs.js';
import { insertGrants } from './token-grants.js';
import { writeAndAnnounce, type TokenTables } from '../tokens/token-tables.js';
import type { DefaultGrants } from '../tokens/token-types.js';

/**
 * The default permissions list (the grants whose `token_id` is null), sorted; from `db` (the
 * primary when the answer gates requests: a lagging replica would bring back a list a change
 * just replaced).
 */
export async function readDefaultPermissions(tables: TokenTables, db = tables.db): Promise<Grant[]> {
  const rows = await db.selectFrom(GRANTS_TABLE).select(['resource', 'verb']).where('token_id', 'is', null).orderBy('resource').orderBy('verb').execute();
  return rows.map(({ resource, verb }) => ({ resource, verb }));
}

/** Replaces the default permissions list in one transaction; every process hears of it (`{ kind: 'grants' }`). */
export async function replaceDefaultPermissions(tables: TokenTables, grants: readonly Grant[]): Promise<void> {
  await writeAndAnnounce(tables, async (trx, announce) => {
    await trx.deleteFrom(GRANTS_TABLE).where('token_id', 'is', null).execute();
    await insertGrants(trx, null, grants);
    announce({ kind: 'grants' });
  });
}

/** The list as the code-hook path asks it, with a set for `allows`. */
export function toDefaultGrants(grants: readonly Grant[]): DefaultGrants {
  const keys = new Set(grants.map(grantKey));
  return Object.freeze({ grants: Object.freeze(grants.map((g) => Object.freeze({ ...g }))), allows: (resource: string, verb: GrantVerb) => keys.has(`${resource}:${verb}`) });
}
