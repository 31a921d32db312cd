/** A mistake a token command explains in one line on standard error (exit 1): a bad flag, no database, a missing package. */
export class TokenCommandError extends Error {}
