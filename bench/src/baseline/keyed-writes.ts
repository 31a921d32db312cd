import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { BaselineTables } from './baseline-database.js';

/**
 * `Idempotency-Key` and `If-Match: *` written by hand, as a careful developer gives a route the
 * guarantees of docs/conditional-requests.md: the write and its stored answer in one
 * transaction, a transaction-scoped advisory lock on the key (a second request with the key
 * while the first runs gets 409), a retry with the same request replays the stored answer, the
 * same key with another request gets 422, and old keys are purged by the write that stores one.
 * The bench's safe-client rows compare the API with this, so that both sides do the same work.
 */
const TABLE = 'baseline_idempotency_keys';
const RETENTION_SECONDS = 24 * 60 * 60;
// As the API's (packages/api/src/http-semantics/idempotency-keys.ts).
const PURGE_BATCH = 20;

/** Creates the baseline's own table of stored answers when it is missing (at the server's start). */
export async function ensureKeyedWritesTable(db: Kysely<BaselineTables>): Promise<void> {
  await sql`create table if not exists ${sql.table(TABLE)} (
    scope varchar(300) not null, key varchar(255) not null, fingerprint varchar(64) not null,
    status integer not null, body text not null, created_at timestamptz not null default now(),
    primary key (scope, key))`.execute(db);
  await sql`create index if not exists ${sql.id(`${TABLE}_created_at_index`)} on ${sql.table(TABLE)} (created_at)`.execute(db);
}

/** What a write answers: its status and JSON body. */
export interface WriteAnswer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * Runs a write with the request's `Idempotency-Key`, if it has one (without, it runs as it is,
 * outside a transaction). `write` gets the transaction and whether `If-Match: *` asks it to
 * lock the record it changes.
 */
export async function keyedWrite(
  db: Kysely<BaselineTables>,
  request: FastifyRequest,
  reply: FastifyReply,
  write: (db: Kysely<BaselineTables>, lockRecord: boolean) => Promise<WriteAnswer>,
): Promise<unknown> {
  const key = request.headers['idempotency-key'];
  const lockRecord = request.headers['if-match'] === '*';
  if (typeof key !== 'string') {
    const answer = await write(db, false);
    return reply.code(answer.status).send(answer.body);
  }
  const scope = `key:${request.benchUser!.id}`;
  const fingerprint = createHash('sha256').update(`${request.method}\n${request.url}\n${JSON.stringify(request.body)}`).digest('hex');
  const answer = await db.transaction().execute(async (trx: Transaction<BaselineTables>) => {
    const { rows } = await sql<{ locked: boolean; fingerprint: string | null; status: number; body: string }>`
      select l.locked, k.fingerprint, k.status, k.body
      from (select pg_try_advisory_xact_lock(hashtextextended(${`${scope}\n${key}`}, 0)) as locked) as l
      left join ${sql.table(TABLE)} as k on k.scope = ${scope} and k.key = ${key}`.execute(trx);
    const found = rows[0]!;
    if (!found.locked) return { status: 409, body: { error: 'Conflict' }, replayed: false };
    if (found.fingerprint !== null) {
      if (found.fingerprint !== fingerprint) return { status: 422, body: { error: 'Idempotency-Key reused with another request' }, replayed: false };
      return { status: found.status, body: JSON.parse(found.body) as unknown, replayed: true };
    }
    const written = await write(trx, lockRecord);
    if (written.status < 500) {
      await sql`with stored as (insert into ${sql.table(TABLE)} (scope, key, fingerprint, status, body) values (${scope}, ${key}, ${fingerprint}, ${written.status}, ${JSON.stringify(written.body)}))
        delete from ${sql.table(TABLE)} where (scope, key) in (select scope, key from ${sql.table(TABLE)} where created_at < now() - make_interval(secs => ${RETENTION_SECONDS}) order by created_at limit ${PURGE_BATCH} for update skip locked)`.execute(trx);
    }
    return { ...written, replayed: false };
  });
  if (answer.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(answer.status).send(answer.body);
}
