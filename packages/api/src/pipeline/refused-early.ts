import type { FastifyReply, FastifyRequest } from 'fastify';
import { Current } from '@panel/core';
import { wasRefusedOnArrival } from '../mount/request-hygiene.js';
import { RequestContext, type RouteRuntime } from './request-context.js';
import { runStages } from './run-pipeline.js';
import { spendRateLimit } from './stages/rate-limit-stage.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A resource route's runtime: what a request refused before its controller ran identifies itself with. */
    panelApiRuntime?: RouteRuntime;
  }
}

/**
 * A request to a resource route refused before its controller ran (a malformed JSON body, 413,
 * 415: Fastify's body parsing) still spends the rate limit of the credential it names: the
 * route's identifying stages run (session, authentication, the gate's permission, the current
 * user; a refusal among them stops them where it is), then the budget of what they found is
 * spent — the credential's, else the client address's. Returns the error to answer: the 429
 * when that budget is spent, else `error`. A request refused on arrival for its framing
 * (`requestHygiene`) is answered at once and spends nothing.
 */
export async function spendForRefusedRequest(error: unknown, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const runtime = request.routeOptions.config?.panelApiRuntime;
  const limit = runtime?.semantics?.rateLimit;
  if (!runtime || !limit || limit.hasSpent(request) || wasRefusedOnArrival(request)) return error;
  const context = new RequestContext(runtime, request, reply);
  new runtime.controller(context);
  try {
    await Current.run(async () => {
      try {
        await runStages(context, runtime.identify);
      } catch {
        // Refused while identifying (a bad credential): what is known so far decides the budget.
      }
      context.rendered = undefined;
      await spendRateLimit(context);
    });
  } catch (spent) {
    return spent;
  }
  return error;
}
