import type { PanelDatabase } from '@panel/core';
import type { TokenPepperSource } from '../pepper/token-pepper.js';
import type { Grant, GrantVerb } from '../grants/grant-verbs.js';
import type { GrantInput } from '../grants/grant-list.js';
import type { TokenStatus } from './token-status.js';

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

/** The default permissions list as the code-hook path asks it: its grants, and whether it holds one. */
export interface DefaultGrants {
  /** Sorted by `<route_key>:<verb>`; reads only (`index`, `show`). */
  readonly grants: readonly Grant[];
  /** Whether the list grants `verb` on `resource` (a route key). */
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

/**
 * The in-process cache of verified tokens (`ApiTokenServiceOptions.cache`). A change made
 * through the service reaches every process's cache through the database's change channel
 * (`LISTEN/NOTIFY` on `panel_changes`); `maxAgeMillis` bounds everything else.
 */
export interface TokenCacheOptions {
  /** How many tokens are kept; the one verified longest ago is dropped first. Default 10 000. */
  readonly maxEntries?: number;
  /**
   * How long a verified token answers from memory before it is read again, in milliseconds:
   * the bound of a change that no notification announced (SQL run outside the service, a
   * notification lost with a connection that died silently). Default 1000.
   */
  readonly maxAgeMillis?: number;
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
  /**
   * Keep verified tokens and the default permissions list in memory, so that a repeated token
   * costs no statement (`true` for the defaults). Off by default: a script that revokes a token
   * needs neither the cache nor the listening connection it holds. Edition B's mount turns it
   * on. Needs the database's change channel (`openDatabase` makes one); without it nothing is
   * cached. See docs/edition-b-tokens.md#the-token-cache.
   */
  readonly cache?: boolean | TokenCacheOptions | undefined;
}
