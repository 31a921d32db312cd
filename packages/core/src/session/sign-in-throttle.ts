import { sql, type Kysely } from 'kysely';
import { addressKey } from './address-key.js';
import { SIGN_IN_FAILURES_TABLE } from './session-tables.js';

/** How many failed sign-ins are allowed, per what, and over how long. */
export interface SignInThrottleOptions {
  readonly maxFailedSignInsPerAccount: number;
  readonly maxFailedSignInsPerAddress: number;
  /** Seconds over which failures count. */
  readonly signInWindow: number;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
}

/** How many attempts (per throttle) between two prunes of the finished windows. */
const PRUNE_EVERY = 100;

/** Who is signing in: the email typed and the client's address (`request.ip`). */
export interface SignInAttempt {
  readonly email: string;
  readonly address: string;
}

/** The verdict on an attempt: go ahead, or wait `retryAfter` seconds. */
export type SignInVerdict = { readonly allowed: true } | { readonly allowed: false; readonly retryAfter: number };

/**
 * Limits password guessing: failed sign-ins are counted per account (the email typed, known
 * or not) and per client address in `panel_sign_in_failures`, over a fixed window. The count is
 * taken before the password is checked, in one atomic statement, so a burst of parallel
 * guesses cannot slip past it; a success forgives the attempt. Kept in the database, so every
 * instance of the app shares the counts.
 *
 * @example
 * const verdict = await panel.sessions.throttle.attempt({ email, address: request.ip });
 * if (!verdict.allowed) return reply.code(429).header('retry-after', verdict.retryAfter).send();
 * if (await checkPassword()) await panel.sessions.throttle.succeeded({ email, address: request.ip });
 */
export class SignInThrottle {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly #db: Kysely<any>;
  readonly #options: SignInThrottleOptions;
  #attempts = 0;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  constructor(db: Kysely<any>, options: SignInThrottleOptions) {
    this.#db = db;
    this.#options = options;
  }

  /**
   * Counts an attempt against its address, then its account, and says whether it may proceed:
   * not when either key already counts its maximum of failures in the current window. An
   * address over its limit is refused before its account is counted, so one client cannot fill
   * the table with made-up emails. Every hundredth attempt also prunes the finished windows.
   */
  async attempt(attempt: SignInAttempt): Promise<SignInVerdict> {
    const now = this.#options.now();
    const windowMs = this.#options.signInWindow * 1000;
    this.#attempts = (this.#attempts + 1) % PRUNE_EVERY;
    if (this.#attempts === 0) await this.prune();
    const [account, address] = this.#keys(attempt);
    let retryAfter = 0;
    for (const [key, max] of [address, account]) {
      const row = await this.#count(key, now, windowMs);
      if (row.failures > max) retryAfter = Math.max(retryAfter, Math.ceil((row.windowStartedAt + windowMs - now) / 1000));
      if (retryAfter > 0) break;
    }
    return retryAfter > 0 ? { allowed: false, retryAfter } : { allowed: true };
  }

  /** Forgives a successful attempt: the account starts afresh; the address gives back this one attempt. */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    const [[account], [address]] = this.#keys(attempt);
    await this.#db.deleteFrom(SIGN_IN_FAILURES_TABLE).where('key', '=', account).execute();
    await this.#db.updateTable(SIGN_IN_FAILURES_TABLE).set({ failures: sql`greatest(failures - 1, 0)` }).where('key', '=', address).execute();
  }

  #keys({ email, address }: SignInAttempt): [[string, number], [string, number]] {
    return [
      [`account:${email.trim().toLowerCase().slice(0, 320)}`, this.#options.maxFailedSignInsPerAccount],
      [`address:${addressKey(address)}`, this.#options.maxFailedSignInsPerAddress],
    ];
  }

  /** Adds one to a key's count, starting a new window when the last one is over; returns the row. */
  async #count(key: string, now: number, windowMs: number): Promise<{ failures: number; windowStartedAt: number }> {
    const table = sql.table(SIGN_IN_FAILURES_TABLE);
    const expired = sql<boolean>`${table}.window_started_at_ms <= ${now - windowMs}`;
    const row = await this.#db
      .insertInto(SIGN_IN_FAILURES_TABLE)
      .values({ key, failures: 1, window_started_at_ms: now })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          failures: sql`case when ${expired} then 1 else ${table}.failures + 1 end`,
          window_started_at_ms: sql`case when ${expired} then ${now} else ${table}.window_started_at_ms end`,
        }),
      )
      .returning(['failures', 'window_started_at_ms'])
      .executeTakeFirstOrThrow();
    return { failures: Number(row.failures), windowStartedAt: Number(row.window_started_at_ms) };
  }

  /** Deletes the rows whose window is over (run it now and then; sign-ins never need it). */
  async prune(): Promise<number> {
    const result = await this.#db.deleteFrom(SIGN_IN_FAILURES_TABLE).where('window_started_at_ms', '<=', this.#options.now() - this.#options.signInWindow * 1000).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
