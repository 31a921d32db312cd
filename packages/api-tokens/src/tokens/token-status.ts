/** A token's status as the spec names it. Only an `Active` token authenticates. */
export type TokenStatus = 'Active' | 'Disabled' | 'Expired' | 'Revoked';

/** The status column's values; `Expired` is not stored, it follows from `expires_at`. */
export type StoredTokenStatus = 'active' | 'disabled' | 'revoked';

/**
 * The status a token has at `now`: revoked wins (permanent), then expired (enabling would not
 * help), then disabled, else active.
 */
export function tokenStatus(stored: StoredTokenStatus, expiresAt: Date | null, now: Date): TokenStatus {
  if (stored === 'revoked') return 'Revoked';
  if (expiresAt !== null && expiresAt.getTime() <= now.getTime()) return 'Expired';
  return stored === 'disabled' ? 'Disabled' : 'Active';
}
