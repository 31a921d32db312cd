import type { ApiTokenService, AuthenticatedToken, GrantVerb, PanelApiTokensConfig } from '@panel/api-tokens';
import type { Panel } from '@panel/core';
import { loadTokensModule } from './tokens-module.js';

/** What an actor may do, by (route key, verb): a token's grants, or the default permissions list. */
export interface GrantSet {
  allows(resource: string, verb: GrantVerb): boolean;
}

/** How long a token's own rate limit is kept in memory before it is read again (another process may have changed it). */
export const DEFAULT_GRANTS_TTL_MILLIS = 2_000;

/**
 * Edition B as one mount sees it: the configuration, the token service over the panel's
 * database (with its cache of verified tokens and of the default permissions list), and the key signed file URLs are made
 * with. `mountPanelApi({ tokens })` creates it; without `tokens` there is none and the API is
 * Edition A.
 */
export interface EditionB {
  readonly config: PanelApiTokensConfig;
  readonly tokens: ApiTokenService;
  /** The default permissions list, which governs the code-hook path (reads only). */
  defaultGrants(): Promise<GrantSet>;
  /** The key of signed file URLs (derived from the pepper; throws when none is set). */
  signingKey(): Buffer;
  /** `path` as a signed URL for the blob `blobKey` named `filename`, expiring after `signedUrlTtlSeconds`. */
  signFileUrl(path: string, blobKey: string, filename: string, now: Date): string;
  /** The blob key sealed (encrypted) for a signed URL's path, so that the URL does not disclose the permanent one. */
  sealBlobKey(blobKey: string): string;
  /** A token's own rate limit (requests per window), or null; read again after two seconds, at once after a change in this process. */
  tokenRateLimit(id: number): Promise<number | null>;
}

/** A token's grants as a grant set. */
export function tokenGrants(token: AuthenticatedToken): GrantSet {
  return { allows: (resource, verb) => token.allows(resource, verb) };
}

/**
 * Sets Edition B up for a panel, loading `@panel/api-tokens` (an optional peer dependency that
 * only Edition B needs). A missing pepper does not stop the boot (the spec: token creation and
 * authentication raise until it is set), but the server says so at once.
 */
export async function createEditionB(panel: Panel, config: PanelApiTokensConfig, warn: (message: string) => void): Promise<EditionB> {
  const { ApiTokenService: TokenService, pepperProblem, sealBlobKey, signingKey, signFile, signedUrl } = await loadTokensModule();
  class EditionBTokenService extends TokenService {
    onRateLimitChanged: (id: number) => void = () => {};
    override async setRateLimit(id: number, maxRequests: number | null) {
      await super.setRateLimit(id, maxRequests);
      this.onRateLimitChanged(id);
    }
  }
  // The token cache: a repeated token, and the default permissions list, cost no statement; every
  // process drops what a change makes stale within its bound (docs/edition-b-tokens.md#the-token-cache).
  const tokens = new EditionBTokenService({ database: panel.database, pepper: config.pepper, resources: [...panel.resources.values()].map((r) => r.naming.routeKey), cache: true });
  const problem = pepperProblem(config.pepper);
  if (problem) warn(`Panel API Edition B: ${problem}`);
  let signing: { pepper: string; key: Buffer } | undefined;
  const limits = new Map<number, { max: number | null; at: number }>();
  tokens.onRateLimitChanged = (id) => limits.delete(id);
  const edition: EditionB = {
    config,
    tokens,
    defaultGrants() {
      return tokens.defaultGrants();
    },
    async tokenRateLimit(id) {
      const known = limits.get(id);
      if (known && Date.now() - known.at < DEFAULT_GRANTS_TTL_MILLIS) return known.max;
      const max = await tokens.rateLimit(id);
      if (limits.size > 10_000) limits.clear();
      limits.set(id, { max, at: Date.now() });
      return max;
    },
    signingKey() {
      // Derived once per pepper, not once per file URL; a pepper read from a function may change.
      const pepper = tokens.pepper();
      if (signing?.pepper !== pepper) signing = { pepper, key: signingKey(pepper) };
      return signing.key;
    },
    signFileUrl(path, blobKey, filename, now) {
      return signedUrl(path, signFile(edition.signingKey(), blobKey, filename, config.signedUrlTtlSeconds, now));
    },
    sealBlobKey(blobKey) {
      return sealBlobKey(edition.signingKey(), blobKey);
    },
  };
  return edition;
}
