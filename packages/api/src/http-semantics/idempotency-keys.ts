import { createHash } from 'node:crypto';
import { CompiledQuery, sql, type SelectQueryBuilder, type Transaction } from 'kysely';
import { IDEMPOTENCY_KEYS_TABLE, sentWithCommit } from '@panel/core';
import { BadRequestError, IdempotencyKeyInUseError, IdempotencyKeyReusedError } from '../errors/api-errors.js';

/** The request header of idempotent retries (IETF draft "The Idempotency-Key HTTP Header Field"). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** The response header of an answer replayed from a stored one. */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
/** How long a key's answer is kept by default: 24 hours, as Stripe keeps them. */
export const DEFAULT_IDEMPOTENCY_RETENTION_SECONDS = 24 * 60 * 60;
/** How many expired keys one new key purges, at most: the table is kept small without a cron, and no write pays much. */
const PURGE_BATCH = 20;

/** A key's stored answer as `lookup` reads it (`method` null: no answer), with its lock taken or not. */
type LookupRow = { locked: boolean; method: string | null; path: string; fingerprint: string; status: number; body: string; expired: boolean };

const TABLE = `"${IDEMPOTENCY_KEYS_TABLE}"`;
/** `store`'s statement: the answer ($1–$7), and the purge of at most $9 keys older than $8 seconds. */
const STORE = sentWithCommit(`with stored as (insert into ${TABLE} (scope, key, method, path, fingerprint, status, body) values ($1, $2, $3, $4, $5, $6, $7))
  delete from ${TABLE} where (scope, key) in (select scope, key from ${TABLE} where created_at < now() - make_interval(secs => $8) order by created_at limit $9 for update skip locked)`);

/** One request, as an idempotency key is judged against it. */
export interface KeyedRequest {
  readonly scope: string;
  readonly key: string;
  readonly method: string;
  readonly path: string;
  readonly fingerprint: string;
}

/** A stored answer. */
export interface StoredAnswer {
  readonly status: number;
  readonly body: string;
}

/** The key of a request header: 1 to 255 printable ASCII characters, else a 400. */
export function idempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(',') : header;
  // A structured-field string (the draft's form) may come quoted: "8e03…"; the quotes are not part of the key.
  const key = /^"(.*)"$/.test(value) ? value.slice(1, -1) : value;
  if (!/^[\x20-\x7e]{1,255}$/.test(key)) throw new BadRequestError('Idempotency-Key must be 1 to 255 printable ASCII characters');
  return key;
}

/** Whether JSON cannot write a number back as itself: ±Infinity (a parsed literal that overflows, `1e400`), NaN, -0. */
const unwritable = (value: unknown): value is number => typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0));

/**
 * A digest of what makes two requests the same: method, path and body (as parsed: two bodies
 * are the same when they hold the same values). A body's JSON as `JSON.stringify` writes it,
 * unless it holds a number JSON cannot write (`1e400` parses to Infinity, which it would write
 * as `null`, as a body that sent `null`): then every value is written with its type, strings
 * `s…` and those numbers `n…`, after a NUL no JSON text begins with, so neither form meets the
 * other or a string that looks like a number.
 */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  let typed = false;
  const plain = JSON.stringify(body ?? null, (_key, value: unknown) => {
    if (unwritable(value)) typed = true;
    return value;
  });
  const text = typed ? `\u0000${JSON.stringify(body, (_key, value: unknown) => (unwritable(value) ? `n${Object.is(value, -0) ? '-0' : String(value)}` : typeof value === 'string' ? `s${value}` : value))}` : plain;
  return createHash('sha256').update(`${method}\n${path}\n${text}`).digest('hex');
}

/**
 * The stored answers of `Idempotency-Key` requests, in the panel's database
 * (`panel_api_idempotency_keys`, a Panel migration). A key belongs to a credential; its answer
 * is written in the transaction of the write it answers, so a retry finds either both or
 * neither. While the first request runs, a retry gets 409: in this process through the set of
 * running keys, across processes through a transaction-scoped advisory lock on the key.
 */
export class IdempotencyKeys {
  readonly #running = new Set<string>();
  readonly retentionSeconds: number;

  constructor(retentionSeconds: number) {
    this.retentionSeconds = retentionSeconds;
  }

  /** Marks the key as running in this process until `release`; throws the 409 when it already is. */
  claim(request: KeyedRequest): () => void {
    const id = `${request.scope}\n${request.key}`;
    if (this.#running.has(id)) throw new IdempotencyKeyInUseError();
    this.#running.add(id);
    return () => this.#running.delete(id);
  }

  /**
   * In the write's transaction, in one statement: takes the key's lock (409 when another
   * process holds it) and reads the key's stored answer, to replay; nothing means the request
   * runs. The same key with another request is a 422; an expired answer is deleted first.
   * `rowLock`, when given (`If-Match`), is a `select … for update` run in the same statement.
   *
   * One statement reads with the snapshot it began with, which may predate the commit of
   * another process's request with this key that released the lock meanwhile: that answer
   * is then not seen here, and `store` meets it as a duplicate key (`keyStoredMeanwhile`),
   * after which the caller rolls back and looks again.
   */
  async lookup(trx: Transaction<any>, request: KeyedRequest, rowLock?: SelectQueryBuilder<any, any, any>): Promise<StoredAnswer | undefined> {
    const { scope, key } = request;
    const lockedRows = rowLock ? sql`, (select count(*) from ${rowLock} as locked_row) as locked_rows` : sql``;
    const row = (
      await sql<LookupRow>`select l.locked, k.method, k.path, k.fingerprint, k.status, k.body, k.created_at < now() - make_interval(secs => ${this.retentionSeconds}) as expired${lockedRows}
        from (select pg_try_advisory_xact_lock(hashtextextended(${`${scope}\n${key}`}, 0)) as locked) as l left join ${sql.table(IDEMPOTENCY_KEYS_TABLE)} as k on k.scope = ${scope} and k.key = ${key}`.execute(trx)
    ).rows[0]!;
    if (!row.locked) throw new IdempotencyKeyInUseError();
    if (row.method === null) return undefined;
    if (row.expired) {
      await trx.deleteFrom(IDEMPOTENCY_KEYS_TABLE).where('scope', '=', scope).where('key', '=', key).execute();
      return undefined;
    }
    if (row.method !== request.method || row.path !== request.path || row.fingerprint !== request.fingerprint) throw new IdempotencyKeyReusedError();
    return { status: row.status, body: row.body };
  }

  /**
   * In the write's transaction: stores the answer, and purges a few expired keys (skipping any
   * another transaction holds), in one statement (one round trip: the insert is a data-modifying
   * `with`, which PostgreSQL runs whether or not the rest reads it). The oldest keys go first
   * (`order by created_at`): it makes the planner walk the `created_at` index, which stops at
   * the first key still kept; without it, the planner guesses that a third of the rows match
   * and reads the whole table, every key of the last 24 hours, on every keyed write.
   *
   * It is the transaction's last statement and nothing reads its answer, so it is sent with the
   * commit (`sentWithCommit`): on PostgreSQL its duplicate key, if any, is the commit's error;
   * elsewhere it is thrown here. Either way the transaction rolls back, and `keyStoredMeanwhile`
   * tells the error.
   */
  async store(trx: Transaction<any>, request: KeyedRequest, answer: StoredAnswer): Promise<void> {
    const { scope, key, method, path, fingerprint } = request;
    await trx.executeQuery(CompiledQuery.raw(STORE, [scope, key, method, path, fingerprint, answer.status, answer.body, this.retentionSeconds, PURGE_BATCH]));
  }
}

/**
 * Whether `error` is the key's primary key refusing `store` (or the commit it travels with):
 * another process stored an answer for the key since `lookup` read. The write is rolled back,
 * and the request looks again.
 */
export function keyStoredMeanwhile(error: unknown): boolean {
  const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown };
  return code === '23505' && constraint === `${IDEMPOTENCY_KEYS_TABLE}_pkey`;
}

