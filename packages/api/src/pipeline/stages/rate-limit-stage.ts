import type { FastifyRequest } from 'fastify';
import { credentialKey } from '../../http-semantics/credential-key.js';
import type { RequestContext } from '../request-context.js';
import type { Stage } from '../request-context.js';

/**
 * Spends one request of the credential's budget (an extension's own limit for the credential
 * when it has one), once per request: the rate-limit stage, and a refused request's rescue.
 */
export function spendRateLimit(context: RequestContext): void | Promise<void> {
  const semantics = context.route.semantics;
  const limit = semantics?.rateLimit;
  if (!limit) return undefined;
  const key = credentialKey(context, 'address');
  const { credential, action, request } = context;
  // An upload spends one unit per MiB; a batch one here, as any request, and its other operations once they are checked (`spendBatchOperations`).
  const units = action === 'upload' ? uploadUnits(request) : 1;
  // A credential's own limit is looked up first; without one, the budget is spent at once (no promise when the store answers at once).
  if (!credential || !semantics.credentialLimit) return limit.spend(request, context.reply, key, undefined, units);
  return semantics.credentialLimit(credential.id).then((own) => limit.spend(request, context.reply, key, own ?? undefined, units));
}

/**
 * What a batch spends beyond the request's unit, once its operations are checked and before
 * anything is written: one unit per operation in all. A batch refused as sent (400) spent the
 * request's unit only, as any refused request; one the budget cannot pay in full is 429 at once
 * and spends nothing more. Undefined when the mount has no rate limit or the store answered at once.
 */
export function spendBatchOperations(context: RequestContext, count: number): void | Promise<void> {
  const limit = context.route.semantics?.rateLimit;
  if (!limit || count <= 1) return undefined;
  return limit.spendMore(context.request, context.reply, count - 1, { whole: true });
}

const MIB = 1024 * 1024;

/** The units an upload spends up front: one per MiB its body declares (at least one), so that the limit bounds the bytes too. */
function uploadUnits(request: FastifyRequest): number {
  const length = Number(request.headers['content-length']);
  return Number.isFinite(length) && length > 0 ? Math.max(1, Math.ceil(length / MIB)) : 1;
}

/**
 * What an upload's bytes spend as they are read, beyond what its declared length spent up front
 * (`uploadUnits`): a body sent without `Content-Length` (chunked) spends one unit per MiB read, and
 * stops with the 429 when the budget is spent. Undefined when the mount has no rate limit.
 */
export function uploadBytesMeter(context: RequestContext): ((byteSize: number) => Promise<void> | void) | undefined {
  const limit = context.route.semantics?.rateLimit;
  if (!limit) return undefined;
  const { request, reply } = context;
  let charged = uploadUnits(request);
  return (byteSize) => {
    const units = Math.ceil(byteSize / MIB);
    if (units <= charged) return undefined;
    const more = units - charged;
    charged = units;
    return limit.spendMore(request, reply, more);
  };
}

/**
 * Spends one request of the credential's rate-limit budget once the credential is known
 * (the gate's token, else the current user, else the client address); 429 when it is spent.
 * In the list only when the mount has a rate limit.
 */
export const rateLimitStage: Stage = { name: 'rate-limit', run: spendRateLimit };
