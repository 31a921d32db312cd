import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSchema, openTestDatabase, testDatabaseKinds, type TestSchema } from '@panel/test-support';
import { openDatabase, type Change, type PanelDatabase } from '../src/index.js';

/** The stated bound: a change published by one process reaches every other listening process within this. */
const DELIVERY_BOUND_MILLIS = 1_000;

/** The `application_name` this file's databases connect with (`<name> listen` for their listening connections). */
const LISTENER_NAME = `panel-cn-test-${process.pid}`;

const describePostgres = testDatabaseKinds().includes('postgres') ? describe : describe.skip;

describePostgres('change notifications across processes (LISTEN/NOTIFY on panel_changes) [postgres]', () => {
  let schema: TestSchema;
  let one: PanelDatabase;
  let two: PanelDatabase;
  beforeAll(async () => {
    schema = await createTestSchema();
    // Two databases opened as two processes open them: their own pools and listening connections.
    // A name of this file's own, so that ending its listening connections below leaves the other
    // suites' listeners on the shared server alone.
    one = await openDatabase({ url: schema.url, schema: schema.schema, maxConnections: 2, applicationName: LISTENER_NAME });
    two = await openDatabase({ url: schema.url, schema: schema.schema, maxConnections: 2, applicationName: LISTENER_NAME });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await schema?.drop();
  });

  it(`"invalidated across processes within a bound you state and test": a change published by one reaches the other within ${DELIVERY_BOUND_MILLIS} ms, and the publisher at once`, async () => {
    const heard: Change[] = [];
    const mine: Change[] = [];
    let resets = 0;
    two.changes!.subscribe({ change: (change) => heard.push(change), reset: () => (resets += 1) });
    one.changes!.subscribe({ change: (change) => mine.push(change), reset: () => undefined });
    await two.changes!.ready();
    expect(two.changes!.live).toBe(true);
    const figures: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const started = performance.now();
      await one.changes!.publish({ kind: 'token', id: i });
      expect(mine.at(-1)).toEqual({ kind: 'token', id: i });
      while (!heard.some((change) => change.kind === 'token' && change.id === i) && performance.now() - started < DELIVERY_BOUND_MILLIS) await new Promise((resolve) => setTimeout(resolve, 2));
      figures.push(performance.now() - started);
    }
    expect(heard.filter((change) => change.kind === 'token')).toHaveLength(20);
    expect(Math.max(...figures)).toBeLessThan(DELIVERY_BOUND_MILLIS);
    console.log(`change notifications: delivered to the other process in max ${Math.max(...figures).toFixed(1)} ms, median ${figures.sort((a, b) => a - b)[10]!.toFixed(1)} ms`);
    // The first connection resets what was cached before it; a process never hears its own change twice.
    expect(resets).toBe(1);
    expect(mine.filter((change) => change.kind === 'token')).toHaveLength(20);
  });

  it('while the listening connection is lost, the channel is not live and subscribers are reset; it listens again by itself', async () => {
    let resets = 0;
    two.changes!.subscribe({ change: () => undefined, reset: () => (resets += 1) });
    const admin = await openDatabase({ url: schema.url, maxConnections: 1 });
    try {
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${`${LISTENER_NAME} listen`} and pid <> pg_backend_pid()`.execute(admin.db);
    } finally {
      await admin.close();
    }
    const started = Date.now();
    while (resets === 0 && Date.now() - started < 5_000) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(resets).toBeGreaterThan(0);
    while (!two.changes!.live && Date.now() - started < 10_000) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(two.changes!.live).toBe(true);
  }, 20_000);
});

describe('change notifications on PGlite: one process, delivered in it [pglite]', () => {
  let database: PanelDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
  });
  afterAll(async () => database?.close());

  it('is always live, and delivers a change to the subscribers at once', async () => {
    const heard: Change[] = [];
    database.changes!.subscribe({ change: (change) => heard.push(change), reset: () => undefined });
    expect(database.changes!.live).toBe(true);
    await database.changes!.publish({ kind: 'records', table: 'books' });
    expect(heard).toEqual([{ kind: 'records', table: 'books' }]);
  });
});
