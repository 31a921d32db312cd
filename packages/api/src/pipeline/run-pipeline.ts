import type { FastifyReply } from 'fastify';
import { Current } from '@panel/core';
import { rescueHandlerFor } from '../controller/callback-chain.js';
import { isThenable } from './call-method.js';
import type { RequestContext } from './request-context.js';
import { sendRendered } from './stages/render-stage.js';
import { spendRateLimit } from './stages/rate-limit-stage.js';

/**
 * Runs `stages` on the context until one renders an answer or sends the reply; whether one
 * did. A stage that returns no promise is not awaited.
 */
export async function runStages(context: RequestContext, stages: readonly { run(context: RequestContext): unknown }[]): Promise<boolean> {
  for (const stage of stages) {
    const ran = stage.run(context);
    if (isThenable(ran)) await ran;
    if (context.rendered !== undefined || context.reply.sent) return true;
  }
  return false;
}

/** A stage threw: the request spends its rate limit, then the controller's first matching `rescueFrom` handler answers, else the mount's error table. */
async function rescue(context: RequestContext, error: unknown): Promise<void> {
  // A refused request spends too: its credential's budget when one authenticated it, else its address's (a 401).
  await spendRateLimit(context);
  const handler = error instanceof Error ? rescueHandlerFor(context.controller.constructor, error) : undefined;
  if (!handler) throw error;
  context.rendered = undefined;
  await handler.call(context.controller, error as Error);
}

/**
 * Runs one request through its route's stages (`RouteRuntime.stages`, assembled at boot),
 * inside `Current.run` so that the app's `Current.user` is this request's; then the render
 * stage sends the answer. An error of any stage goes to `rescueFrom`, then to the mount's
 * error table.
 */
export function runPipeline(context: RequestContext): Promise<FastifyReply> {
  return Current.run(async () => {
    try {
      await runStages(context, context.route.stages);
    } catch (error) {
      await rescue(context, error);
    }
    return sendRendered(context);
  });
}
