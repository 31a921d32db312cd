import type { AddressInfo } from 'node:net';
import { closeOnSignals } from '@panel/api';
import { bootOrExit } from './boot-or-exit.js';
import { buildDemoApp } from './build-app.js';
import { wholeNumberFromEnv } from './demo-env.js';
import { DEMO_TOKEN_PEPPER } from '../app/panel/initializer.js';

const port = wholeNumberFromEnv('PORT', 3001, { min: 0, max: 65_535, fix: 'a port such as 3001' });
const host = process.env.HOST ?? '127.0.0.1';

if (!process.env.PANEL_API_TOKEN_PEPPER) console.log(`PANEL_API_TOKEN_PEPPER is not set; the demo uses "${DEMO_TOKEN_PEPPER}" (not for real data).`);
// DATABASE_URL runs it on PostgreSQL (migrated, and seeded when empty), as `npm start` does; else PGLITE_DATA_DIR keeps
// the embedded database in that folder (the token CLI reaches it while this runs); by default it is in memory.
const url = process.env.DATABASE_URL;
const dataDir = process.env.PGLITE_DATA_DIR;
const { app, tokenSecrets } = await bootOrExit(() => buildDemoApp({ edition: 'B', logger: process.env.LOG === '1', database: url ? { url } : dataDir ? { dataDir } : {} }));
await app.listen({ port, host });
const base = `http://${host}:${(app.server.address() as AddressInfo).port}`;
console.log(`Panel API demo, Edition B, on ${base} (database: ${url ? 'PostgreSQL' : `embedded PGlite, ${dataDir ? `in ${dataDir}` : 'in memory'}`})`);
console.log(`  panel: ${base}/panel (sign in as ada@example.com or rita@example.com, password demo-password)`);
for (const [name, secret] of tokenSecrets!) console.log(`token ${name}: ${secret}`);
console.log(`  try: curl -H 'Authorization: Bearer ${tokenSecrets!.get('reader')}' '${base}/api/resources/v1/blog_posts/6/comments'`);

closeOnSignals({ app });
