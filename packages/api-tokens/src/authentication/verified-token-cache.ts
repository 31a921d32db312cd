import { performance } from 'node:perf_hooks';
import type { Change, ChangeNotifications } from '@panel/core';
import type { StoredTokenStatus } from '../tokens/token-status.js';
import type { AuthenticatedToken, DefaultGrants, TokenCacheOptions } from '../tokens/token-types.js';

/** A token whose secret was verified against the database: what a later request with the same secret needs. */
export interface VerifiedToken {
  readonly id: number;
  /** The digest of its secret under the pepper it was verified with. */
  readonly digest: string;
  readonly status: StoredTokenStatus;
  readonly expiresAt: Date | null;
  /** When `last_used_at` was last written (or read); the service moves it forward. */
  lastUsedAt: Date | null;
  /** What `authenticate` answers, made once. */
  readonly token: AuthenticatedToken;
}

/** Taken before a read: the read's answer is kept only if nothing changed while it ran. */
export interface CacheTicket {
  readonly generation: number;
  /** `performance.now()` before the read: an entry's age counts from then. */
  readonly at: number;
}

/** The defaults of `TokenCacheOptions`. */
export const TOKEN_CACHE_DEFAULTS = Object.freeze({ maxEntries: 10_000, maxAgeMillis: 1_000 });

/**
 * Verified tokens (by public id: digest, status, expiry, grants), their own rate limits and the
 * default permissions list, kept in this process and dropped by the database's change channel:
 * `{ kind: 'token', id }` drops that token and its rate limit, `{ kind: 'grants' }` the default list, a `reset`
 * (the listening connection was lost, or is new) everything. Nothing answers from memory while
 * the channel is not live, nor after `maxAgeMillis`, nor under another pepper; a read that a
 * change overtook is not kept. Bounded: past `maxEntries` the entry verified longest ago goes.
 */
export class VerifiedTokenCache {
  readonly #changes: ChangeNotifications;
  readonly #maxEntries: number;
  readonly #maxAgeMillis: number;
  readonly #tokens = new Map<string, { readonly token: VerifiedToken; readonly verifiedAt: number }>();
  /** Each token's own rate limit (null: the mount's), by token id. */
  readonly #rateLimits = new Map<number, { readonly maxRequests: number | null; readonly verifiedAt: number }>();
  #defaults: { readonly grants: DefaultGrants; readonly verifiedAt: number } | undefined;
  /** Raised by every change and reset: a read that started before one is not kept. */
  #generation = 0;
  #pepper: string | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor(changes: ChangeNotifications, options: TokenCacheOptions = {}) {
    this.#changes = changes;
    this.#maxEntries = options.maxEntries ?? TOKEN_CACHE_DEFAULTS.maxEntries;
    this.#maxAgeMillis = options.maxAgeMillis ?? TOKEN_CACHE_DEFAULTS.maxAgeMillis;
    if (!Number.isInteger(this.#maxEntries) || this.#maxEntries < 1) throw new RangeError(`The token cache's maxEntries must be a positive whole number, instead got ${String(options.maxEntries)}.`);
    if (!Number.isFinite(this.#maxAgeMillis) || this.#maxAgeMillis < 0) throw new RangeError(`The token cache's maxAgeMillis must be a number of milliseconds, 0 or more, instead got ${String(options.maxAgeMillis)}.`);
  }

  /** Whether other processes' changes are heard now; starts listening on first use. */
  get live(): boolean {
    this.#subscribe();
    return this.#changes.live;
  }

  /** How many tokens are kept now. */
  get size(): number {
    return this.#tokens.size;
  }

  /** Resolves once the listening connection is up or its attempt failed. */
  ready(): Promise<void> {
    this.#subscribe();
    return this.#changes.ready();
  }

  /** Before a read whose answer may be kept. */
  ticket(): CacheTicket {
    this.#subscribe();
    return { generation: this.#generation, at: performance.now() };
  }

  /** The token verified under `pepper` with this public id, when it may answer from memory. */
  token(publicId: string, pepper: string): VerifiedToken | undefined {
    if (pepper !== this.#pepper) {
      // Every digest kept was made with another pepper: none can match again.
      this.#dropAll();
      this.#pepper = pepper;
      return undefined;
    }
    const entry = this.#tokens.get(publicId);
    return entry !== undefined && this.#fresh(entry.verifiedAt) ? entry.token : undefined;
  }

  /** Keeps a token read under `ticket`, unless a change or reset came meanwhile. */
  keepToken(publicId: string, pepper: string, token: VerifiedToken, ticket: CacheTicket): void {
    if (!this.#mayKeep(ticket) || pepper !== this.#pepper) return;
    this.#tokens.delete(publicId);
    // The same object the caller goes on with: its `lastUsedAt` moves forward in the cache too.
    this.#tokens.set(publicId, { token, verifiedAt: ticket.at });
    for (const oldest of this.#tokens.keys()) {
      if (this.#tokens.size <= this.#maxEntries) break;
      this.#tokens.delete(oldest);
    }
  }

  /** A token's own rate limit (null: none), when it may answer from memory; undefined when it must be read. */
  rateLimit(id: number): number | null | undefined {
    const entry = this.#rateLimits.get(id);
    return entry !== undefined && this.#fresh(entry.verifiedAt) ? entry.maxRequests : undefined;
  }

  /** Keeps a token's rate limit read under `ticket`, unless a change or reset came meanwhile. */
  keepRateLimit(id: number, maxRequests: number | null, ticket: CacheTicket): void {
    if (!this.#mayKeep(ticket)) return;
    this.#rateLimits.delete(id);
    this.#rateLimits.set(id, { maxRequests, verifiedAt: ticket.at });
    for (const oldest of this.#rateLimits.keys()) {
      if (this.#rateLimits.size <= this.#maxEntries) break;
      this.#rateLimits.delete(oldest);
    }
  }

  /** The default permissions list, when it may answer from memory. */
  defaults(): DefaultGrants | undefined {
    const defaults = this.#defaults;
    return defaults !== undefined && this.#fresh(defaults.verifiedAt) ? defaults.grants : undefined;
  }

  /** Keeps the default permissions list read under `ticket`, unless a change or reset came meanwhile. */
  keepDefaults(grants: DefaultGrants, ticket: CacheTicket): void {
    if (this.#mayKeep(ticket)) this.#defaults = { grants, verifiedAt: ticket.at };
  }

  /** Stops listening for this cache and forgets everything. */
  close(): void {
    this.#unsubscribe?.();
    this.#dropAll();
  }

  #fresh(verifiedAt: number): boolean {
    return this.#changes.live && performance.now() - verifiedAt <= this.#maxAgeMillis;
  }

  #mayKeep(ticket: CacheTicket): boolean {
    return ticket.generation === this.#generation && this.#changes.live;
  }

  #subscribe(): void {
    this.#unsubscribe ??= this.#changes.subscribe({ change: (change) => this.#change(change), reset: () => this.#dropAll() });
  }

  #change(change: Change): void {
    if (change.kind === 'token') {
      this.#generation += 1;
      for (const [publicId, entry] of this.#tokens) if (entry.token.id === change.id) this.#tokens.delete(publicId);
      this.#rateLimits.delete(change.id as number);
    } else if (change.kind === 'grants') {
      this.#generation += 1;
      this.#defaults = undefined;
    }
  }

  #dropAll(): void {
    this.#generation += 1;
    this.#tokens.clear();
    this.#rateLimits.clear();
    this.#defaults = undefined;
  }
}
