import { sql, type Kysely } from 'kysely';
import { REVOKED_SESSIONS_TABLE, SESSION_GENERATIONS_TABLE } from './session-tables.js';

/** A user id as the session keeps it: a number or a string (uuid). */
export type SessionUserId = number | string;

/**
 * What the server remembers against stolen session cookies. Per user, a generation
 * (`panel_session_generations`): a session records the generation of its sign-in, and raising
 * it (a password change, "sign out everywhere") refuses every session sealed before, on every
 * device. Per session, a revoked id (`panel_revoked_sessions`) until the session would have
 * expired anyway: signing out refuses every copy of that one cookie.
 */
export class SessionRevocations {
  // The panel's tables are not described by a static schema type.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly #db: Kysely<any>;
  readonly #now: () => number;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  constructor(db: Kysely<any>, now: () => number) {
    this.#db = db;
    this.#now = now;
  }

  /** The user's current generation (0 when it was never raised): one primary-key lookup. */
  async generation(userId: SessionUserId): Promise<number> {
    const row = await this.#db.selectFrom(SESSION_GENERATIONS_TABLE).select('generation').where('user_key', '=', String(userId)).executeTakeFirst();
    return row ? Number(row.generation) : 0;
  }

  /**
   * Whether a session still holds: its generation is the user's current one and its id was not
   * signed out. One statement, two primary-key probes.
   */
  async holds(userId: SessionUserId, generation: number, sessionId: string): Promise<boolean> {
    const { rows } = await sql<{ generation: number | string; revoked: boolean }>`select
        coalesce((select generation from ${sql.table(SESSION_GENERATIONS_TABLE)} where user_key = ${String(userId)}), 0) as generation,
        exists (select 1 from ${sql.table(REVOKED_SESSIONS_TABLE)} where session_id = ${sessionId}) as revoked`.execute(this.#db);
    const row = rows[0];
    return row !== undefined && Number(row.generation) === generation && row.revoked !== true;
  }

  /**
   * Raises the user's generation, refusing every session sealed before; returns the new one.
   * `db` is a transaction of the caller's (a write that changes the password), else the panel's.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async raiseGeneration(userId: SessionUserId, db: Kysely<any> = this.#db): Promise<number> {
    const row = await db
      .insertInto(SESSION_GENERATIONS_TABLE)
      .values({ user_key: String(userId), generation: 1, updated_at_ms: this.#now() })
      .onConflict((oc) => oc.column('user_key').doUpdateSet({ generation: sql`${sql.table(SESSION_GENERATIONS_TABLE)}.generation + 1`, updated_at_ms: this.#now() }))
      .returning('generation')
      .executeTakeFirstOrThrow();
    return Number(row.generation);
  }

  /**
   * Refuses one session from now on, until `expiresAtMs` (when its lifetime would end it
   * anyway); also forgets the revoked ids whose time has passed, so the table stays small.
   */
  async revokeSession(sessionId: string, expiresAtMs: number): Promise<void> {
    await this.#db.deleteFrom(REVOKED_SESSIONS_TABLE).where('expires_at_ms', '<=', this.#now()).execute();
    await this.#db.insertInto(REVOKED_SESSIONS_TABLE).values({ session_id: sessionId, expires_at_ms: expiresAtMs }).onConflict((oc) => oc.column('session_id').doNothing()).execute();
  }
}
