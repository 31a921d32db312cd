/**
 * The child process of `npm run bench -- --large`: the demo app (Panel API) on the 10-million-
 * row schema, with the count strategy of `LARGE_COUNT` (JSON: `"exact"`, `{"strategy":
 * "estimate","exactBelow":100000}`…), listening on `LARGE_PORT`. It tells its parent over IPC
 * once it listens.
 */
import type { CountStrategyInput } from '@panel/core';
import { buildDemoApp } from '@panel/example-blog/src/build-app.js';

const env = process.env;
const count = JSON.parse(env.LARGE_COUNT ?? '"exact"') as CountStrategyInput;
const { app } = await buildDemoApp({ database: { url: env.LARGE_DATABASE_URL, schema: env.LARGE_SCHEMA }, count, panelHome: false, api: { rateLimit: { max: 1_000_000_000 } } });
await app.listen({ port: Number(env.LARGE_PORT), host: '127.0.0.1' });
process.send?.({ type: 'ready' });
process.on('message', async (message: { type?: string }) => {
  if (message.type === 'stop') {
    await app.close();
    process.exit(0);
  }
});
