import { sql, type Kysely } from 'kysely';
import { addressKey } from './address-key.js';
import { SIGN_IN_FAILURES_TABLE } from './session-tables.js';

/** How many failed sign-ins are allowed, per what, and over how long. */
export interface SignInThrottleOptions {
  /** Failed sign-ins one client may make for one account before each further attempt waits (`SIGN_IN_BACKOFF_SECONDS`, doubling). */
  readonly maxFailedSignInsPerAccount: number;
  /** Failed sign-ins one client address may make within `signInWindow`, whatever the accounts. */
  readonly maxFailedSignInsPerAddress: number;
  /**
   * Failed sign-ins to one account from new clients (every address together that has not signed
   * in to it within `SIGN_IN_KNOWN_CLIENT_SECONDS`) before each further attempt from a new client
   * waits, with the same doubling wait up to half of `signInWindow`. Default 20.
   */
  readonly maxFailedSignInsPerAccountFromNewClients?: number;
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

/** Seconds a client address stays known to an account after it signed in to it: 30 days. */
export const SIGN_IN_KNOWN_CLIENT_SECONDS = 30 * 24 * 60 * 60;

/** The default of `maxFailedSignInsPerAccountFromNewClients`. */
const DEFAULT_MAX_FROM_NEW_CLIENTS = 20;

/** How many attempts (per throttle) between two prunes of the finished windows. */
const PRUNE_EVERY = 100;

/** The keys of the rows that record a client known to an account (kept longer than a window). */
const KNOWN_PREFIX = 'known:';
/** The keys of the rows that count an account's failures from every new client. */
const NEW_CLIENTS_PREFIX = 'new-clients:';

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
 * cannot spray guesses over many accounts either. The account as a whole is bounded too: the
 * failures from every **new** client together (an address that has not signed in to the account
 * within `SIGN_IN_KNOWN_CLIENT_SECONDS`) get `maxFailedSignInsPerAccountFromNewClients` free
 * attempts, then the same doubling wait up to half of `signInWindow`, so a guesser with many
 * addresses gets few more guesses than one; a client the account signed in from is not held by
 * it, so the bound cannot keep the user out, and a new client waits at most half a window once
 * the guessing stops. Each count is taken before the password is
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
   * then (from a new client) against the account from every new client, and says whether it may
   * proceed: not when the address already counts its maximum of failures in the current window,
   * nor while the account's wait from this client, or from new clients, runs. An
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
    const refused = (waitUntil: number): SignInVerdict => ({ allowed: false, retryAfter: Math.max(1, Math.ceil((waitUntil - now) / 1000)) });
    const clientWait = await this.#countWithBackoff(account, now, windowMs, this.#options.maxFailedSignInsPerAccount);
    if (clientWait !== undefined) return refused(clientWait);
    if (await this.#isKnown(attempt, now)) return { allowed: true };
    const maxFromNewClients = this.#options.maxFailedSignInsPerAccountFromNewClients ?? DEFAULT_MAX_FROM_NEW_CLIENTS;
    // Waits at most half a window: a guesser waiting out each wait never lets a whole window go quiet, so never starts afresh.
    const accountWait = await this.#countWithBackoff(this.#keys(attempt).newClients, now, windowMs, maxFromNewClients, windowMs / 2);
    return accountWait === undefined ? { allowed: true } : refused(accountWait);
  }

  /**
   * Forgives a successful attempt: the account starts afresh from this client, which becomes
   * known to the account (for `SIGN_IN_KNOWN_CLIENT_SECONDS` from now); the address gives back
   * this one attempt, and so does the account's count from new clients when this client was new.
   * That count is not cleared: the user no longer needs it, and clearing it would give a guesser
   * fresh attempts at each of her sign-ins.
   */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    const { account, address, newClients, known } = this.#keys(attempt);
    const now = this.#options.now();
    const giveBack = (key: string) => this.#db.updateTable(SIGN_IN_FAILURES_TABLE).set({ failures: sql`greatest(failures - 1, 0)` }).where('key', '=', key).execute();
    if (!(await this.#isKnown(attempt, now))) await giveBack(newClients);
    await this.#db.deleteFrom(SIGN_IN_FAILURES_TABLE).where('key', '=', account).execute();
    await giveBack(address);
    await this.#db
      .insertInto(SIGN_IN_FAILURES_TABLE)
      .values({ key: known, failures: 0, window_started_at_ms: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ window_started_at_ms: now }))
      .execute();
  }

  /** Whether this client address signed in to this account within `SIGN_IN_KNOWN_CLIENT_SECONDS`. */
  async #isKnown(attempt: SignInAttempt, now: number): Promise<boolean> {
    const row = await this.#db
      .selectFrom(SIGN_IN_FAILURES_TABLE)
      .select('key')
      .where('key', '=', this.#keys(attempt).known)
      .where('window_started_at_ms', '>', now - SIGN_IN_KNOWN_CLIENT_SECONDS * 1000)
      .executeTakeFirst();
    return row !== undefined;
  }

  #keys({ email, address }: SignInAttempt): { account: string; address: string; newClients: string; known: string } {
    const client = addressKey(address);
    const who = email.trim().toLowerCase().slice(0, 320);
    return { account: `account:${who}|${client}`, address: `address:${client}`, newClients: `${NEW_CLIENTS_PREFIX}${who}`, known: `${KNOWN_PREFIX}${who}|${client}` };
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
   * Counts an attempt on a key (an account from one client, or from every new client) whose
   * `window_started_at_ms` is the time of its last counted attempt: free while under `max`, then
   * allowed only once the wait since the last one is over (`SIGN_IN_BACKOFF_SECONDS` ·
   * 2^(failures − max), at most `capMs`, the window unless said), afresh after a quiet window.
   * The row changes only when the attempt is allowed, in
   * one statement (`on conflict … do update … where`), so parallel guesses cannot share a slot.
   * Returns undefined when allowed, else the time the wait ends.
   */
  async #countWithBackoff(key: string, now: number, windowMs: number, max: number, capMs = windowMs): Promise<number | undefined> {
    const table = sql.table(SIGN_IN_FAILURES_TABLE);
    const backoffMs = SIGN_IN_BACKOFF_SECONDS * 1000;
    const quiet = sql<boolean>`${table}.window_started_at_ms <= ${now - windowMs}`;
    const waitEnds = sql<number>`${table}.window_started_at_ms + least(${capMs}::float8, ${backoffMs}::float8 * power(2::float8, (${table}.failures - ${max})::float8))`;
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
    return Number(row.window_started_at_ms) + Math.min(capMs, backoffMs * 2 ** (Number(row.failures) - max));
  }

  /** Deletes the rows whose window is over, and the known clients older than `SIGN_IN_KNOWN_CLIENT_SECONDS` (run it now and then; sign-ins never need it). */
  async prune(): Promise<number> {
    const now = this.#options.now();
    const result = await this.#db
      .deleteFrom(SIGN_IN_FAILURES_TABLE)
      .where('window_started_at_ms', '<=', now - this.#options.signInWindow * 1000)
      .where((eb) => eb.or([eb('key', 'not like', `${KNOWN_PREFIX}%`), eb('window_started_at_ms', '<=', now - SIGN_IN_KNOWN_CLIENT_SECONDS * 1000)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
