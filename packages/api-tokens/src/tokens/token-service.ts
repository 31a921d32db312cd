// Over 250 lines: authentication, the token lifecycle, grants, rate limits and the default list share one service and its statements; issue 21 splits it.
import { sql, type Kysely, type Transaction } from 'kysely';
import { RecordInvalidError, TOKEN_RATE_LIMITS_TABLE, type ErrorMessages, type PanelDatabase } from '@panel/core';
import { digestsEqual, mintToken, parseToken, tokenDigest } from '../secret/token-secret.js';
import { resolveTokenPepper, type TokenPepperSource } from '../pepper/token-pepper.js';
import { TokenNotFoundError, TokenTransitionError } from '../errors/api-tokens-errors.js';
import { GRANTS_TABLE, TOKENS_TABLE } from '../schema/api-tokens-schema.js';
import type { ApiTokensDatabase } from '../schema/api-tokens-tables.js';
import { grantKey, type Grant, type GrantVerb } from '../grants/grant-verbs.js';
import { normalizeGrants, type GrantInput } from '../grants/grant-list.js';
import { tokenStatus, type StoredTokenStatus, type TokenStatus } from './token-status.js';

/** A token as the panel shows it; never its secret. */
export interface ApiToken {
  readonly id: number;
  readonly name: string;
  readonly status: TokenStatus;
  readonly expiresAt: Date | null;
  readonly lastUsedAt: Date | null;
  /** The panel user who created the token, when one did. */
  readonly createdById: number | null;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
  /** The token's grants, sorted by `<route_key>:<verb>`. */
  readonly grants: readonly Grant[];
}

/** The token behind an authenticated request: who it is and what its grants allow. */
export interface AuthenticatedToken {
  readonly id: number;
  readonly name: string;
  readonly createdById: number | null;
  readonly grants: readonly Grant[];
  /** Whether the token holds the grant (`resource` is a route key). */
  allows(resource: string, verb: GrantVerb): boolean;
}

/** What a new token is made of. */
export interface CreateTokenInput {
  /** Required; 120 characters at most. */
  readonly name: string;
  /** Optional; null or undefined means the token never expires. */
  readonly expiresAt?: Date | null | undefined;
  /** The panel user creating it. */
  readonly createdById?: number | null | undefined;
  /** Its grants: `{ resource, verb }` or `<route_key>:<verb>`. */
  readonly grants?: readonly GrantInput[] | undefined;
}

/** How the service is set up. */
export interface ApiTokenServiceOptions {
  /** The app's database, holding the tables `panel-api install`'s migration creates. */
  readonly database: PanelDatabase;
  /** The pepper (app's secret store); falls back to `PANEL_API_TOKEN_PEPPER`. */
  readonly pepper?: TokenPepperSource;
  /** The route keys grants may name (the panel's resources); undefined accepts any. */
  readonly resources?: readonly string[] | undefined;
  /** The clock; tests pass their own. */
  readonly now?: () => Date;
  /** `last_used_at` is written at most once per this many milliseconds per token. Default 60 000. */
  readonly lastUsedIntervalMillis?: number;
  /** Where `PANEL_API_TOKEN_PEPPER` is read from. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
}

interface TokenRow {
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

// Compared against when no token has the presented public id, so that an unknown id costs the
// same digest work as a known one.
const DUMMY_DIGEST = '0'.repeat(64);
const MAX_NAME_LENGTH = 120;

/**
 * Panel API's Edition B tokens: create (the secret is returned once and stored only as an
 * HMAC-SHA256 digest keyed with the pepper), authenticate, list, disable / enable / revoke, and
 * the grants of each token and of the default permissions list. The panel's token screens and
 * scripts call it; the API runtime calls `authenticate`.
 *
 * @example
 * const tokens = new ApiTokenService({ database, resources: ['blog_posts'] });
 * const { secret } = await tokens.create({ name: 'CI', grants: ['blog_posts:index'] });
 */
export class ApiTokenService {
  readonly #db: Kysely<ApiTokensDatabase>;
  /** The primary alone: a revoked, disabled or expired token is refused at once, whatever a replica's lag. */
  readonly #primary: Kysely<ApiTokensDatabase>;
  readonly #options: ApiTokenServiceOptions;
  readonly #now: () => Date;

  constructor(options: ApiTokenServiceOptions) {
    this.#db = options.database.db as unknown as Kysely<ApiTokensDatabase>;
    this.#primary = (options.database.primary ?? options.database.db) as unknown as Kysely<ApiTokensDatabase>;
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
  }

  /** The pepper in force; throws `TokenPepperError` naming the fix when none is set. */
  pepper(): string {
    return resolveTokenPepper(this.#options.pepper, this.#options.env);
  }

  /** Creates a token with its grants; the returned `secret` is the only time it is ever seen. */
  async create(input: CreateTokenInput): Promise<{ token: ApiToken; secret: string }> {
    const pepper = this.pepper();
    const errors: ErrorMessages = {};
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (name === '') errors.name = ["can't be blank"];
    else if (name.length > MAX_NAME_LENGTH) errors.name = [`is too long (maximum is ${MAX_NAME_LENGTH} characters)`];
    const expiresAt = input.expiresAt ?? null;
    if (expiresAt !== null && (!(expiresAt instanceof Date) || Number.isNaN(expiresAt.getTime()))) errors.expires_at = ['is not a valid datetime'];
    if (Object.keys(errors).length > 0) throw new RecordInvalidError(errors);
    const grants = normalizeGrants(input.grants ?? [], this.#options);
    const { secret, publicId } = mintToken();
    const id = await this.#db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto(TOKENS_TABLE)
        .values({ public_id: publicId, name, token_digest: tokenDigest(secret, pepper), expires_at: expiresAt, created_by_id: input.createdById ?? null, last_used_at: null, revoked_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      await insertGrants(trx, row.id, grants);
      return row.id;
    });
    return { token: await this.find(id), secret };
  }

  /**
   * The token a presented secret belongs to when it is well formed, known, matches its digest
   * (compared in constant time) and is `Active`; undefined for anything else (malformed,
   * unknown, disabled, expired, revoked). Writes `last_used_at` at most once a minute.
   */
  async authenticate(secret: string): Promise<AuthenticatedToken | undefined> {
    const pepper = this.pepper();
    const publicId = parseToken(secret);
    if (publicId === undefined) return undefined;
    const digest = tokenDigest(secret, pepper);
    // The digest is part of the lookup: an unknown id and a known id with a wrong secret send
    // the same statement and both get no row, so neither their time nor their work tells them
    // apart (a row read and then refused cost more). Comparing keyed digests in SQL discloses
    // nothing: without the pepper, no one can aim at a digest's first bytes.
    const row = await this.#select(this.#primary).where('t.public_id', '=', publicId).where('t.token_digest', '=', digest).executeTakeFirst();
    const matches = digestsEqual(digest, row?.token_digest ?? DUMMY_DIGEST);
    if (!row || !matches) return undefined;
    const now = this.#now();
    if (tokenStatus(row.status, row.expires_at, now) !== 'Active') return undefined;
    await this.#touch(row, now);
    const grants = row.grants.map(([resource, verb]) => ({ resource, verb }));
    const keys = new Set(grants.map(grantKey));
    return Object.freeze({
      id: row.id,
      name: row.name,
      createdById: row.created_by_id,
      grants,
      allows: (resource: string, verb: GrantVerb) => keys.has(`${resource}:${verb}`),
    });
  }

  /** Every token, newest first. */
  async list(): Promise<ApiToken[]> {
    const rows = await this.#select().orderBy('t.created_at', 'desc').orderBy('t.id', 'desc').execute();
    const now = this.#now();
    return rows.map((row) => toApiToken(row, now));
  }

  /** One token; `TokenNotFoundError` when there is none with that id. */
  async find(id: number): Promise<ApiToken> {
    const row = await this.#select().where('t.id', '=', id).executeTakeFirst();
    if (!row) throw new TokenNotFoundError(id);
    return toApiToken(row, this.#now());
  }

  /** Active → Disabled (reversible). Refused for a revoked or expired token. */
  async disable(id: number): Promise<ApiToken> {
    return this.#transition(id, 'disable', 'disabled', ['active', 'disabled']);
  }

  /** Disabled → Active. Refused for a revoked token (revocation is permanent) or an expired one. */
  async enable(id: number): Promise<ApiToken> {
    return this.#transition(id, 'enable', 'active', ['active', 'disabled']);
  }

  /** Any status → Revoked, permanently: a revoked token can never be enabled again. */
  async revoke(id: number): Promise<ApiToken> {
    const now = this.#now();
    await this.#db.updateTable(TOKENS_TABLE).set({ status: 'revoked', revoked_at: now }).where('id', '=', id).where('status', '<>', 'revoked').execute();
    return this.find(id);
  }

  /** Replaces a token's grants. Refused for a revoked token. */
  async setGrants(id: number, grants: readonly GrantInput[]): Promise<ApiToken> {
    const normalized = normalizeGrants(grants, this.#options);
    const token = await this.find(id);
    if (token.status === 'Revoked') throw new TokenTransitionError(`API token ${id} is revoked; its grants can no longer change.`);
    await this.#db.transaction().execute(async (trx) => {
      await trx.deleteFrom(GRANTS_TABLE).where('token_id', '=', id).execute();
      await insertGrants(trx, id, normalized);
    });
    return this.find(id);
  }

  /** The default permissions list: the grants of the code-hook path (`index` and `show` only). */
  /**
   * A token's own rate limit: requests per window of the mount's `rateLimit` (default 60 s), or
   * null when the token spends the mount's limit. Kept beside the token record
   * (`panel_api_token_rate_limits`, created by `runPanelMigrations`).
   */
  async rateLimit(id: number): Promise<number | null> {
    const row = await (this.#db as unknown as Kysely<any>).selectFrom(TOKEN_RATE_LIMITS_TABLE).select('max_requests').where('token_id', '=', id).executeTakeFirst();
    return row ? Number(row.max_requests) : null;
  }

  /** Sets a token's own rate limit (a positive whole number of requests per window), or removes it with null. */
  async setRateLimit(id: number, maxRequests: number | null): Promise<void> {
    await this.find(id);
    const db = this.#db as unknown as Kysely<any>;
    if (maxRequests === null) {
      await db.deleteFrom(TOKEN_RATE_LIMITS_TABLE).where('token_id', '=', id).execute();
      return;
    }
    if (!Number.isInteger(maxRequests) || maxRequests < 1) throw new RangeError(`A token's rate limit must be a positive whole number of requests, instead got ${JSON.stringify(maxRequests)}.`);
    await db.insertInto(TOKEN_RATE_LIMITS_TABLE).values({ token_id: id, max_requests: maxRequests }).onConflict((oc) => oc.column('token_id').doUpdateSet({ max_requests: maxRequests })).execute();
  }

  async defaultPermissions(): Promise<Grant[]> {
    const rows = await this.#db.selectFrom(GRANTS_TABLE).select(['resource', 'verb']).where('token_id', 'is', null).orderBy('resource').orderBy('verb').execute();
    return rows.map(({ resource, verb }) => ({ resource, verb }));
  }

  /** Replaces the default permissions list; a write verb is refused with `GrantInvalidError`. */
  async setDefaultPermissions(grants: readonly GrantInput[]): Promise<Grant[]> {
    const normalized = normalizeGrants(grants, this.#options, true);
    await this.#db.transaction().execute(async (trx) => {
      await trx.deleteFrom(GRANTS_TABLE).where('token_id', 'is', null).execute();
      await insertGrants(trx, null, normalized);
    });
    return this.defaultPermissions();
  }

  async #transition(id: number, action: 'disable' | 'enable', to: StoredTokenStatus, from: StoredTokenStatus[]): Promise<ApiToken> {
    const now = this.#now();
    const updated = await this.#db
      .updateTable(TOKENS_TABLE)
      .set({ status: to })
      .where('id', '=', id)
      .where('status', 'in', from)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .returning('id')
      .executeTakeFirst();
    if (updated) return this.find(id);
    const token = await this.find(id);
    throw new TokenTransitionError(`API token ${id} is ${token.status}; it cannot be ${action}d.${token.status === 'Revoked' ? ' Revocation is permanent: create a new token.' : ''}`);
  }

  async #touch(row: TokenRow, now: Date): Promise<void> {
    const interval = this.#options.lastUsedIntervalMillis ?? 60_000;
    if (row.last_used_at !== null && now.getTime() - row.last_used_at.getTime() < interval) return;
    // The condition makes concurrent requests of one token write once, across processes too.
    const before = new Date(now.getTime() - interval);
    await this.#db
      .updateTable(TOKENS_TABLE)
      .set({ last_used_at: now })
      .where('id', '=', row.id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', before)]))
      .execute();
  }

  #select(db: Kysely<ApiTokensDatabase> = this.#db) {
    return db
      .selectFrom(`${TOKENS_TABLE} as t`)
      .selectAll('t')
      .select(
        sql<[string, GrantVerb][]>`(select coalesce(json_agg(json_build_array(g.resource, g.verb) order by g.resource, g.verb), '[]'::json) from ${sql.table(GRANTS_TABLE)} g where g.token_id = t.id)`.as('grants'),
      );
  }
}

async function insertGrants(trx: Transaction<ApiTokensDatabase>, tokenId: number | null, grants: readonly Grant[]): Promise<void> {
  if (grants.length === 0) return;
  await trx.insertInto(GRANTS_TABLE).values(grants.map((g) => ({ token_id: tokenId, resource: g.resource, verb: g.verb }))).execute();
}

function toApiToken(row: TokenRow, now: Date): ApiToken {
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
