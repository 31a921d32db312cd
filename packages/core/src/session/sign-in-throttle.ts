import { sql, type Kysely } from 'kysely';
import { addressKey } from './address-key.js';
import { SIGN_IN_FAILURES_TABLE } from './session-tables.js';

/** How many failed sign-ins are allowed, per what, and over how long. */
export interface SignInThrottleOptions {
  /** Failed sign-ins one client may make for one account before each further attempt waits (`SIGN_IN_BACKOFF_SECONDS`, doubling). */
  readonly maxFailedSignInsPerAccount: number;
  /** Failed sign-ins one client address may make within `signInWindow`, whatever the accounts. */
  readonly maxFailedSignInsPerAddress: number;
  /** Seconds over which failures count; an account and client quiet this long start afresh. */
  readonly signInWindow: number;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
}

/**
 * Seconds of the first wait once an account's free attempts from one client are spent; each
 * later failure doubles it (30 s, 1 min, 2 min, 4 min, 8 min), at most `signInWindow`.
 */
export const SIGN_IN_BACKOFF_SECONDS = 30;

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
 * Limits password guessing without letting a stranger lock a user out (OWASP's advice on
 * account lockout): failed sign-ins are counted per account **and client** (the email typed,
 * known or not, with the client's address), and per client address, in
 * `panel_sign_in_failures`. A client that spends an account's free attempts waits before each
 * further one, a wait that doubles with each failure (`SIGN_IN_BACKOFF_SECONDS`, up to
 * `signInWindow`);
 * the same account from another client is not slowed. A client address over its ceiling
 * (`maxFailedSignInsPerAddress` in a window) is refused whatever the account, so one client
 * cannot spray guesses over many accounts either. Each count is taken before the password is
 * checked, in one atomic statement, so a burst of parallel guesses cannot slip past it; a
 * success forgives the attempt. Kept in the database, so every instance of the app shares them.
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
   * Counts an attempt against its client address, then against its account from that client,
   * and says whether it may proceed: not when the address already counts its maximum of
   * failures in the current window, nor while the account's wait from this client runs. An
   * address over its limit is refused before its account is counted, so one client cannot fill
   * the table with made-up emails. Every hundredth attempt also prunes the finished windows.
   */
  async attempt(attempt: SignInAttempt): Promise<SignInVerdict> {
    const now = this.#options.now();
    const windowMs = this.#options.signInWindow * 1000;
    this.#attempts = (this.#attempts + 1) % PRUNE_EVERY;
    if (this.#attempts === 0) await this.prune();
    const { account, address } = this.#keys(attempt);
    const counted = await this.#count(address, now, windowMs);
    if (counted.failures > this.#options.maxFailedSignInsPerAddress) return { allowed: false, retryAfter: Math.ceil((counted.windowStartedAt + windowMs - now) / 1000) };
    const waitUntil = await this.#countWithBackoff(account, now, windowMs);
    return waitUntil === undefined ? { allowed: true } : { allowed: false, retryAfter: Math.max(1, Math.ceil((waitUntil - now) / 1000)) };
  }

  /** Forgives a successful attempt: the account starts afresh from this client; the address gives back this one attempt. */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    const { account, address } = this.#keys(attempt);
    await this.#db.deleteFrom(SIGN_IN_FAILURES_TABLE).where('key', '=', account).execute();
    await this.#db.updateTable(SIGN_IN_FAILURES_TABLE).set({ failures: sql`greatest(failures - 1, 0)` }).where('key', '=', address).execute();
  }

  #keys({ email, address }: SignInAttempt): { account: string; address: string } {
    const client = addressKey(address);
    return { account: `account:${email.trim().toLowerCase().slice(0, 320)}|${client}`, address: `address:${client}` };
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

  /**
   * Counts an attempt on an account-and-client key whose `window_started_at_ms` is the time of
   * its last counted attempt: free while under `maxFailedSignInsPerAccount`, then allowed only
   * once the wait since the last one is over (`SIGN_IN_BACKOFF_SECONDS` · 2^(failures − max), at most the
   * window), afresh after a quiet window. The row changes only when the attempt is allowed, in
   * one statement (`on conflict … do update … where`), so parallel guesses cannot share a slot.
   * Returns undefined when allowed, else the time the wait ends.
   */
  async #countWithBackoff(key: string, now: number, windowMs: number): Promise<number | undefined> {
    const table = sql.table(SIGN_IN_FAILURES_TABLE);
    const max = this.#options.maxFailedSignInsPerAccount;
    const backoffMs = SIGN_IN_BACKOFF_SECONDS * 1000;
    const quiet = sql<boolean>`${table}.window_started_at_ms <= ${now - windowMs}`;
    const waitEnds = sql<number>`${table}.window_started_at_ms + least(${windowMs}::float8, ${backoffMs}::float8 * power(2::float8, (${table}.failures - ${max})::float8))`;
    const counted = await this.#db
      .insertInto(SIGN_IN_FAILURES_TABLE)
      .values({ key, failures: 1, window_started_at_ms: now })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({ failures: sql`case when ${quiet} then 1 else ${table}.failures + 1 end`, window_started_at_ms: now })
          .where(sql<boolean>`${quiet} or ${table}.failures < ${max} or ${waitEnds} <= ${now}`),
      )
      .returning(['failures'])
      .executeTakeFirst();
    if (counted) return undefined;
    const row = await this.#db.selectFrom(SIGN_IN_FAILURES_TABLE).select(['failures', 'window_started_at_ms']).where('key', '=', key).executeTakeFirst();
    if (!row) return now + backoffMs;
    return Number(row.window_started_at_ms) + Math.min(windowMs, backoffMs * 2 ** (Number(row.failures) - max));
  }

  /** Deletes the rows whose window is over (run it now and then; sign-ins never need it). */
  async prune(): Promise<number> {
    const result = await this.#db.deleteFrom(SIGN_IN_FAILURES_TABLE).where('window_started_at_ms', '<=', this.#options.now() - this.#options.signInWindow * 1000).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
