import { randomBytes } from 'node:crypto';
import { secretsEqual } from '@panel/core';

interface PendingReveal {
  readonly secret: string;
  /** The CSRF token of the session that created the token: only that browser session may see it. */
  readonly sessionKey: string;
  readonly expiresAt: number;
}

/**
 * The secrets of just-created tokens, waiting for their one-time reveal screen. They live only
 * in this process's memory, for `ttlMillis` at most, and are deleted the first time their
 * reveal screen is asked for — shown or not. Nothing is written to the session, a cookie or the
 * database; the database keeps only the token's digest.
 */
export class RevealStore {
  readonly #pending = new Map<number, PendingReveal>();
  readonly #ttlMillis: number;
  readonly #now: () => number;

  constructor(ttlMillis = 5 * 60_000, now: () => number = Date.now) {
    this.#ttlMillis = ttlMillis;
    this.#now = now;
  }

  /** Keeps a new token's secret for the session that created it. */
  hold(tokenId: number, secret: string, sessionKey: string): void {
    this.#sweep();
    this.#pending.set(tokenId, { secret, sessionKey, expiresAt: this.#now() + this.#ttlMillis });
  }

  /**
   * The secret, once, to the session that created the token: the first look from that session
   * deletes it. Another session gets undefined and leaves it in place (it cannot use up the
   * creator's reveal); so does everyone after its time, when it is deleted too.
   */
  take(tokenId: number, sessionKey: string): string | undefined {
    const pending = this.#pending.get(tokenId);
    if (!pending) return undefined;
    if (pending.expiresAt <= this.#now()) {
      this.#pending.delete(tokenId);
      return undefined;
    }
    // The session key is compared in constant time, like every secret; an empty one never matches.
    if (!secretsEqual(sessionKey || randomBytes(16).toString('hex'), pending.sessionKey)) return undefined;
    this.#pending.delete(tokenId);
    return pending.secret;
  }

  /** How many secrets wait (for tests and metrics). */
  get size(): number {
    this.#sweep();
    return this.#pending.size;
  }

  #sweep(): void {
    const now = this.#now();
    for (const [id, pending] of this.#pending) if (pending.expiresAt <= now) this.#pending.delete(id);
  }
}
