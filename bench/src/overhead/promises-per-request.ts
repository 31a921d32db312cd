import { createHook } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

/**
 * How many promises one request makes in the serving process, `inject` and the loop included
 * (the harness's share is the same for every server), counted by an `async_hooks` init hook
 * over `count` requests made one at a time. On Node 20 and 22 every promise made once a request
 * entered an `AsyncLocalStorage` costs a hook call at its creation and settlement (Node 24
 * carries the store without hooks: docs/scaling.md#node-versions-and-the-request-pipeline), so
 * this count is what that cost multiplies. The hook itself is on only while counting.
 */
export async function promisesPerRequest(app: FastifyInstance, url: (n: number) => string, count: number, authorization: string): Promise<number> {
  let promises = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') promises += 1;
    },
  });
  hook.enable();
  try {
    for (let n = 0; n < count; n += 1) {
      const response = await app.inject({ url: url(n), headers: { authorization } });
      if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
    }
  } finally {
    hook.disable();
  }
  return promises / count;
}
