import type { FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import { shareTransaction } from '@panel/core';
import { IdempotencyKeyInUseError, PreconditionRequiredError } from '../../errors/api-errors.js';
import { credentialKey } from '../../http-semantics/credential-key.js';
import type { HttpSemantics } from '../../http-semantics/http-semantics.js';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, idempotencyKey, keyStoredMeanwhile, requestFingerprint, type KeyedRequest, type StoredAnswer } from '../../http-semantics/idempotency-keys.js';
import { authorizeReplay } from '../../http-semantics/replay-authorization.js';
import { isThenable } from '../call-method.js';
import type { RequestContext } from '../request-context.js';
import type { Stage } from '../request-context.js';

/** Rolls the write's transaction back without an error to answer (the action rendered a refusal). */
const ROLLBACK = Symbol('rollback');

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

async function runAction(context: RequestContext, action: Stage): Promise<void> {
  const ran = action.run(context);
  if (isThenable(ran)) await ran;
}

/**
 * One attempt of a conditional or keyed write, in its transaction `trx`: the row lock of
 * `If-Match` and the key's lookup (one statement when both apply), then the stored answer to
 * replay once the request is authorized again, or the precondition (after the policy: see
 * `checkIfMatchFor`), the action and the answer stored.
 */
async function conditionalWrite(context: RequestContext, semantics: HttpSemantics, write: { keyed: KeyedRequest | undefined; ifMatch: string | undefined; trx: Transaction<any> }, action: Stage): Promise<StoredAnswer | undefined> {
  const { keyed, ifMatch, trx } = write;
  const controller = context.controller;
  const rowLock = ifMatch === undefined ? undefined : controller.ifMatchRowLock(trx);
  if (keyed) {
    const replay = await semantics.idempotencyKeys.lookup(trx, keyed, rowLock);
    if (replay) {
      await authorizeReplay(context, trx, replay);
      return replay;
    }
  } else if (rowLock) {
    await rowLock.execute();
  }
  if (ifMatch !== undefined) await controller.checkIfMatch(ifMatch, trx);
  context.transaction = trx;
  try {
    await runAction(context, action);
  } finally {
    context.transaction = undefined;
  }
  const rendered = context.rendered;
  // Only a write that happened is stored (a refusal, or a partial batch of failures, wrote nothing: a retry runs again); a 5xx is never an answer to keep.
  if (!rendered || context.reply.sent || rendered.status >= 300 || context.wroteNothing) throw ROLLBACK;
  if (keyed) await semantics.idempotencyKeys.store(trx, keyed, { status: rendered.status, body: JSON.stringify(rendered.body) });
  return undefined;
}

/**
 * The write's preconditions around its action: `If-Match` (412, or 428 when required and
 * missing) and `Idempotency-Key` (replay, 422, 409). A write with either runs in one
 * transaction: the row lock and precondition, the operation, and the stored answer commit
 * together, or not at all. A write with neither runs its action as it is, and pays nothing.
 */
async function preconditions(context: RequestContext, semantics: HttpSemantics, requireIfMatch: boolean, member: boolean, action: Stage): Promise<void> {
  const { request } = context;
  const ifMatch = member ? header(request, 'if-match') : undefined;
  if (member && ifMatch === undefined && requireIfMatch) throw new PreconditionRequiredError();
  const key = idempotencyKey(request.headers[IDEMPOTENCY_KEY_HEADER]);
  if (ifMatch === undefined && key === undefined) return runAction(context, action);
  const keyed: KeyedRequest | undefined =
    key === undefined ? undefined : { scope: credentialKey(context, 'address'), key, method: request.method, path: request.url, fingerprint: requestFingerprint(request.method, request.url, request.body) };
  const release = keyed ? semantics.idempotencyKeys.claim(keyed) : undefined;
  let replay: StoredAnswer | undefined;
  try {
    // A second attempt only when another process stored this key's answer meanwhile (see `IdempotencyKeys.lookup`): it replays it.
    for (let attempt = 1; ; attempt += 1) {
      try {
        // Shared: a policy, hook or overridden action that queries through another handle of this database runs inside it, and never waits on its lock.
        replay = await shareTransaction(() => context.panel.database.db.transaction().execute((trx) => conditionalWrite(context, semantics, { keyed, ifMatch, trx }, action)));
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
    context.rendered = { status: replay.status, body: JSON.parse(replay.body) };
    context.reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  }
}

/**
 * The preconditions stage of a write route (create, update, destroy, batch), wrapping its
 * action stage; `If-Match` applies to update and destroy (`member`), required when
 * `requireIfMatch` (the mount's or the controller's; a batch asks it of each operation). In the
 * list only when the mount has HTTP semantics; a read's list has the action stage alone.
 */
export function preconditionsStage(semantics: HttpSemantics, options: { requireIfMatch: boolean; member: boolean }, action: Stage): Stage {
  const { requireIfMatch, member } = options;
  return { name: 'preconditions', run: (context) => preconditions(context, semantics, requireIfMatch, member, action) };
}
