import { sql, type Kysely } from 'kysely';
import type { PanelDatabase } from '../database/panel-database.js';
import { PanelConfigError } from '../errors/panel-errors.js';
import { createSessionCodec, newCsrfToken, type OpenedSession, type SessionCodec, type SessionData, type SessionStamps } from './session-codec.js';
import type { SessionOptions } from './session-options.js';
import { SessionRevocations, type SessionUserId } from './session-revocations.js';
import { REVOKED_SESSIONS_TABLE, SESSION_GENERATIONS_TABLE, SIGN_IN_FAILURES_TABLE } from './session-tables.js';
import { SignInThrottle } from './sign-in-throttle.js';

/** A cookie older than this (seconds since its last sealing) is sealed again on use, to keep it from going idle. */
const REFRESH_AFTER = 60;

const userIdOf = (data: SessionData): SessionUserId | undefined =>
  (typeof data.userId === 'number' && Number.isFinite(data.userId)) || (typeof data.userId === 'string' && data.userId !== '') ? data.userId : undefined;

/**
 * The panel's sessions: the sealed cookie (lifetime, idle timeout, rotation by a list of
 * secrets), the per-user generation that revokes every copy of a session server-side, the
 * password confirmation of sudo mode, and the sign-in throttle. `panel.sessions` is one of
 * these when `sessionSecret` is set. The user of a session is its `userId` (number or string).
 */
export class PanelSessions implements SessionCodec {
  /** The validated session options (lifetimes in seconds, the clock). */
  readonly options: SessionOptions;
  /** The failed sign-in counts, per account and per client address. */
  readonly throttle: SignInThrottle;
  /** The per-user generations and signed-out session ids behind `revoke` and `revokeAll`. */
  readonly revocations: SessionRevocations;
  readonly #codec: SessionCodec;

  constructor(database: PanelDatabase, secrets: string | readonly string[], options: SessionOptions) {
    this.options = options;
    this.#codec = createSessionCodec(secrets, options);
    // On the primary: a revocation or a failed sign-in counts at once, whatever a replica's lag.
    this.revocations = new SessionRevocations(database.primary ?? database.db, options.now);
    this.throttle = new SignInThrottle(database.primary ?? database.db, options);
  }

  /**
   * At startup: checks that the session tables exist, so that a missing migration fails there
   * with the fix, not at the first sign-in.
   */
  static async checkTables(database: PanelDatabase): Promise<void> {
    const tables = [SESSION_GENERATIONS_TABLE, REVOKED_SESSIONS_TABLE, SIGN_IN_FAILURES_TABLE];
    const { rows } = await sql<{ missing: number }>`select count(*)::int as missing from unnest(${tables}::text[]) as t(name) where to_regclass(t.name) is null`.execute(database.db);
    if (rows[0]?.missing === 0) return;
    throw new PanelConfigError(
      `createPanel: sessionSecret is set, but the session tables (${tables.join(', ')}) do not exist. Fix: await runPanelMigrations(database) before createPanel().`,
    );
  }

  /** Now, in Unix seconds, by the panel's clock. */
  nowSeconds(): number {
    return Math.floor(this.options.now() / 1000);
  }

  seal(data: SessionData, stamps?: Partial<SessionStamps>): string {
    return this.#codec.seal(data, stamps);
  }

  open(value: string | undefined): SessionData | null {
    return this.#codec.open(value);
  }

  read(value: string | undefined): OpenedSession | null {
    return this.#codec.read(value);
  }

  /**
   * Begins a session for a user who just proved their password: a fresh CSRF token, the user's
   * current generation, and the confirmation time (signing in counts as confirming).
   */
  async start(userId: SessionUserId, data: SessionData = {}): Promise<string> {
    const generation = await this.revocations.generation(userId);
    return this.#codec.seal({ ...data, userId, csrfToken: newCsrfToken() }, { generation, confirmedAt: this.nowSeconds() });
  }

  /**
   * Opens a cookie and checks it server-side: refused when the cookie is refused, when it was
   * signed out, or when its user's generation was raised since it was sealed. One statement
   * (two primary-key probes), only for a session that names a user.
   */
  async verify(value: string | undefined): Promise<OpenedSession | null> {
    const session = this.#codec.read(value);
    if (!session) return null;
    const userId = userIdOf(session.data);
    if (userId === undefined) return session;
    return (await this.revocations.holds(userId, session.generation, session.sessionId)) ? session : null;
  }

  /** Whether `session` should be sealed again now: sealed with an older secret, or its activity stamp is over a minute old. */
  needsRefresh(session: OpenedSession): boolean {
    return session.sealedWithOlderSecret || this.nowSeconds() - session.seenAt >= REFRESH_AFTER;
  }

  /** The session sealed again with the first secret and activity now, keeping its sign-in time; `changes` merge into its data. */
  reseal(session: OpenedSession, changes: { data?: SessionData; confirmedAt?: number } = {}): string {
    return this.#codec.seal(
      { ...session.data, ...changes.data },
      { sessionId: session.sessionId, issuedAt: session.issuedAt, generation: session.generation, confirmedAt: changes.confirmedAt ?? session.confirmedAt },
    );
  }

  /** The session sealed again with the password confirmed now (sudo mode begins). */
  confirm(session: OpenedSession): string {
    return this.reseal(session, { confirmedAt: this.nowSeconds() });
  }

  /** Whether the user typed their password within the last `confirmWindow` seconds. */
  isRecentlyConfirmed(session: OpenedSession | null): boolean {
    if (!session || session.confirmedAt === null) return false;
    const age = this.nowSeconds() - session.confirmedAt;
    return age >= 0 && age < this.options.confirmWindow;
  }

  /** Signs one session out: every copy of its cookie is refused from now on (the user's other sessions hold). */
  async revoke(session: OpenedSession): Promise<void> {
    await this.revocations.revokeSession(session.sessionId, (session.issuedAt + this.options.lifetime) * 1000);
  }

  /**
   * Ends every session of a user, everywhere: each copy of every cookie sealed before is
   * refused from now on. A password change and "sign out everywhere" call it; `db` is the
   * caller's transaction when there is one. Returns the user's new generation.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async revokeAll(userId: SessionUserId, db?: Kysely<any>): Promise<number> {
    return this.revocations.raiseGeneration(userId, db);
  }

  /**
   * The session sealed again under the user's generation `generation` (after `revokeAll`), so
   * the session that changed its own password holds while every other one ends.
   */
  renew(session: OpenedSession, generation: number): string {
    return this.#codec.seal(session.data, { sessionId: session.sessionId, issuedAt: session.issuedAt, generation, confirmedAt: session.confirmedAt });
  }
}
