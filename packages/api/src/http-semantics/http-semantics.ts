import type { IdempotencyKeys } from './idempotency-keys.js';
import type { ApiRateLimit } from './rate-limit.js';

/** What one mount decided about HTTP semantics (`mountPanelApi` options); the rate-limit and preconditions stages apply it. */
export interface HttpSemantics {
  /** An update or delete without `If-Match` is a 428 (the mount's `requireIfMatch`). */
  readonly requireIfMatch: boolean;
  readonly idempotencyKeys: IdempotencyKeys;
  /** Undefined when the mount turned limits off. */
  readonly rateLimit: ApiRateLimit | undefined;
  /** An extension's own limit for a credential it verified (Edition B: a token's requests per window), when it has one. */
  readonly credentialLimit?: ((credentialId: number) => Promise<number | null>) | undefined;
}
