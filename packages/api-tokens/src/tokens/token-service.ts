import { sql } from 'kysely';
import type { Grant } from '../grants/grant-verbs.js';
import { TOKEN_DIGEST_INDEX } from '../schema/api-tokens-schema.js';
import { normalizeGrants, type GrantInput } from '../grants/grant-list.js';
import { readDefaultPermissions, replaceDefaultPermissions, toDefaultGrants } from '../grants/default-permissions.js';
import { replaceTokenGrants } from '../grants/token-grants.js';
import { resolveTokenPepper } from '../pepper/token-pepper.js';
import { TokenNotFoundError, TokenTransitionError } from '../errors/api-tokens-errors.js';
import { TokenAuthenticator } from '../authentication/token-authenticator.js';
import { VerifiedTokenCache } from '../authentication/verified-token-cache.js';
import type { StoredTokenStatus } from './token-status.js';
import { selectTokens, toApiToken } from './token-rows.js';
import { changeTokenStatus, checkNewToken, insertToken, revokeToken } from './token-lifecycle.js';
import { readTokenRateLimit, writeTokenRateLimit } from './token-rate-limits.js';
import { tokenTables, type TokenTables } from './token-tables.js';
import type { ApiToken, ApiTokenServiceOptions, AuthenticatedToken, CreateTokenInput, DefaultGrants } from './token-types.js';

export type { ApiToken, ApiTokenServiceOptions, AuthenticatedToken, CreateTokenInput, DefaultGrants, TokenCacheOptions } from './token-types.js';

/**
 * Panel API's Edition B tokens: create (the secret is returned once and stored only as an
 * HMAC-SHA256 digest keyed with the pepper), authenticate, list, disable / enable / revoke, and
 * the grants of each token and of the default permissions list. The panel's token screens and
 * scripts call it; the API runtime calls `authenticate` and `defaultGrants`. Each idea lives in
 * its own module (authentication/, tokens/token-lifecycle.ts, grants/); this class is their
 * one entry point.
 *
 * @example
 * const tokens = new ApiTokenService({ database, resources: ['blog_posts'] });
 * const { secret } = await tokens.create({ name: 'CI', grants: ['blog_posts:index'] });
 */
export class ApiTokenService {
  readonly #options: ApiTokenServiceOptions;
  readonly #tables: TokenTables;
  readonly #cache: VerifiedTokenCache | undefined;
  readonly #authenticator: TokenAuthenticator;

  constructor(options: ApiTokenServiceOptions) {
    this.#options = options;
    this.#tables = tokenTables(options.database, options.now ?? (() => new Date()));
    const changes = options.database.changes;
    this.#cache = options.cache && changes ? new VerifiedTokenCache(changes, options.cache === true ? {} : options.cache) : undefined;
    this.#authenticator = new TokenAuthenticator({ tables: this.#tables, pepper: () => this.pepper(), cache: this.#cache, lastUsedIntervalMillis: options.lastUsedIntervalMillis ?? 60_000 });
  }

  /** The pepper in force; throws `TokenPepperError` naming the fix when none is set. */
  pepper(): string {
    return resolveTokenPepper(this.#options.pepper, this.#options.env);
  }

  /** Creates a token with its grants; the returned `secret` is the only time it is ever seen. */
  async create(input: CreateTokenInput): Promise<{ token: ApiToken; secret: string }> {
    const pepper = this.pepper();
    const { name, expiresAt } = checkNewToken(input);
    const grants = normalizeGrants(input.grants ?? [], this.#options);
    const { id, secret } = await insertToken(this.#tables, { name, expiresAt, createdById: input.createdById ?? null, grants, pepper });
    return { token: await this.find(id), secret };
  }

  /**
   * The token a presented secret belongs to when it is well formed, known, matches its digest
   * (compared in constant time) and is `Active`; undefined for anything else (malformed,
   * unknown, disabled, expired, revoked). Writes `last_used_at` at most once a minute. With
   * `cache`, a secret verified before costs no statement.
   */
  authenticate(secret: string): Promise<AuthenticatedToken | undefined> {
    return this.#authenticator.authenticate(secret);
  }

  /** Every token, newest first. */
  async list(): Promise<ApiToken[]> {
    const rows = await selectTokens(this.#tables.db).orderBy('t.created_at', 'desc').orderBy('t.id', 'desc').execute();
    const now = this.#tables.now();
    return rows.map((row) => toApiToken(row, now));
  }

  /** One token; `TokenNotFoundError` when there is none with that id. */
  async find(id: number): Promise<ApiToken> {
    const row = await selectTokens(this.#tables.db).where('t.id', '=', id).executeTakeFirst();
    if (!row) throw new TokenNotFoundError(id);
    return toApiToken(row, this.#tables.now());
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
    await revokeToken(this.#tables, id);
    return this.find(id);
  }

  /** Replaces a token's grants. Refused for a revoked token. */
  async setGrants(id: number, grants: readonly GrantInput[]): Promise<ApiToken> {
    const normalized = normalizeGrants(grants, this.#options);
    const token = await this.find(id);
    if (token.status === 'Revoked') throw new TokenTransitionError(`API token ${id} is revoked; its grants can no longer change.`);
    await replaceTokenGrants(this.#tables, id, normalized);
    return this.find(id);
  }

  /**
   * A token's own rate limit: requests per window of the mount's `rateLimit` (default 60 s), or
   * null when the token spends the mount's limit. Kept beside the token record
   * (`panel_api_token_rate_limits`, created by `runPanelMigrations`). With `cache`, kept with
   * the token until any process changes it.
   */
  async rateLimit(id: number): Promise<number | null> {
    const cached = this.#cache?.rateLimit(id);
    if (cached !== undefined) return cached;
    if (this.#cache !== undefined && !this.#cache.live) await this.#cache.ready();
    const ticket = this.#cache?.ticket();
    const maxRequests = await readTokenRateLimit(this.#tables, id);
    if (ticket !== undefined) this.#cache!.keepRateLimit(id, maxRequests, ticket);
    return maxRequests;
  }

  /** Sets a token's own rate limit (a positive whole number of requests per window), or removes it with null. */
  async setRateLimit(id: number, maxRequests: number | null): Promise<void> {
    await this.find(id);
    await writeTokenRateLimit(this.#tables, id, maxRequests);
  }

  /** The default permissions list: the grants of the code-hook path (`index` and `show` only). */
  async defaultPermissions(): Promise<Grant[]> {
    return readDefaultPermissions(this.#tables);
  }

  /**
   * The default permissions list as the code-hook path asks it on every request. With `cache`
   * it is read once and kept until any process changes it (or the cache's bound passes).
   */
  async defaultGrants(): Promise<DefaultGrants> {
    const cached = this.#cache?.defaults();
    if (cached !== undefined) return cached;
    if (this.#cache !== undefined && !this.#cache.live) await this.#cache.ready();
    const ticket = this.#cache?.ticket();
    const grants = toDefaultGrants(await readDefaultPermissions(this.#tables, this.#tables.primary));
    if (ticket !== undefined) this.#cache!.keepDefaults(grants, ticket);
    return grants;
  }

  /** Replaces the default permissions list; a write verb is refused with `GrantInvalidError`. */
  async setDefaultPermissions(grants: readonly GrantInput[]): Promise<Grant[]> {
    const normalized = normalizeGrants(grants, this.#options, true);
    await replaceDefaultPermissions(this.#tables, normalized);
    return this.defaultPermissions();
  }

  /**
   * Whether the tokens table has the digest index of `apiTokensSchemaV2` (found by name on the
   * connection's search path). Without it each token lookup reads the whole table: the same
   * work for every presented secret, so still no timing oracle, but slow on a large table.
   */
  async hasDigestIndex(): Promise<boolean> {
    const { rows } = await sql<{ present: boolean }>`select to_regclass(${TOKEN_DIGEST_INDEX}) is not null as present`.execute(this.#tables.primary);
    return rows[0]?.present === true;
  }

  /** Stops this service's cache from listening for changes (the database's channel stays open). */
  close(): void {
    this.#cache?.close();
  }

  async #transition(id: number, action: 'disable' | 'enable', to: StoredTokenStatus, from: StoredTokenStatus[]): Promise<ApiToken> {
    if (await changeTokenStatus(this.#tables, id, to, from)) return this.find(id);
    const token = await this.find(id);
    throw new TokenTransitionError(`API token ${id} is ${token.status}; it cannot be ${action}d.${token.status === 'Revoked' ? ' Revocation is permanent: create a new token.' : ''}`);
  }
}
