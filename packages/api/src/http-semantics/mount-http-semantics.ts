import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestGate } from '../controller/request-gate.js';
import { credentialKey } from './credential-key.js';
import type { NormalizedMountOptions } from '../mount/mount-options.js';
import { apiCacheHeaders } from './cache-headers.js';
import { IdempotencyKeys } from './idempotency-keys.js';
import { registerRateLimit, type ApiRateLimit } from './rate-limit.js';
import type { HttpSemantics } from './http-semantics.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A resource route: its controller spends from the credential's rate-limit budget. */
    panelApiResource?: boolean;
  }
}

/**
 * The budget a request to a route that is not a resource's spends from (the OpenAPI document,
 * the app's custom routes, a 404 under the mount): the credential the mount's gate verifies
 * (Edition B's token, with its own limit when it has one), else the client address's. A request
 * without `Authorization` spends the address's at once; a credential the gate refuses spends the
 * address's too, and the route answers it (the document's 401).
 */
function spendOutsideResources(rateLimit: ApiRateLimit, gate: RequestGate | undefined, credentialLimit: HttpSemantics['credentialLimit'], request: FastifyRequest, reply: FastifyReply): void | Promise<void> {
  const address = `address:${request.ip}`;
  if (gate === undefined || request.headers.authorization === undefined) return rateLimit.spend(request, reply, address);
  return gate.authenticate(request).then(
    async (actor) => {
      const credential = actor?.credential;
      if (credential === undefined) return rateLimit.spend(request, reply, address);
      const own = credentialLimit ? await credentialLimit(credential.id) : null;
      return rateLimit.spend(request, reply, credentialKey({ request, credential, user: null }, 'address'), own ?? undefined);
    },
    () => rateLimit.spend(request, reply, address),
  );
}

/**
 * Sets up one mount's HTTP semantics on the API's scope: the cache headers of every answer, the
 * idempotency keys, and the rate limit. Resource routes spend from the credential's budget in
 * their controller (once it is known); every other route of the scope but the health checks
 * (the OpenAPI document, the app's custom routes, a 404) spends from the budget of the credential
 * the gate verifies, else the client address's (`spendOutsideResources`). An extension's
 * `credentialLimit` gives a credential its own limit (Edition B: a token's).
 */
export async function httpSemanticsFor(api: FastifyInstance, options: NormalizedMountOptions, credentialLimit: HttpSemantics['credentialLimit'], gate?: RequestGate): Promise<HttpSemantics> {
  apiCacheHeaders(api);
  const rateLimit = options.rateLimit === false ? undefined : registerRateLimit(options.panel, options.rateLimit);
  if (rateLimit) {
    const health = options.healthPath === false ? [] : [`${options.mountPath}/${options.healthPath}`, `${options.mountPath}/${options.healthPath}/ready`];
    // A callback hook: a resource route (most requests) passes through without a promise, and so does a spend the store answered at once.
    api.addHook('onRequest', (request, reply, done) => {
      if (request.routeOptions.config?.panelApiResource || health.includes(request.routeOptions.url ?? '')) return done();
      let spent: void | Promise<void>;
      try {
        spent = spendOutsideResources(rateLimit, gate, credentialLimit, request, reply);
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
