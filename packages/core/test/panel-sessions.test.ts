import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPanel, PANEL_SESSION_MIGRATION_TABLE, runPanelMigrations, SIGN_IN_FAILURES_TABLE, SIGN_IN_KNOWN_CLIENT_SECONDS, type DatabaseKind, type Panel, type PanelDatabase } from '../src/index.js';
import { countQueries, openTestDatabase, testDatabaseKinds } from '@panel/test-support';

const SECRET = 'a-session-secret-of-32-characters-at-least';
const MINUTE = 60 * 1000;

for (const kind of testDatabaseKinds()) {
  describe(`panel sessions on the database: revocation and throttle [${kind}]`, () => {
    const clock = { now: Date.parse('2026-11-22T08:00:00Z') };
    let database: PanelDatabase | undefined;
    let panel: Panel | undefined;
    beforeAll(async () => {
      database = await openTestDatabase(kind as DatabaseKind);
      await runPanelMigrations(database);
      panel = await createPanel({ database, resources: [], sessionSecret: SECRET, session: { now: () => clock.now } });
    });
    afterAll(async () => database?.close());
    const sessions = () => panel!.sessions!;

    it('runPanelMigrations records the session tables in their own history, panel_session_migration', async () => {
      const { rows } = await sql<{ name: string }>`select name from ${sql.table(PANEL_SESSION_MIGRATION_TABLE)}`.execute(database!.db);
      expect(rows.map((r) => r.name)).toEqual(['0001-create-session-tables']);
      expect(await runPanelMigrations(database!)).toEqual([]);
    });

    it('createPanel fails fast when the session tables are missing, or when session options come without a secret', async () => {
      const bare = await openTestDatabase(kind as DatabaseKind);
      try {
        await expect(createPanel({ database: bare, resources: [], sessionSecret: SECRET })).rejects.toThrow(
          /sessionSecret is set, but the session tables \(panel_session_generations, panel_revoked_sessions, panel_sign_in_failures\) do not exist\. Fix: await runPanelMigrations\(database\)/,
        );
        await expect(createPanel({ database: bare, resources: [], session: { lifetime: 60 } })).rejects.toThrow(/session options are set but sessionSecret is missing/);
        await expect(createPanel({ database: bare, resources: [], sessionSecret: 'too short' })).rejects.toThrow(/sessionSecret must be a string of at least 32 characters/);
        await expect(createPanel({ database: bare, resources: [] })).resolves.toMatchObject({ sessions: null });
      } finally {
        await bare.close();
      }
    });

    it('verify checks a session against the server in one statement, and only when it names a user', async () => {
      const cookie = await sessions().start(41);
      const { result, count } = await countQueries(database!, () => sessions().verify(cookie));
      expect(result?.data.userId).toBe(41);
      expect(count).toBe(1);
      const anonymous = sessions().seal({ flash: 'hello' });
      expect((await countQueries(database!, () => sessions().verify(anonymous))).count).toBe(0);
    });

    it('revoke refuses every copy of one session; revokeAll every session of the user, numeric or uuid ids alike', async () => {
      for (const userId of [42, '7d7c2b1e-6a53-4a4e-9f55-2f0b3e1c9a01']) {
        const one = await sessions().start(userId);
        const two = await sessions().start(userId);
        await sessions().revoke((await sessions().verify(one))!);
        expect(await sessions().verify(one)).toBeNull();
        expect(await sessions().verify(two)).not.toBeNull();
        await sessions().revokeAll(userId);
        expect(await sessions().verify(two)).toBeNull();
        const after = await sessions().start(userId);
        expect((await sessions().verify(after))?.generation).toBe(1);
      }
    });

    it('a resealed session keeps its id, so signing out still refuses the copies sealed before and after', async () => {
      const cookie = await sessions().start(43);
      const opened = (await sessions().verify(cookie))!;
      const resealed = sessions().reseal(opened);
      await sessions().revoke((await sessions().verify(resealed))!);
      expect(await sessions().verify(cookie)).toBeNull();
      expect(await sessions().verify(resealed)).toBeNull();
    });

    it('isRecentlyConfirmed holds for `confirmWindow` seconds after sign-in or confirm', async () => {
      const opened = (await sessions().verify(await sessions().start(44)))!;
      expect(sessions().isRecentlyConfirmed(opened)).toBe(true);
      clock.now += 5 * MINUTE;
      expect(sessions().isRecentlyConfirmed(opened)).toBe(false);
      expect(sessions().isRecentlyConfirmed(sessions().read(sessions().confirm(opened)))).toBe(true);
      expect(sessions().isRecentlyConfirmed(sessions().read(sessions().seal({ userId: 44 })))).toBe(false);
      expect(sessions().isRecentlyConfirmed(null)).toBe(false);
    });

    it('the throttle counts an IPv6 client by its /64, and refuses an address over its limit before counting the account', async () => {
      clock.now += 60 * MINUTE;
      for (let i = 1; i <= 20; i += 1) expect(await sessions().throttle.attempt({ email: `spray-${i}@example.com`, address: `2001:db8:7:7::${i.toString(16)}` })).toEqual({ allowed: true });
      expect(await sessions().throttle.attempt({ email: 'fresh@example.com', address: '2001:db8:7:7:ffff::1' })).toMatchObject({ allowed: false });
      const { rows } = await sql<{ key: string }>`select key from ${sql.table(SIGN_IN_FAILURES_TABLE)} where key like 'account:fresh%' or key like 'address:2001%'`.execute(database!.db);
      expect(rows.map((r) => r.key)).toEqual(['address:2001:db8:7:7::/64']);
      expect(await sessions().throttle.attempt({ email: 'fresh@example.com', address: '2001:db8:7:8::1' })).toEqual({ allowed: true });
    });

    it('"keys on (account, client) with backoff": after the free attempts each failure doubles the wait (30 s, 60 s, 120 s … at most the window, then afresh), and another client is not slowed', async () => {
      clock.now += 60 * MINUTE;
      const attempt = { email: 'backoff@example.com', address: '192.0.2.77' };
      for (let i = 0; i < 5; i += 1) expect(await sessions().throttle.attempt(attempt)).toEqual({ allowed: true });
      const waits: number[] = [];
      for (let step = 0; step < 6; step += 1) {
        const refused = await sessions().throttle.attempt(attempt);
        expect(refused.allowed).toBe(false);
        const wait = (refused as { retryAfter: number }).retryAfter;
        waits.push(wait);
        clock.now += wait * 1000;
        expect(await sessions().throttle.attempt(attempt)).toEqual({ allowed: true });
      }
      expect(waits).toEqual([30, 60, 120, 240, 480, 900]);
      // The last wait was a whole quiet window: the account starts afresh from this client.
      for (let i = 0; i < 4; i += 1) expect(await sessions().throttle.attempt(attempt)).toEqual({ allowed: true });
      expect((await sessions().throttle.attempt(attempt)).allowed).toBe(false);
      // A stranger guessing from elsewhere, or the user from her own client, is not held by this client's failures.
      expect(await sessions().throttle.attempt({ email: 'backoff@example.com', address: '198.51.100.9' })).toEqual({ allowed: true });
    });

    it('the throttle starts a new window once the last is over, and prune forgets the finished windows', async () => {
      const attempt = { email: 'pat@example.com', address: '192.0.2.1' };
      for (let i = 0; i < 5; i += 1) expect(await sessions().throttle.attempt(attempt)).toEqual({ allowed: true });
      // The account's free attempts from this client are spent: the next waits the first backoff step.
      expect(await sessions().throttle.attempt(attempt)).toEqual({ allowed: false, retryAfter: 30 });
      clock.now += 15 * MINUTE;
      expect(await sessions().throttle.attempt(attempt)).toEqual({ allowed: true });
      clock.now += 15 * MINUTE;
      expect(await sessions().throttle.prune()).toBeGreaterThanOrEqual(2);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(SIGN_IN_FAILURES_TABLE)}`.execute(database!.db);
      expect(rows[0]!.n).toBe(0);
    });

    it('a client stays known to an account for SIGN_IN_KNOWN_CLIENT_SECONDS after a sign-in: prune keeps it past the window, then forgets it', async () => {
      clock.now += 60 * MINUTE;
      const attempt = { email: 'kept@example.com', address: '192.0.2.88' };
      expect(await sessions().throttle.attempt(attempt)).toEqual({ allowed: true });
      await sessions().throttle.succeeded(attempt);
      const keys = async () => (await sql<{ key: string }>`select key from ${sql.table(SIGN_IN_FAILURES_TABLE)} where key like '%kept@%' order by key`.execute(database!.db)).rows.map((r) => r.key);
      // The attempt was counted against the account from new clients, and given back by the sign-in.
      expect(await keys()).toEqual(['known:kept@example.com|192.0.2.88', 'new-clients:kept@example.com']);
      clock.now += 16 * MINUTE;
      await sessions().throttle.prune();
      expect(await keys()).toEqual(['known:kept@example.com|192.0.2.88']);
      clock.now += SIGN_IN_KNOWN_CLIENT_SECONDS * 1000;
      await sessions().throttle.prune();
      expect(await keys()).toEqual([]);
    });
  });
}
