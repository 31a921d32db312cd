import type { FastifyInstance } from 'fastify';

/** What an API answer may be kept as, unless its controller says otherwise: by the client only, checked again before each use. */
export const API_CACHE_CONTROL = 'private, no-cache';

/** The request headers an API answer depends on: the credential. */
export const API_VARY = ['Authorization', 'Cookie'] as const;

/**
 * Adds `Cache-Control: private, no-cache` and `Vary: Authorization, Cookie` to every answer of
 * the API's scope: an answer depends on the credential, so no shared cache may keep it, and a
 * client revalidates it (with its ETag) before use. A controller or route that set
 * `Cache-Control` keeps its own; `Vary` is merged with what the answer already varies on.
 */
export function apiCacheHeaders(api: FastifyInstance): void {
  api.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', API_CACHE_CONTROL);
    const vary = reply.getHeader('vary');
    const present = new Set(String(vary ?? '').split(',').map((name) => name.trim().toLowerCase()).filter(Boolean));
    if (present.has('*')) return payload;
    const missing = API_VARY.filter((name) => !present.has(name.toLowerCase()));
    if (missing.length > 0) reply.header('vary', [vary, ...missing].filter(Boolean).join(', '));
    return payload;
  });
}
