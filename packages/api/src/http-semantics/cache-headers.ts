import type { FastifyInstance, FastifyReply } from 'fastify';

/** What an API answer may be kept as, unless its controller says otherwise: by the client only, checked again before each use. */
export const API_CACHE_CONTROL = 'private, no-cache';

/** The request headers an API answer depends on: the credential. */
export const API_VARY = ['Authorization', 'Cookie'] as const;

const API_VARY_VALUE = API_VARY.join(', ');

/** Adds to an answer's `Vary` the credential headers it does not name yet (none when it varies on `*`). */
function mergeVary(reply: FastifyReply, vary: NonNullable<ReturnType<FastifyReply['getHeader']>>): void {
  const present = new Set(String(vary).split(',').map((name) => name.trim().toLowerCase()).filter(Boolean));
  if (present.has('*')) return;
  const missing = API_VARY.filter((name) => !present.has(name.toLowerCase()));
  if (missing.length > 0) reply.header('vary', [vary, ...missing].filter(Boolean).join(', '));
}

/**
 * Adds `Cache-Control: private, no-cache` and `Vary: Authorization, Cookie` to every answer of
 * the API's scope: an answer depends on the credential, so no shared cache may keep it, and a
 * client revalidates it (with its ETag) before use. A controller or route that set
 * `Cache-Control` keeps its own; `Vary` is merged with what the answer already varies on.
 */
export function apiCacheHeaders(api: FastifyInstance): void {
  // A callback hook (no promise per answer); an answer that varies on nothing yet (the usual one) gets the whole value at once.
  api.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', API_CACHE_CONTROL);
    const vary = reply.getHeader('vary');
    if (vary === undefined || vary === '') reply.header('vary', API_VARY_VALUE);
    else mergeVary(reply, vary);
    done(null, payload);
  });
}
