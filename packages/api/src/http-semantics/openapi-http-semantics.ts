import type { RouteEntry } from '../routing/draw-routes.js';
import type { OpenApiObject } from '../openapi/openapi-options.js';

/** What the OpenAPI document says of a mount's HTTP semantics. */
export interface OpenApiHttpSemantics {
  /** The mount limits requests (`rateLimit` not false): every answer may be 429, and carries the `RateLimit` headers. */
  readonly rateLimit: boolean;
  /** Update and delete need `If-Match` (`requireIfMatch`): a missing one is 428. */
  readonly requireIfMatch: boolean;
}

/** The defaults of `mountPanelApi`: limits on, `If-Match` optional. */
export const DEFAULT_OPENAPI_HTTP_SEMANTICS: OpenApiHttpSemantics = Object.freeze({ rateLimit: true, requireIfMatch: false });

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const required = (name: string) => ({ $ref: `#/components/headers/${name}Required` });
const error = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };

/** The response headers of the HTTP semantics, by `$ref` name (`components.headers`). */
export const HTTP_SEMANTICS_HEADERS: Readonly<Record<string, OpenApiObject>> = Object.freeze({
  ETag: { description: "The strong entity tag of the answer's content for this actor (a signed file URL's expiry and signature are left out). Send it back in `If-None-Match` (reads) or `If-Match` (update, delete).", schema: { type: 'string', pattern: '^"[^"]*"$' } },
  ETagRequired: { description: "The strong entity tag of the answer's content for this actor (a signed file URL's expiry and signature are left out).", required: true, schema: { type: 'string', pattern: '^"[^"]*"$' } },
  RateLimitPolicy: { description: 'The credential\'s limit (IETF RateLimit header fields): `"default";q=<requests>;w=<window seconds>`.', schema: { type: 'string' } },
  RateLimitPolicyRequired: { description: 'The credential\'s limit: `"default";q=<requests>;w=<window seconds>`.', required: true, schema: { type: 'string' } },
  RateLimit: { description: 'What is left of it: `"default";r=<remaining requests>;t=<seconds until the window ends>`.', schema: { type: 'string' } },
  RateLimitRequired: { description: 'What is left of it: `"default";r=<remaining requests>;t=<seconds until the window ends>`.', required: true, schema: { type: 'string' } },
  IdempotentReplayed: { description: '`true` when the answer is the stored answer of an earlier request with the same `Idempotency-Key`; nothing was written again.', schema: { type: 'string', const: 'true' } },
  RetryAfterRequired: { description: 'Seconds to wait before trying again.', required: true, schema: { type: 'integer', minimum: 1 } },
});

const IF_NONE_MATCH = { name: 'If-None-Match', in: 'header', required: false, description: 'An ETag of an earlier answer: when it still is the ETag, the answer is 304 with no body.', schema: { type: 'string' } };
const IF_MATCH = (needed: boolean) => ({
  name: 'If-Match',
  in: 'header',
  required: needed,
  description: 'The ETag of the record\'s show answer (or `*`): the write is made only if the record has not changed since, else 412 and nothing is written.',
  schema: { type: 'string' },
});
const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'A key of 1 to 255 printable characters, unique per write (a UUID): a retry with the same key and request answers the stored answer (`Idempotent-Replayed: true`) and writes nothing; kept 24 hours, per credential.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

const TAGGED = new Set(['index', 'show', 'related', 'create', 'update']);

/**
 * Adds to a resource operation what the HTTP semantics change: the `If-None-Match`, `If-Match`
 * and `Idempotency-Key` parameters, the `ETag`, `RateLimit-Policy`, `RateLimit` and
 * `Idempotent-Replayed` headers, and the 304, 409, 412, 428 and 429 answers, where each can occur.
 */
export function withHttpSemantics(route: RouteEntry, operation: OpenApiObject, semantics: OpenApiHttpSemantics = DEFAULT_OPENAPI_HTTP_SEMANTICS): OpenApiObject {
  const action = route.action;
  const read = action === 'index' || action === 'show' || action === 'related';
  const write = action === 'create' || action === 'update' || action === 'destroy' || action === 'batch';
  const member = action === 'update' || action === 'destroy';
  // The mount's `requireIfMatch`, or the controller's own (`static requireIfMatch`).
  const requireIfMatch = semantics.requireIfMatch || route.controller.requireIfMatch;
  const responses = { ...(operation.responses as Record<string, OpenApiObject>) };
  const success = action === 'create' ? '201' : '200';
  for (const [status, answer] of Object.entries(responses)) {
    const ok = status === success;
    const headers: Record<string, unknown> = { ...((answer.headers as Record<string, unknown>) ?? {}) };
    if (ok && TAGGED.has(action)) headers.ETag = required('ETag');
    if (ok && write) headers['Idempotent-Replayed'] = header('IdempotentReplayed');
    if (semantics.rateLimit) Object.assign(headers, ok ? { 'RateLimit-Policy': required('RateLimitPolicy'), RateLimit: required('RateLimit') } : { 'RateLimit-Policy': header('RateLimitPolicy'), RateLimit: header('RateLimit') });
    responses[status] = Object.keys(headers).length > 0 ? { ...answer, headers } : answer;
  }
  const more: Record<string, OpenApiObject> = {};
  if (read) more['304'] = { description: 'Not Modified: the `If-None-Match` ETag is still the answer\'s; no body.', headers: { ETag: required('ETag') } };
  if (write) more['409'] = { description: 'A request with this `Idempotency-Key` is still running; retry after `Retry-After` seconds.', headers: { 'Retry-After': header('RetryAfterRequired') }, ...error };
  if (member) more['412'] = { description: 'Precondition Failed: the record changed since the `If-Match` ETag; nothing was written.', ...error };
  if (member && requireIfMatch) more['428'] = { description: 'Precondition Required: send `If-Match` with the record\'s ETag.', ...error };
  if (write && responses['422']) responses['422'] = { ...responses['422'], description: `${responses['422'].description as string} Also: the \`Idempotency-Key\` was used with a different request.` };
  // Every answer after the rate limit spent it, these included: they carry its headers.
  if (semantics.rateLimit) {
    for (const status of ['409', '412', '428']) if (more[status]) more[status] = { ...more[status], headers: { ...((more[status].headers as object | undefined) ?? {}), 'RateLimit-Policy': header('RateLimitPolicy'), RateLimit: header('RateLimit') } };
  }
  if (semantics.rateLimit) more['429'] = { description: 'Too Many Requests: the credential spent its limit; retry after `Retry-After` seconds.', headers: { 'Retry-After': header('RetryAfterRequired'), 'RateLimit-Policy': required('RateLimitPolicy'), RateLimit: required('RateLimit') }, ...error };
  const parameters = [...((operation.parameters as unknown[]) ?? []), ...(read ? [IF_NONE_MATCH] : []), ...(member ? [IF_MATCH(requireIfMatch)] : []), ...(write ? [IDEMPOTENCY_KEY] : [])];
  // Status keys are integer-like: an object keeps them in ascending order.
  return { ...operation, ...(parameters.length > 0 ? { parameters } : {}), responses: { ...responses, ...more } };
}
