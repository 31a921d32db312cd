import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeNotifications, createPanel, runPanelMigrations, type Change, type Panel, type PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';

const OLD_SECRET = 'an-old-session-secret-of-32-characters';
const NEW_SECRET = 'a-new-session-secret-of-32-characters!';
const MINUTE = 60_000;

for (const kind of testDatabaseKinds()) {
  describe(`a panel session from sign-in to sign-out [${kind}]`, () => {
    let database: PanelDatabase;
    let panel: Panel;
    let rotated: Panel;
    const clock = { now: Date.parse('2026-11-22T08:00:00Z') };
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await runPanelMigrations(database);
      const session = { now: () => clock.now, lifetime: 3600, idleTimeout: 1800, confirmWindow: 300 };
      panel = await createPanel({ database, resources: [], sessionSecret: OLD_SECRET, session });
      rotated = await createPanel({ database, resources: [], sessionSecret: [NEW_SECRET, OLD_SECRET], session });
    });
    afterAll(async () => {
      await database?.close();
    });
    const sessions = () => panel.sessions!;

    it('start seals the user, a fresh CSRF token and the app\'s data, at the user\'s current generation, confirmed now', async () => {
      const a = sessions().read(await sessions().start(7, { theme: 'dark' }))!;
      const b = sessions().read(await sessions().start(7))!;
      expect(a.data).toMatchObject({ userId: 7, theme: 'dark' });
      expect(a.data.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(a.data.csrfToken).not.toBe(b.data.csrfToken);
      expect(a.sessionId).not.toBe(b.sessionId);
      expect(a.generation).toBe(0);
      expect(a.confirmedAt).toBe(sessions().nowSeconds());
      expect(sessions().isRecentlyConfirmed(a)).toBe(true);
    });

    it('the user cannot choose the CSRF token through the data passed to start', async () => {
      const opened = sessions().read(await sessions().start(7, { csrfToken: 'attacker-chosen' }))!;
      expect(opened.data.csrfToken).not.toBe('attacker-chosen');
    });

    it('sudo mode lasts confirmWindow seconds from the confirmation, then needs the password again; confirm opens it again', async () => {
      const cookie = await sessions().start(8);
      clock.now += 299_000;
      expect(sessions().isRecentlyConfirmed(sessions().read(cookie))).toBe(true);
      clock.now += 1_000;
      const stale = sessions().read(cookie)!;
      expect(sessions().isRecentlyConfirmed(stale)).toBe(false);
      expect(sessions().isRecentlyConfirmed(sessions().read(sessions().confirm(stale)))).toBe(true);
      expect(sessions().isRecentlyConfirmed(null)).toBe(false);
    });

    it('a reseal keeps the session\'s id, sign-in time and generation, merges data, and is due only after a minute', async () => {
      const first = sessions().read(await sessions().start(9, { step: 1 }))!;
      expect(sessions().needsRefresh(first)).toBe(false);
      clock.now += MINUTE;
      expect(sessions().needsRefresh(first)).toBe(true);
      const again = sessions().read(sessions().reseal(first, { data: { step: 2 } }))!;
      expect(again).toMatchObject({ sessionId: first.sessionId, issuedAt: first.issuedAt, generation: first.generation, confirmedAt: first.confirmedAt });
      expect(again.data).toMatchObject({ userId: 9, step: 2, csrfToken: first.data.csrfToken });
      expect(again.seenAt).toBe(sessions().nowSeconds());
      expect(sessions().needsRefresh(again)).toBe(false);
    });

    it('resealing keeps the session alive past the idle timeout, but never past its lifetime', async () => {
      let cookie = await sessions().start(10);
      // Two steps of 20 minutes: 40 minutes in all, past the 30-minute idle timeout.
      for (let step = 0; step < 2; step += 1) {
        clock.now += 20 * MINUTE;
        const opened = await sessions().verify(cookie);
        expect(opened, `after ${(step + 1) * 20} minutes`).not.toBeNull();
        cookie = sessions().reseal(opened!);
      }
      // 60 minutes after sign-in, though seen 20 minutes ago: the absolute lifetime is over.
      clock.now += 20 * MINUTE;
      expect(await sessions().verify(cookie)).toBeNull();
    });

    it('rotation: a panel listing the new secret first opens a cookie of the old one, says it is due, and reseals it with the new one', async () => {
      const oldCookie = await sessions().start(11);
      const opened = (await rotated.sessions!.verify(oldCookie))!;
      expect(opened.sealedWithOlderSecret).toBe(true);
      expect(rotated.sessions!.needsRefresh(opened)).toBe(true);
      const resealed = rotated.sessions!.reseal(opened);
      expect(rotated.sessions!.read(resealed)!.sealedWithOlderSecret).toBe(false);
      // The old panel, which does not know the new secret, cannot open it.
      expect(sessions().read(resealed)).toBeNull();
    });

    it('revokeAll signs the user out everywhere; a session started afterwards holds', async () => {
      const before = await sessions().start(12);
      await sessions().revokeAll(12);
      expect(await sessions().verify(before)).toBeNull();
      const after = await sessions().start(12);
      expect((await sessions().verify(after))?.generation).toBe(1);
      // Another user's sessions hold.
      expect(await sessions().verify(await sessions().start(13))).not.toBeNull();
    });

    it('revoke signs one session out: its copies, before and after a reseal, are refused; the user\'s other session holds', async () => {
      const one = await sessions().start(14);
      const two = await sessions().start(14);
      const resealed = sessions().reseal(sessions().read(one)!);
      await sessions().revoke(sessions().read(one)!);
      expect(await sessions().verify(one)).toBeNull();
      expect(await sessions().verify(resealed)).toBeNull();
      expect(await sessions().verify(two)).not.toBeNull();
    });

    it('a cookie altered by one character, or empty, or absent, is no session', async () => {
      const cookie = await sessions().start(15);
      const flipped = `${cookie.slice(0, 20)}${cookie[20] === 'A' ? 'B' : 'A'}${cookie.slice(21)}`;
      for (const value of [flipped, '', undefined, 'not-base64!', cookie.slice(0, -2)]) expect(await sessions().verify(value), String(value)).toBeNull();
    });
  });

  describe(`change notifications inside one process [${kind}]`, () => {
    let database: PanelDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
    });
    afterAll(async () => {
      await database?.close();
    });

    it('a published change reaches every subscriber of this process at once; an unsubscribed one hears nothing more', async () => {
      const changes = database.changes!;
      const heard: { who: string; change: Change }[] = [];
      const stopA = changes.subscribe({ change: (change) => heard.push({ who: 'a', change }), reset: () => undefined });
      const stopB = changes.subscribe({ change: (change) => heard.push({ who: 'b', change }), reset: () => undefined });
      await changes.publish({ kind: 'records', table: 'posts' });
      expect(heard.map((h) => h.who).sort()).toEqual(['a', 'b']);
      expect(heard[0]!.change).toEqual({ kind: 'records', table: 'posts' });
      stopA();
      heard.length = 0;
      await changes.publish({ kind: 'grants' });
      expect(heard).toEqual([{ who: 'b', change: { kind: 'grants' } }]);
      stopB();
    });

    it('a channel of its own per schema, so tenants on one server never hear each other', () => {
      const noop = { warn: () => undefined };
      expect(new ChangeNotifications({ primary: database.db, logger: noop }).channel).toBe('panel_changes');
      expect(new ChangeNotifications({ primary: database.db, logger: noop, schema: 'tenant_a' }).channel).toBe('panel_changes:tenant_a');
    });

    it('without a connection to listen on (one process), it is live from the start', async () => {
      const local = new ChangeNotifications({ primary: database.db, logger: { warn: () => undefined } });
      expect(local.live).toBe(true);
      await local.ready();
      await local.close();
    });
  });
}
