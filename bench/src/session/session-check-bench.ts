/**
 * What the server-side session check costs per request: `npm run bench:session` (from the
 * repository root, with PostgreSQL at DATABASE_URL or 127.0.0.1:5432). On PGlite and on
 * PostgreSQL it prints the mean time of opening a session cookie (crypto only), of verifying
 * it (crypto and the one revocation statement), and of a whole demo API request authenticated
 * by the session cookie against the same request by API key (which skips the session check).
 */
import { randomBytes } from 'node:crypto';
import { openDatabase, type PanelDatabase } from '@panel/core';
import { buildDemoApp } from '@panel/example-blog/src/build-app.js';
import { meanMicros, withPostgresSchema } from '../micro/micro-bench.js';

async function measure(kind: string, database: PanelDatabase): Promise<Record<string, string>> {
  const { app, panel } = await buildDemoApp({ database, sessionSecret: randomBytes(32).toString('hex') });
  try {
    const sessions = panel.sessions!;
    const value = await sessions.start(1);
    const open = await meanMicros(20_000, () => sessions.read(value));
    const verify = await meanMicros(2_000, () => sessions.verify(value));
    const url = '/api/resources/v1/users?per_page=1';
    // Alternate the two kinds in short rounds, so that a change of load on the machine weighs on both alike.
    let byCookie = 0;
    let byKey = 0;
    for (let round = 0; round < 8; round += 1) {
      byCookie += (await meanMicros(150, () => app.inject({ method: 'GET', url, headers: { cookie: `panel_session=${value}` } }))) / 8;
      byKey += (await meanMicros(150, () => app.inject({ method: 'GET', url, headers: { authorization: 'ApiKey demo-admin-key' } }))) / 8;
    }
    return {
      database: kind,
      'open (crypto), µs': open.toFixed(1),
      'verify (crypto + 1 statement), µs': verify.toFixed(1),
      'GET by session cookie, µs': byCookie.toFixed(0),
      'GET by API key, µs': byKey.toFixed(0),
      'difference, µs': (byCookie - byKey).toFixed(0),
    };
  } finally {
    await app.close();
    await database.close();
  }
}

const rows = [await measure('pglite', await openDatabase()), await withPostgresSchema('panel_session_bench', (database) => measure('postgres', database))];
console.table(rows);
