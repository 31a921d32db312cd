/**
 * What a 503 was about, for its log line: the rate limit's store, the storage, else the database.
 *
 * @example
 * unavailableService(new RateLimitUnavailableError('…')) // "the rate limit's store"
 */
export function unavailableService(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'PANEL_API_ERR_RATE_LIMIT_UNAVAILABLE') return "the rate limit's store";
  if (code === 'PANEL_ERR_STORAGE') return 'the storage';
  return 'the database';
}
