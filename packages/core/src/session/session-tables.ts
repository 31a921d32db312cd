/**
 * The table of session generations: one row per user who was ever signed out everywhere
 * (or changed their password). A session sealed with an older generation than the row's is refused; a user
 * without a row is at generation 0.
 */
export const SESSION_GENERATIONS_TABLE = 'panel_session_generations';

/**
 * The table of failed sign-ins: one row per throttled key (`account:<email>` or
 * `address:<ip>`), with the count and when its window began.
 */
export const SIGN_IN_FAILURES_TABLE = 'panel_sign_in_failures';

/**
 * The table of signed-out sessions: one row per session id, kept until the session's
 * lifetime would have ended it anyway.
 */
export const REVOKED_SESSIONS_TABLE = 'panel_revoked_sessions';
