import { sql, type Kysely } from 'kysely';
import { GRANTS_TABLE, TOKENS_TABLE } from '../schema/api-tokens-schema.js';
import type { ApiTokensDatabase } from '../schema/api-tokens-tables.js';
import type { GrantVerb } from '../grants/grant-verbs.js';
import { tokenStatus, type StoredTokenStatus } from './token-status.js';
import type { ApiToken } from './token-types.js';

/** A token's row with its grants, as `selectTokens` reads it. */
export interface TokenRow {
  id: number;
  public_id: string;
  name: string;
  token_digest: string;
  status: StoredTokenStatus;
  expires_at: Date | null;
  last_used_at: Date | null;
  created_by_id: number | null;
  created_at: Date;
  revoked_at: Date | null;
  grants: [string, GrantVerb][];
}

/** The tokens with their grants, in one statement (a correlated `json_agg`); the caller adds the `where`. */
export function selectTokens(db: Kysely<ApiTokensDatabase>) {
  return db
    .selectFrom(`${TOKENS_TABLE} as t`)
    .selectAll('t')
    .select(
      sql<[string, GrantVerb][]>`(select coalesce(json_agg(json_build_array(g.resource, g.verb) order by g.resource, g.verb), '[]'::json) from ${sql.table(GRANTS_TABLE)} g where g.token_id = t.id)`.as('grants'),
    );
}

/** A row as the panel shows it: its status at `now`, never its digest. */
export function toApiToken(row: TokenRow, now: Date): ApiToken {
  return Object.freeze({
    id: row.id,
    name: row.name,
    status: tokenStatus(row.status, row.expires_at, now),
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    createdById: row.created_by_id,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    grants: Object.freeze(row.grants.map(([resource, verb]) => Object.freeze({ resource, verb }))),
  });
}
