/**
 * The child process of `npm run bench:screens`: the demo app with its screens (Edition A) on a
 * bench schema, with the count strategy of `SCREENS_COUNT`, listening on `SCREENS_PORT`. It
 * signs Ada (user 1) in with the panel's sessions and sends its parent the session cookie over
 * IPC once it listens: the bench's users have no password to type.
 */
import type { CountStrategyInput } from '@panel/core';
import { buildDemoApp } from '@panel/example-blog/src/build-app.js';

const env = process.env;
const count = JSON.parse(env.SCREENS_COUNT ?? '"exact"') as CountStrategyInput;
const { app, panel } = await buildDemoApp({ database: { url: env.SCREENS_DATABASE_URL, schema: env.SCREENS_SCHEMA }, count, api: { rateLimit: { max: 1_000_000_000 } } });
await app.listen({ port: Number(env.SCREENS_PORT), host: '127.0.0.1' });
const cookie = `${panel.config.sessionCookie}=${await panel.sessions!.start(1)}`;
process.send?.({ type: 'ready', cookie });
process.on('message', async (message: { type?: string }) => {
  if (message.type === 'stop') {
    await app.close();
    process.exit(0);
  }
});
