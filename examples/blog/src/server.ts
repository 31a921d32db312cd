import type { AddressInfo } from 'node:net';
import { closeOnSignals } from '@panel/api';
import { bootOrExit } from './boot-or-exit.js';
import { buildDemoApp } from './build-app.js';
import { wholeNumberFromEnv } from './demo-env.js';
import { demoKeys } from './demo-keys.js';
import { markStartupPhase, printStartupPhases } from './startup-timings.js';

markStartupPhase('imports');

const port = wholeNumberFromEnv('PORT', 3000, { min: 0, max: 65_535, fix: 'a port such as 3000' });
const host = process.env.HOST ?? '127.0.0.1';
const url = process.env.DATABASE_URL;
/** How long a shutdown waits for in-flight requests before giving up (exit code 1). */
const DRAIN_MILLIS = wholeNumberFromEnv('SHUTDOWN_DRAIN_MS', 15_000, { min: 1, max: 3_600_000, fix: 'how many milliseconds in-flight requests may take to finish' });

// A missing database, a refused connection, a wrong password: one line with the fix, exit code 1.
const { app } = await bootOrExit(() => buildDemoApp({ database: url ? { url } : {}, logger: process.env.LOG === '1' }));
await app.listen({ port, host });
markStartupPhase('listen');
printStartupPhases();

const [adminKey, readerKey] = [...demoKeys().keys()];
const base = `http://${host}:${(app.server.address() as AddressInfo).port}`;
console.log(`Panel API demo on ${base} (database: ${url ? 'PostgreSQL' : 'embedded PGlite, in memory'})`);
console.log(`  panel:  ${base}/panel (sign in as ada@example.com or rita@example.com, password demo-password)`);
console.log(`  API:    ${base}/api/resources/v1/blog_posts`);
console.log(`  health: ${base}/api/health, ${base}/api/health/ready`);
console.log(`  keys:   ${adminKey} (Ada Admin, user 1), ${readerKey} (Rita Reader, user 2)`);
console.log(`  try:    curl -H 'Authorization: ApiKey ${adminKey}' '${base}/api/resources/v1/blog_posts?per_page=5'`);

// Graceful shutdown: stop accepting, let in-flight requests finish (new ones on open sockets get
// 503), close the database (an onClose hook), exit 0; a drain that takes longer than DRAIN_MILLIS exits 1.
closeOnSignals({ app, timeoutMillis: DRAIN_MILLIS });
