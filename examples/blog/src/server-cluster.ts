import type { AddressInfo } from 'node:net';
import { closeOnSignals } from '@panel/api';
import { s3Storage } from '@panel/core';
import { wholeNumberFromEnv } from './demo-env.js';
import { bootOrExit } from './boot-or-exit.js';
import { buildDemoApp, type BuildDemoAppOptions } from './build-app.js';

/**
 * The demo as one of several processes behind a load balancer (examples/deploy, and the
 * load-balancer suite): Edition B (tokens and the token screens) on PostgreSQL, with read
 * replicas. Every process is started the same way; they share nothing but the database and the
 * secrets in the environment.
 *
 * - `DATABASE_URL` (required): the primary. `DATABASE_REPLICA_URLS`: replicas, comma-separated.
 * - `DATABASE_REPLICA_MAX_LAG_MS`, `DATABASE_REPLICA_CHECK_MS`: the lag bound and check interval.
 * - `PANEL_SESSION_SECRET` (or `PANEL_SESSION_SECRETS`) and `PANEL_API_TOKEN_PEPPER`: the same in every process.
 * - `PANEL_COUNT_CACHED_MS`: index totals by the `cached` count strategy with this `maxAgeMs`.
 * - `SEED_DEMO_TOKENS=0`: do not make the demo's tokens at start (the load-balancer suite makes its own).
 * - `S3_BUCKET`, `S3_ENDPOINT`, `S3_REGION`, `S3_ACCESS_KEY_ID`, `S3_SECRET_ACCESS_KEY`: files in an
 *   S3-compatible store (MinIO in examples/deploy), so that every process finds every blob.
 */
const env = process.env;
const url = env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set: the cluster demo runs on PostgreSQL (set DATABASE_URL=postgres://…).');
  process.exit(1);
}
const port = wholeNumberFromEnv('PORT', 3000, { min: 0, max: 65_535, fix: 'a port such as 3000' });
const replicas = (env.DATABASE_REPLICA_URLS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const millis = (name: string) => (env[name] ? Number(env[name]) : undefined);
const cachedMs = millis('PANEL_COUNT_CACHED_MS');

const options: BuildDemoAppOptions = {
  edition: 'B',
  logger: env.LOG === '1',
  database: {
    url,
    ...(replicas.length > 0 ? { replicas } : {}),
    ...(millis('DATABASE_REPLICA_MAX_LAG_MS') === undefined ? {} : { replicaMaxLagMillis: millis('DATABASE_REPLICA_MAX_LAG_MS') }),
    ...(millis('DATABASE_REPLICA_CHECK_MS') === undefined ? {} : { replicaCheckIntervalMillis: millis('DATABASE_REPLICA_CHECK_MS') }),
  },
  ...(cachedMs === undefined ? {} : { count: { strategy: 'cached', maxAgeMs: cachedMs } }),
  seedTokens: env.SEED_DEMO_TOKENS !== '0',
  ...(env.S3_BUCKET
    ? {
        storage: s3Storage({
          bucket: env.S3_BUCKET,
          region: env.S3_REGION ?? 'us-east-1',
          accessKeyId: env.S3_ACCESS_KEY_ID ?? '',
          secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? '',
          ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT, forcePathStyle: true } : {}),
        }),
      }
    : {}),
};
// A missing database, a refused connection, a wrong password: one line with the fix, exit code 1.
const { app } = await bootOrExit(() => buildDemoApp(options));
await app.listen({ port, host: env.HOST ?? '0.0.0.0' });
const base = `http://${env.HOST ?? '0.0.0.0'}:${(app.server.address() as AddressInfo).port}`;
console.log(`Panel API demo on ${base} (cluster process ${process.pid}; database: PostgreSQL, ${replicas.length} replica(s))`);

closeOnSignals({ app });
