import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { ONE_TIME_REVEALS_TABLE, OneTimeReveals, runPanelMigrations, type PanelDatabase } from '../src/index.js';

for (const kind of testDatabaseKinds()) {
  describe(`OneTimeReveals: the one-time reveal of a new token's secret, in the database [${kind}]`, () => {
    let database: PanelDatabase;
    let now = 1_000;
    const key = randomBytes(32);
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await runPanelMigrations(database);
    });
    afterAll(async () => database?.close());
    const store = (options: { key?: Buffer } = {}) => new OneTimeReveals({ database, key: options.key ?? key, ttlMillis: 60_000, now: () => now });

    it('gives the secret once, to the creating session only; another session does not use it up — and any process (another store) can give it', async () => {
      await store().hold('api_token:7', 'pat_secret', 'session-a');
      expect(await store().take('api_token:7', 'session-b')).toBeUndefined();
      expect(await store().take('api_token:7', '')).toBeUndefined();
      expect(await store().take('api_token:7', 'session-a')).toBe('pat_secret');
      expect(await store().take('api_token:7', 'session-a')).toBeUndefined();
    });

    it('"consumed atomically": two looks at the same moment show it once', async () => {
      await store().hold('api_token:8', 'pat_twice', 'session-a');
      const answers = await Promise.all([store().take('api_token:8', 'session-a'), store().take('api_token:8', 'session-a'), store().take('api_token:8', 'session-a')]);
      expect(answers.filter((answer) => answer === 'pat_twice')).toHaveLength(1);
    });

    it('keeps only the sealed value and a keyed digest of the session key, never either in clear', async () => {
      await store().hold('api_token:9', 'pat_clear_text', 'session-clear');
      const { rows } = await sql<{ sealed: string; session_digest: string }>`select sealed, session_digest from ${sql.table(ONE_TIME_REVEALS_TABLE)} where id = 'api_token:9'`.execute(database.db);
      expect(JSON.stringify(rows)).not.toMatch(/pat_clear_text|session-clear/);
      // Sealed under another key (a changed pepper), it cannot be read back.
      expect(await store({ key: randomBytes(32) }).take('api_token:9', 'session-clear')).toBeUndefined();
    });

    it('"expiring as today": forgets a secret after its time, whether or not it was looked at', async () => {
      await store().hold('api_token:1', 'pat_one', 'a');
      now += 60_000;
      expect(await store().take('api_token:1', 'a')).toBeUndefined();
      await store().hold('api_token:2', 'pat_two', 'a');
      const { rows } = await sql<{ id: string }>`select id from ${sql.table(ONE_TIME_REVEALS_TABLE)} order by id`.execute(database.db);
      expect(rows.map((row) => row.id)).not.toContain('api_token:1');
    });
  });
}
