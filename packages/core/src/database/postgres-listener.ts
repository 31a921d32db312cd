import pg from 'pg';
import type { DatabaseTimeouts } from './database-timeouts.js';

/**
 * A connection of its own, outside the pool, for `LISTEN`: a pooled connection is handed to
 * other queries between statements, and a listening one must stay open. No statement timeout
 * (it runs one `LISTEN` and then waits); TCP keepalive notices a vanished server.
 */
export async function connectListener(options: { url: string; applicationName: string; timeouts: DatabaseTimeouts }): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: options.url,
    application_name: `${options.applicationName} listen`,
    connectionTimeoutMillis: options.timeouts.connectionTimeoutMillis,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return client;
}
