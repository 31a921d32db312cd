import type { Panel } from '@panel/core';
import { ApiTokenService } from '../tokens/token-service.js';
import type { AuthenticatedToken } from '../tokens/token-service.js';
import type { GrantVerb } from '../grants/grant-verbs.js';
import type { PanelApiTokensConfig } from '../config/panel-api-tokens-config.js';
import { pepperProblem } from '../pepper/token-pepper.js';
import { openBlobKey, sealBlobKey } from '../signed-urls/sealed-blob-key.js';
import { signFile, signedUrl, signingKey } from '../signed-urls/signed-file-url.js';

/** What an actor may do, by (route key, verb): a token's grants, or the default permissions list. */
export interface GrantSet {
  allows(resource: string, verb: GrantVerb): boolean;
}

/**
 * Edition B as one mount sees it: the configuration, the token service over the panel's
 * database (with its cache of verified tokens, their rate limits and the default permissions
 * list), and the key signed file URLs are made with. `mountPanelApi({ extensions: [configurePanelApi()] })`
 * creates it; without that extension there is none and the API is Edition A.
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
  /** The blob key a sealed one holds, or undefined when it is not one this key sealed. */
  openBlobKey(sealed: string): string | undefined;
  /** A token's own rate limit (requests per window), or null; kept in the token cache until any process changes it. */
  tokenRateLimit(id: number): Promise<number | null>;
}

/** A token's grants as a grant set. */
export function tokenGrants(token: AuthenticatedToken): GrantSet {
  return { allows: (resource, verb) => token.allows(resource, verb) };
}

/**
 * Sets Edition B up for a panel. A missing pepper does not stop the boot (the spec: token creation and
 * authentication raise until it is set), but the server says so at once.
 */
export function createEditionB(panel: Panel, config: PanelApiTokensConfig, warn: (message: string) => void): EditionB {
  // The token cache: a repeated token (its grants and rate limit) and the default permissions list
  // cost no statement; every process drops what a change makes stale within its bound
  // (docs/edition-b-tokens.md#the-token-cache).
  const tokens = new ApiTokenService({ database: panel.database, pepper: config.pepper, resources: [...panel.resources.values()].map((r) => r.naming.routeKey), cache: true });
  const problem = pepperProblem(config.pepper);
  if (problem) warn(`Panel API Edition B: ${problem}`);
  let signing: { pepper: string; key: Buffer } | undefined;
  const edition: EditionB = {
    config,
    tokens,
    defaultGrants() {
      return tokens.defaultGrants();
    },
    tokenRateLimit(id) {
      return tokens.rateLimit(id);
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
    openBlobKey(sealed) {
      return openBlobKey(edition.signingKey(), sealed);
    },
  };
  return edition;
}
