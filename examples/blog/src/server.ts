import { buildDemoApp } from './build-app.js';
import { demoKeys } from './demo-keys.js';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const url = process.env.DATABASE_URL;

const { app } = await buildDemoApp({ database: url ? { url } : {}, logger: process.env.LOG === '1' });
await app.listen({ port, host });

const [adminKey, readerKey] = [...demoKeys().keys()];
const base = `http://${host}:${port}`;
console.log(`Panel API demo on ${base} (database: ${url ? 'PostgreSQL' : 'embedded PGlite, in memory'})`);
console.log(`  panel:  ${base}/panel`);
console.log(`  API:    ${base}/api/resources/v1/blog_posts`);
console.log(`  keys:   ${adminKey} (Ada Admin, user 1), ${readerKey} (Rita Reader, user 2)`);
console.log(`  try:    curl -H 'Authorization: ApiKey ${adminKey}' '${base}/api/resources/v1/blog_posts?per_page=5'`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
