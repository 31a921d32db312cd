import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SelectQueryBuilder, Transaction } from 'kysely';
import type { Panel } from '@panel/core';
import type { ActionName } from '../controller/callback-chain.js';
import { IdempotencyKeyInUseError, PreconditionRequiredError } from '../errors/api-errors.js';
import { credentialKey } from './credential-key.js';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, idempotencyKey, keyStoredMeanwhile, requestFingerprint, type IdempotencyKeys, type KeyedRequest, type StoredAnswer } from './idempotency-keys.js';
import type { ApiRateLimit } from './rate-limit.js';

/** What one mount decided about HTTP semantics (`mountPanelApi` options). */
export interface HttpSemantics {
  /** An update or delete without `If-Match` is a 428 (the mount's `requireIfMatch`). */
  readonly requireIfMatch: boolean;
  readonly idempotencyKeys: IdempotencyKeys;
  /** Undefined when the mount turned limits off. */
  readonly rateLimit: ApiRateLimit | undefined;
  /** Edition B: a token's own limit (requests per window), when it has one. */
  readonly tokenLimit?: ((tokenId: number) => Promise<number | null>) | undefined;
}

/** The controller as the HTTP semantics see it. */
export interface SemanticsHost {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly panel: Panel;
  readonly actionName: ActionName;
  readonly apiToken?: { readonly id: number } | undefined;
  rendered: { status: number; body: unknown } | undefined;
  /** The transaction the action's operations run in, while a conditional or keyed write runs. */
  transaction: Transaction<any> | undefined;
  /** The select that locks the record's row for `If-Match` (see `ifMatchRowLock`). */
  ifMatchRowLock(trx: Transaction<any>): SelectQueryBuilder<any, any, any>;
  /** Throws 412 unless `If-Match` holds for the record, once its row is locked (see `checkIfMatch`). */
  checkIfMatch(header: string, trx: Transaction<any>): Promise<void>;
}

const WRITES: ReadonlySet<ActionName> = new Set(['create', 'update', 'destroy', 'batch']);
const MEMBER_WRITES: ReadonlySet<ActionName> = new Set(['update', 'destroy']);

/** Rolls the write's transaction back without an error to answer (the action rendered a refusal). */
const ROLLBACK = Symbol('rollback');

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Spends one request of the credential's budget (the Edition B token's own limit when it has one). */
export function spendRateLimit(host: SemanticsHost, semantics: HttpSemantics | undefined): Promise<void> {
  const limit = semantics?.rateLimit;
  if (!limit) return Promise.resolve();
  const key = credentialKey(host, 'address');
  const { apiToken } = host;
  // A batch spends one unit per operation.
  const units = host.actionName === 'batch' ? batchUnits(host.request.body) : host.actionName === 'upload' ? uploadUnits(host.request) : 1;
  // A token's own limit is looked up first; without one, the budget is spent at once (one promise, not an async function's three).
  if (!apiToken || !semantics.tokenLimit) return limit.spend(host.request, host.reply, key, undefined, units);
  return semantics.tokenLimit(apiToken.id).then((own) => limit.spend(host.request, host.reply, key, own ?? undefined, units));
}

/** The units a batch spends: its operations (at least one; the batch's own limit bounds them). */
function batchUnits(body: unknown): number {
  const operations = (body as { operations?: unknown } | null)?.operations;
  return Array.isArray(operations) ? Math.max(1, Math.min(operations.length, 1000)) : 1;
}

/** The units an upload spends: one per MiB its body declares (at least one), so that the limit bounds the bytes too. */
function uploadUnits(request: FastifyRequest): number {
  const length = Number(request.headers['content-length']);
  return Number.isFinite(length) && length > 0 ? Math.max(1, Math.ceil(length / (1024 * 1024))) : 1;
}

/**
 * Runs a controller's action with the API's HTTP semantics, once the credential is known: the
 * rate limit; then, for a write, `If-Match` (412, or 428 when required and missing) and
 * `Idempotency-Key` (replay, 422, 409). A write with either runs in one transaction: the row
 * lock and precondition, the operation, and the stored answer commit together, or not at all.
 * A write with neither runs as before, and pays nothing.
 */
export async function runAction(host: SemanticsHost, semantics: HttpSemantics | undefined, requireIfMatch: boolean, action: () => Promise<unknown>): Promise<void> {
  await spendRateLimit(host, semantics);
  if (!semantics || !WRITES.has(host.actionName)) return void (await action());
  const member = MEMBER_WRITES.has(host.actionName);
  const ifMatch = member ? header(host.request, 'if-match') : undefined;
  if (member && ifMatch === undefined && (requireIfMatch || semantics.requireIfMatch)) throw new PreconditionRequiredError();
  const key = idempotencyKey(host.request.headers[IDEMPOTENCY_KEY_HEADER]);
  if (ifMatch === undefined && key === undefined) return void (await action());
  const { request } = host;
  const keyed: KeyedRequest | undefined =
    key === undefined ? undefined : { scope: credentialKey(host, 'public'), key, method: request.method, path: request.url, fingerprint: requestFingerprint(request.method, request.url, request.body) };
  const release = keyed ? semantics.idempotencyKeys.claim(keyed) : undefined;
  let replay: StoredAnswer | undefined;
  try {
    // A second attempt only when another process stored this key's answer meanwhile (see `IdempotencyKeys.lookup`): it replays it.
    for (let attempt = 1; ; attempt += 1) {
      try {
        replay = await host.panel.database.db.transaction().execute((trx) => conditionalWrite(host, semantics, { keyed, ifMatch, trx }, action));
        break;
      } catch (error) {
        if (error === ROLLBACK) break;
        // A duplicate key of the stored answer, thrown by `store` or by the commit it travels with.
        if (!keyStoredMeanwhile(error)) throw error;
        if (attempt === 2) throw new IdempotencyKeyInUseError();
      }
    }
  } finally {
    release?.();
  }
  if (replay) {
    host.rendered = { status: replay.status, body: JSON.parse(replay.body) };
    host.reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  }
}

/**
 * One attempt of a conditional or keyed write, in its transaction `trx`: the row lock of
 * `If-Match` and the key's lookup (one statement when both apply), then the stored answer to
 * replay, or the precondition, the action and the answer stored.
 */
async function conditionalWrite(
  host: SemanticsHost,
  semantics: HttpSemantics,
  write: { keyed: KeyedRequest | undefined; ifMatch: string | undefined; trx: Transaction<any> },
  action: () => Promise<unknown>,
): Promise<StoredAnswer | undefined> {
  const { keyed, ifMatch, trx } = write;
  const rowLock = ifMatch === undefined ? undefined : host.ifMatchRowLock(trx);
  if (keyed) {
    const replay = await semantics.idempotencyKeys.lookup(trx, keyed, rowLock);
    if (replay) return replay;
  } else if (rowLock) {
    await rowLock.execute();
  }
  if (ifMatch !== undefined) await host.checkIfMatch(ifMatch, trx);
  host.transaction = trx;
  try {
    await action();
  } finally {
    host.transaction = undefined;
  }
  const rendered = host.rendered;
  // Only a write that happened is stored (a refusal wrote nothing: a retry runs again); a 5xx is never an answer to keep.
  if (!rendered || host.reply.sent || rendered.status >= 300) throw ROLLBACK;
  if (keyed) await semantics.idempotencyKeys.store(trx, keyed, { status: rendered.status, body: JSON.stringify(rendered.body) });
  return undefined;
}
