import { digestsEqual, parseToken, tokenDigest } from '../secret/token-secret.js';
import { TOKENS_TABLE } from '../schema/api-tokens-schema.js';
import { grantKey, type GrantVerb } from '../grants/grant-verbs.js';
import { tokenStatus } from '../tokens/token-status.js';
import { selectTokens, type TokenRow } from '../tokens/token-rows.js';
import type { TokenTables } from '../tokens/token-tables.js';
import type { AuthenticatedToken } from '../tokens/token-types.js';
import type { VerifiedToken, VerifiedTokenCache } from './verified-token-cache.js';

// Compared against when no token is known by the presented public id, so that an unknown id
// costs the same digest work as a known one.
const DUMMY_DIGEST = '0'.repeat(64);

/**
 * Authenticates presented secrets: the public id and checksum parsed, the keyed digest made and
 * compared in constant time, the status and expiry checked, `last_used_at` written at most once
 * per interval. With a cache, a secret verified before answers from memory (no statement);
 * anything else sends the same one statement, whether its id is unknown, known but not cached,
 * or cached with another secret, so its cost never tells whether the id exists.
 */
export class TokenAuthenticator {
  readonly #tables: TokenTables;
  readonly #pepper: () => string;
  readonly #cache: VerifiedTokenCache | undefined;
  readonly #lastUsedIntervalMillis: number;

  constructor(input: { tables: TokenTables; pepper: () => string; cache: VerifiedTokenCache | undefined; lastUsedIntervalMillis: number }) {
    this.#tables = input.tables;
    this.#pepper = input.pepper;
    this.#cache = input.cache;
    this.#lastUsedIntervalMillis = input.lastUsedIntervalMillis;
  }

  /** The token of an `Active` secret, else undefined (malformed, unknown, wrong, disabled, expired, revoked). */
  async authenticate(secret: string): Promise<AuthenticatedToken | undefined> {
    const pepper = this.#pepper();
    const publicId = parseToken(secret);
    if (publicId === undefined) return undefined;
    const digest = tokenDigest(secret, pepper);
    const cached = this.#cache?.token(publicId, pepper);
    // Only the right secret of a token verified within the bound skips the statement: a wrong
    // secret for a cached id goes on exactly as an unknown id does.
    if (digestsEqual(digest, cached?.digest ?? DUMMY_DIGEST) && cached !== undefined) return this.#accept(cached);
    if (this.#cache !== undefined && !this.#cache.live) await this.#cache.ready();
    const ticket = this.#cache?.ticket();
    // The lookup is by the keyed digest alone (unique, `apiTokensSchemaV2`): an unknown id and
    // a known id with a wrong secret send the same statement, take the same path through the
    // digest index and find no entry, so neither their time nor their work tells them apart.
    // Looking up by public id and then refusing the digest read the known id's row: one heap
    // visit more. The digest covers the whole secret, public id included, so a row found is the
    // presented token's. Comparing keyed digests in SQL discloses nothing: without the pepper,
    // no one can aim at a digest's first bytes.
    const row = await selectTokens(this.#tables.primary).where('t.token_digest', '=', digest).executeTakeFirst();
    const matches = digestsEqual(digest, row?.token_digest ?? DUMMY_DIGEST);
    if (!row || !matches) return undefined;
    const verified = verifiedToken(row);
    if (ticket !== undefined) this.#cache!.keepToken(publicId, pepper, verified, ticket);
    return this.#accept(verified);
  }

  async #accept(verified: VerifiedToken): Promise<AuthenticatedToken | undefined> {
    const now = this.#tables.now();
    if (tokenStatus(verified.status, verified.expiresAt, now) !== 'Active') return undefined;
    await this.#touch(verified, now);
    return verified.token;
  }

  async #touch(verified: VerifiedToken, now: Date): Promise<void> {
    const interval = this.#lastUsedIntervalMillis;
    if (verified.lastUsedAt !== null && now.getTime() - verified.lastUsedAt.getTime() < interval) return;
    verified.lastUsedAt = now;
    // The condition makes concurrent requests of one token write once, across processes too.
    const before = new Date(now.getTime() - interval);
    await this.#tables.db
      .updateTable(TOKENS_TABLE)
      .set({ last_used_at: now })
      .where('id', '=', verified.id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', before)]))
      .execute();
  }
}

/** A row whose digest matched, as the cache keeps it. */
function verifiedToken(row: TokenRow): VerifiedToken {
  // Shared by every request the cache answers: frozen.
  const grants = Object.freeze(row.grants.map(([resource, verb]) => Object.freeze({ resource, verb })));
  const keys = new Set(grants.map(grantKey));
  return {
    id: row.id,
    digest: row.token_digest,
    status: row.status,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    token: Object.freeze({
      id: row.id,
      name: row.name,
      createdById: row.created_by_id,
      grants,
      allows: (resource: string, verb: GrantVerb) => keys.has(`${resource}:${verb}`),
    }),
  };
}
