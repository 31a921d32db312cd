import type { ColumnType, Generated } from 'kysely';
import type { StoredTokenStatus } from '../tokens/token-status.js';
import type { GrantVerb } from '../grants/grant-verbs.js';

/** A row of `panel_api_tokens`, as Kysely types it. */
export interface TokensTable {
  id: Generated<number>;
  public_id: string;
  name: string;
  token_digest: string;
  status: ColumnType<StoredTokenStatus, StoredTokenStatus | undefined, StoredTokenStatus>;
  expires_at: Date | null;
  last_used_at: Date | null;
  created_by_id: number | null;
  created_at: Generated<Date>;
  revoked_at: Date | null;
}

/** A row of `panel_api_permission_grants`. */
export interface GrantsTable {
  id: Generated<number>;
  token_id: number | null;
  resource: string;
  verb: GrantVerb;
  created_at: Generated<Date>;
}

/** The Edition B tables, for a typed Kysely over the app's database. */
export interface ApiTokensDatabase {
  panel_api_tokens: TokensTable;
  panel_api_permission_grants: GrantsTable;
}
