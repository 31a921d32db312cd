import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PanelDatabase } from '../database/panel-database.js';

/** The table of values waiting for their one-time reveal. */
export const ONE_TIME_REVEALS_TABLE = 'panel_one_time_reveals';

/** What the store is built from. */
export interface OneTimeRevealsOptions {
  readonly database: PanelDatabase;
  /**
   * 32 bytes that seal the values (AES-256-GCM) and key the session digests (HMAC-SHA256), or a
   * function giving them (called on each use). Edition B derives them from the token pepper.
   */
  readonly key: Buffer | (() => Buffer);
  /** How long a value waits for its reveal. Default 300 000 (5 minutes). */
  readonly ttlMillis?: number;
  /** The clock; tests pass their own. */
  readonly now?: () => number;
}

/**
 * Values shown once to the browser session that made them — a new API token's secret on its
 * reveal screen — kept in the database, sealed, so that the process that shows it need not be
 * the one that made it (no sticky sessions). A value is deleted by its first look from its
 * session, in the same statement that reads it (`delete … returning`): two processes asked at
 * once show it once. A look from another session neither shows nor uses it up. It expires after
 * `ttlMillis`, looked at or not. The database holds only the sealed value and a keyed digest of
 * the session key; without the key neither can be read.
 *
 * @example
 * const reveals = new OneTimeReveals({ database, key: revealKey(pepper) });
 * await reveals.hold('api_token:7', secret, session.csrfToken);
 * await reveals.take('api_token:7', session.csrfToken); // the secret, once
 */
export class OneTimeReveals {
  readonly #db: Kysely<any>;
  readonly #options: OneTimeRevealsOptions;
  readonly #now: () => number;

  constructor(options: OneTimeRevealsOptions) {
    this.#db = options.database.db;
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Keeps `value` for the session whose key is `sessionKey`, replacing one held under `id`; forgets expired values. */
  async hold(id: string, value: string, sessionKey: string): Promise<void> {
    const key = this.#key();
    const now = this.#now();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(id, 'utf8'));
    const sealed = Buffer.concat([iv, cipher.update(value, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64url');
    const row = { id, session_digest: sessionDigest(key, sessionKey), sealed, expires_at_ms: now + (this.#options.ttlMillis ?? 300_000) };
    await this.#db.deleteFrom(ONE_TIME_REVEALS_TABLE).where('expires_at_ms', '<=', now).execute();
    await this.#db
      .insertInto(ONE_TIME_REVEALS_TABLE)
      .values(row)
      .onConflict((oc) => oc.column('id').doUpdateSet({ session_digest: row.session_digest, sealed: row.sealed, expires_at_ms: row.expires_at_ms }))
      .execute();
  }

  /**
   * The value, once, to the session that made it: the first look from that session deletes it
   * as it reads it. Another session (or an empty key) gets undefined and leaves it in place;
   * after its time everyone gets undefined. A value sealed under another key (a changed
   * pepper) is deleted and gives undefined.
   */
  async take(id: string, sessionKey: string): Promise<string | undefined> {
    if (sessionKey === '') return undefined;
    const key = this.#key();
    const row = await this.#db
      .deleteFrom(ONE_TIME_REVEALS_TABLE)
      .where('id', '=', id)
      .where('session_digest', '=', sessionDigest(key, sessionKey))
      .where('expires_at_ms', '>', this.#now())
      .returning('sealed')
      .executeTakeFirst();
    if (!row) return undefined;
    try {
      const bytes = Buffer.from(String(row.sealed), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12)).setAAD(Buffer.from(id, 'utf8'));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }

  #key(): Buffer {
    const key = typeof this.#options.key === 'function' ? this.#options.key() : this.#options.key;
    if (key.length !== 32) throw new Error(`OneTimeReveals: the key must be 32 bytes, instead got ${key.length}.`);
    return key;
  }
}

function sessionDigest(key: Buffer, sessionKey: string): string {
  return createHmac('sha256', key).update('session\0').update(sessionKey, 'utf8').digest('hex');
}
