import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import {
  PANEL_MIGRATION_TABLE,
  PANEL_REVEAL_MIGRATION_TABLE,
  PANEL_SESSION_MIGRATION_TABLE,
  SIGN_IN_FAILURES_TABLE,
  SessionRevocations,
  SignInThrottle,
  runMigrations,
  runPanelMigrations,
  type Migration,
  type PanelDatabase,
} from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';

const MINUTE = 60_000;
const tableExists = async (database: PanelDatabase, name: string) =>
  (await sql<{ found: string | null }>`select to_regclass(${name})::text as found`.execute(database.db)).rows[0]!.found !== null;
const createTable = (name: string): Migration => ({ up: async (db: Kysely<any>) => void (await db.schema.createTable(name).addColumn('id', 'integer').execute()) });

for (const kind of testDatabaseKinds()) {
  describe(`runMigrations [${kind}]`, () => {
    let database: PanelDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
    });
    afterAll(async () => {
      await database?.close();
    });

    it('runs pending migrations in name order, once: a second run runs none', async () => {
      const order: string[] = [];
      const traced = (name: string): Migration => ({
        up: async (db) => {
          order.push(name);
          await createTable(`t_${name.replace(/\W/g, '_')}`).up(db);
        },
      });
      const migrations = { '20260102-second': traced('20260102-second'), '20260101-first': traced('20260101-first') };
      expect(await runMigrations(database, migrations, { table: 'order_migrations' })).toEqual(['20260101-first', '20260102-second']);
      expect(order).toEqual(['20260101-first', '20260102-second']);
      expect(await runMigrations(database, migrations, { table: 'order_migrations' })).toEqual([]);
      expect(order).toHaveLength(2);
    });

    it('a later run adds only the new migration', async () => {
      const first = { '001-a': createTable('later_a') };
      await runMigrations(database, first, { table: 'later_migrations' });
      expect(await runMigrations(database, { ...first, '002-b': createTable('later_b') }, { table: 'later_migrations' })).toEqual(['002-b']);
      expect(await tableExists(database, 'later_b')).toBe(true);
    });

    it('a failing migration fails the run, its own changes rolled back, and it runs again once fixed', async () => {
      const failing: Migration = {
        up: async (db) => {
          await createTable('half_done').up(db);
          throw new Error('the migration has a mistake');
        },
      };
      await expect(runMigrations(database, { '001-ok': createTable('before_failure'), '002-bad': failing }, { table: 'failing_migrations' })).rejects.toThrow('the migration has a mistake');
      expect(await tableExists(database, 'half_done')).toBe(false);
      const fixed = await runMigrations(database, { '001-ok': createTable('before_failure'), '002-bad': createTable('half_done') }, { table: 'failing_migrations' });
      expect(fixed).toContain('002-bad');
      expect(await tableExists(database, 'half_done')).toBe(true);
    });

    it('keeps each history in its own table, so the panel\'s and the app\'s migrations never mix', async () => {
      await runMigrations(database, { '001-x': createTable('history_x') }, { table: 'history_one' });
      expect(await runMigrations(database, { '001-x': createTable('history_y') }, { table: 'history_two' })).toEqual(['001-x']);
      const { rows } = await sql<{ name: string }>`select name from history_one`.execute(database.db);
      expect(rows.map((r) => r.name)).toEqual(['001-x']);
    });

    it('runPanelMigrations creates the panel\'s tables with their histories apart, and is idempotent', async () => {
      const ran = await runPanelMigrations(database);
      expect(ran.some((name) => name.startsWith('session/'))).toBe(true);
      expect(ran.some((name) => name.startsWith('reveal/'))).toBe(true);
      for (const table of [PANEL_MIGRATION_TABLE, PANEL_SESSION_MIGRATION_TABLE, PANEL_REVEAL_MIGRATION_TABLE, SIGN_IN_FAILURES_TABLE]) expect(await tableExists(database, table), table).toBe(true);
      expect(await runPanelMigrations(database)).toEqual([]);
    });
  });

  describe(`the sign-in throttle and session revocations [${kind}]`, () => {
    let database: PanelDatabase;
    const clock = { now: Date.parse('2026-11-22T08:00:00Z') };
    const options = { maxFailedSignInsPerAccount: 3, maxFailedSignInsPerAddress: 6, signInWindow: 15 * 60, now: () => clock.now };
    let throttle: SignInThrottle;
    let revocations: SessionRevocations;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await runPanelMigrations(database);
      throttle = new SignInThrottle(database.db, options);
      revocations = new SessionRevocations(database.db, () => clock.now);
    });
    afterAll(async () => {
      await database?.close();
    });

    const spend = async (attempt: { email: string; address: string }, times: number) => {
      for (let i = 0; i < times; i += 1) expect(await throttle.attempt(attempt), `attempt ${i + 1}`).toEqual({ allowed: true });
    };

    it('one account is one key however its e-mail is typed (case, spaces)', async () => {
      clock.now += 60 * MINUTE;
      await spend({ email: 'Mixed@Example.com', address: '192.0.2.10' }, 2);
      await spend({ email: '  mixed@example.COM ', address: '192.0.2.10' }, 1);
      expect((await throttle.attempt({ email: 'mixed@example.com', address: '192.0.2.10' })).allowed).toBe(false);
    });

    it('an IPv4 address mapped into IPv6 is the same client as the IPv4 address', async () => {
      clock.now += 60 * MINUTE;
      await spend({ email: 'mapped@example.com', address: '192.0.2.20' }, 3);
      expect((await throttle.attempt({ email: 'mapped@example.com', address: '::ffff:192.0.2.20' })).allowed).toBe(false);
    });

    it('a successful sign-in clears the account\'s failures from that client and gives the address one back', async () => {
      clock.now += 60 * MINUTE;
      const attempt = { email: 'ok@example.com', address: '192.0.2.30' };
      await spend(attempt, 3);
      await throttle.succeeded(attempt);
      await spend(attempt, 3);
      const { rows } = await sql<{ failures: number }>`select failures from ${sql.table(SIGN_IN_FAILURES_TABLE)} where key = 'address:192.0.2.30'`.execute(database.db);
      expect(Number(rows[0]!.failures)).toBe(5);
    });

    it('an address over its limit is told when its window ends, whatever account it tries', async () => {
      clock.now += 60 * MINUTE;
      for (let i = 0; i < 6; i += 1) await spend({ email: `user${i}@example.com`, address: '198.51.100.40' }, 1);
      clock.now += 5 * MINUTE;
      expect(await throttle.attempt({ email: 'new@example.com', address: '198.51.100.40' })).toEqual({ allowed: false, retryAfter: 10 * 60 });
      clock.now += 10 * MINUTE;
      expect(await throttle.attempt({ email: 'new@example.com', address: '198.51.100.40' })).toEqual({ allowed: true });
    });

    it('a user without a generation row is at generation 0; raising it refuses every older session', async () => {
      expect(await revocations.generation(41)).toBe(0);
      expect(await revocations.holds(41, 0, 'session-a')).toBe(true);
      expect(await revocations.raiseGeneration(41)).toBe(1);
      expect(await revocations.raiseGeneration(41)).toBe(2);
      expect(await revocations.holds(41, 0, 'session-a')).toBe(false);
      expect(await revocations.holds(41, 2, 'session-a')).toBe(true);
      // Another user is not touched.
      expect(await revocations.holds(42, 0, 'session-b')).toBe(true);
    });

    it('a revoked session id is refused until its own expiry, then forgotten at the next revocation', async () => {
      await revocations.revokeSession('session-c', clock.now + MINUTE);
      await revocations.revokeSession('session-c', clock.now + MINUTE);
      expect(await revocations.holds(43, 0, 'session-c')).toBe(false);
      expect(await revocations.holds(43, 0, 'session-d')).toBe(true);
      clock.now += 2 * MINUTE;
      await revocations.revokeSession('session-e', clock.now + MINUTE);
      const { rows } = await sql<{ session_id: string }>`select session_id from panel_revoked_sessions order by session_id`.execute(database.db);
      expect(rows.map((r) => r.session_id)).toEqual(['session-e']);
    });

    it('user ids are compared as text: the uuid of one user is never another\'s', async () => {
      const uuid = '0b9f6c1e-1d5e-4a65-9a2c-3f1f2f3f4f5f';
      await revocations.raiseGeneration(uuid);
      expect(await revocations.generation(uuid)).toBe(1);
      expect(await revocations.generation(uuid.toUpperCase())).toBe(0);
    });
  });
}
