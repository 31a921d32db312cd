import type { FastifyInstance } from 'fastify';
import { pingDatabase, type Panel } from '@panel/core';

/**
 * Draws the health checks under the mount, outside authentication, answering nothing but a
 * status (no version, no configuration):
 * - `GET <mount>/<path>` — liveness: 200 `{ "status": "ok" }` while the process answers;
 * - `GET <mount>/<path>/ready` — readiness: 200 `{ "status": "ok" }` when the database answers
 *   `select 1`, else 503 `{ "error": "Service Unavailable" }` with `Retry-After`.
 * A route the app drew itself at either path wins (it is kept, not replaced).
 */
export function drawHealthRoutes(api: FastifyInstance, panel: Panel, path: string): void {
  const live = `/${path}`;
  const ready = `/${path}/ready`;
  const answer = { status: 'ok' } as const;
  // hasRoute() looks at full URLs: the scope's prefix included.
  if (!api.hasRoute({ method: 'GET', url: `${api.prefix}${live}` })) {
    api.get(live, async (_request, reply) => reply.header('cache-control', 'no-store').send(answer));
  }
  if (!api.hasRoute({ method: 'GET', url: `${api.prefix}${ready}` })) {
    api.get(ready, async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      // A DatabaseUnavailableError goes to the API's error handler: the same 503 as every route.
      await pingDatabase(panel.database);
      return reply.send(answer);
    });
  }
}
