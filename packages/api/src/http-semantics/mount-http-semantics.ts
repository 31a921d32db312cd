import type { FastifyInstance } from 'fastify';
import type { NormalizedMountOptions } from '../mount/mount-options.js';
import { apiCacheHeaders } from './cache-headers.js';
import { IdempotencyKeys } from './idempotency-keys.js';
import { registerRateLimit } from './rate-limit.js';
import type { HttpSemantics } from './http-semantics.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A resource route: its controller spends from the credential's rate-limit budget. */
    panelApiResource?: boolean;
  }
}

/**
 * Sets up one mount's HTTP semantics on the API's scope: the cache headers of every answer, the
 * idempotency keys, and the rate limit. Resource routes spend from the credential's budget in
 * their controller (once it is known); every other route of the scope but the health checks
 * (the OpenAPI document, the app's custom routes, a 404) spends from the client address's. An
 * extension's `credentialLimit` gives a credential its own limit (Edition B: a token's).
 */
export async function httpSemanticsFor(api: FastifyInstance, options: NormalizedMountOptions, credentialLimit: HttpSemantics['credentialLimit']): Promise<HttpSemantics> {
  apiCacheHeaders(api);
  const rateLimit = options.rateLimit === false ? undefined : registerRateLimit(options.panel, options.rateLimit);
  if (rateLimit) {
    const health = options.healthPath === false ? [] : [`${options.mountPath}/${options.healthPath}`, `${options.mountPath}/${options.healthPath}/ready`];
    // A callback hook: a resource route (most requests) passes through without a promise, and so does a spend the store answered at once.
    api.addHook('onRequest', (request, reply, done) => {
      if (request.routeOptions.config?.panelApiResource || health.includes(request.routeOptions.url ?? '')) return done();
      let spent: void | Promise<void>;
      try {
        spent = rateLimit.spend(request, reply, `address:${request.ip}`);
      } catch (error) {
        return done(error as Error);
      }
      if (spent) spent.then(() => done(), done);
      else done();
    });
  }
  return {
    requireIfMatch: options.requireIfMatch,
    idempotencyKeys: new IdempotencyKeys(options.idempotencyKeyRetentionSeconds),
    rateLimit,
    credentialLimit,
  };
}
