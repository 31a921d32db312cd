// Issue 42, item 12: "The listener notices a dead connection within a bound you state
// (heartbeat), drops the caches it guards and reconnects." The stated bound: twice
// DEFAULT_HEARTBEAT_MILLIS, 2 s (a `select 1` after a second, to be answered within a second).
// The dead connection is made as a frozen server or a black-holed route makes it: the bytes stop,
// nothing closes (the fault proxy's stall). TCP alone takes minutes to notice that. PGlite runs
// in the process and listens on no connection: its channel is live from the start, and stays so.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HEARTBEAT_MILLIS, openDatabase, type Change, type PanelDatabase } from '@panel/core';
import { createTestSchema, openTestDatabase, startTcpFaultProxy, testDatabaseKinds, testDatabaseUrl, type TcpFaultProxy, type TestSchema } from '@panel/test-support';

const BOUND_MILLIS = 2 * DEFAULT_HEARTBEAT_MILLIS;
/** What a loaded machine adds to the bound: the heartbeat's timers fire late when the process waits for a core. */
const SCHEDULING_MILLIS = 1_000;

const until = async (done: () => boolean, millis: number) => {
  const started = performance.now();
  while (!done() && performance.now() - started < millis) await new Promise((resolve) => setTimeout(resolve, 10));
  return performance.now() - started;
};

describe.runIf(testDatabaseKinds().includes('postgres'))('the listening connection\'s heartbeat [postgres]', () => {
  let schema: TestSchema;
  let proxy: TcpFaultProxy;
  /** A process whose connections, its listening one included, pass through the proxy. */
  let proxied: PanelDatabase;
  /** Another process, connected directly. */
  let other: PanelDatabase;
  /** The schema's URL through the proxy. */
  const proxiedUrl = () => {
    const url = new URL(schema.url);
    url.host = proxy.address;
    return url.toString();
  };
  beforeAll(async () => {
    schema = await createTestSchema();
    const server = new URL(testDatabaseUrl());
    proxy = await startTcpFaultProxy({ host: server.hostname, port: Number(server.port || 5432) });
    proxied = await openDatabase({ url: proxiedUrl(), schema: schema.schema, maxConnections: 1, applicationName: `panel-heartbeat-${process.pid}` });
    other = await openDatabase({ url: schema.url, schema: schema.schema, maxConnections: 1 });
  });
  afterAll(async () => {
    await proxy?.heal();
    await proxied?.close();
    await other?.close();
    await proxy?.close();
    await schema?.drop();
  });

  it(`"notices a dead connection within a bound you state (${BOUND_MILLIS} ms), drops the caches it guards and reconnects"`, async () => {
    let resets = 0;
    const heard: Change[] = [];
    proxied.changes!.subscribe({ change: (change) => heard.push(change), reset: () => (resets += 1) });
    await proxied.changes!.ready();
    expect(proxied.changes!.live).toBe(true);
    resets = 0;

    // A live connection answers its heartbeats: nothing is reset while the traffic flows.
    await new Promise((resolve) => setTimeout(resolve, 3 * DEFAULT_HEARTBEAT_MILLIS));
    expect(resets).toBe(0);
    expect(proxied.changes!.live).toBe(true);

    await proxy.stall();
    const noticed = await until(() => resets > 0, 10_000);
    expect(resets, 'the dead connection was never noticed').toBeGreaterThan(0);
    expect(proxied.changes!.live).toBe(false);
    expect(noticed).toBeLessThan(BOUND_MILLIS + SCHEDULING_MILLIS);

    await proxy.heal();
    const back = await until(() => proxied.changes!.live, 20_000);
    expect(proxied.changes!.live, 'it did not listen again').toBe(true);
    await other.changes!.publish({ kind: 'token', id: 42 });
    await until(() => heard.some((change) => change.kind === 'token' && change.id === 42), 5_000);
    expect(heard).toContainEqual({ kind: 'token', id: 42 });
    console.log(`listener heartbeat: a silent connection noticed after ${noticed.toFixed(0)} ms (bound ${BOUND_MILLIS} ms), listening again ${back.toFixed(0)} ms after the traffic flowed`);
  }, 60_000);

  // The rule: "nothing waits without a timeout". A shutdown (closeOnSignals: the server, then the
  // database) that meets a frozen server must end within the listener's bound, not hold the drain
  // until its deadline and exit 1: the listening connection's polite `end()` waits for an answer
  // that never comes, so it is given the heartbeat's second and then its socket is destroyed.
  it(`"nothing waits without a timeout": closing while the server is frozen ends within ${BOUND_MILLIS} ms, the listening connection's socket destroyed`, async () => {
    const closing = await openDatabase({ url: proxiedUrl(), schema: schema.schema, maxConnections: 1, applicationName: `panel-heartbeat-close-${process.pid}` });
    closing.changes!.subscribe({ change: () => undefined, reset: () => undefined });
    await closing.changes!.ready();
    expect(closing.changes!.live).toBe(true);
    // An idle pooled connection too.
    await sql`select 1`.execute(closing.db);
    await proxy.stall();
    try {
      const started = performance.now();
      const closed = await Promise.race([closing.close().then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 15_000))]);
      const took = performance.now() - started;
      expect(closed, 'database.close() was still waiting after 15 s').toBe(true);
      expect(took).toBeLessThan(BOUND_MILLIS + SCHEDULING_MILLIS);
    } finally {
      await proxy.heal();
    }
  }, 30_000);
});

describe.runIf(testDatabaseKinds().includes('pglite'))('the change channel of PGlite [pglite]', () => {
  let database: PanelDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
  });
  afterAll(async () => database?.close());

  it('has no connection to lose: live from the start and through several heartbeats, never reset', async () => {
    let resets = 0;
    database.changes!.subscribe({ change: () => undefined, reset: () => (resets += 1) });
    await database.changes!.ready();
    await new Promise((resolve) => setTimeout(resolve, 3 * DEFAULT_HEARTBEAT_MILLIS));
    expect(database.changes!.live).toBe(true);
    expect(resets).toBe(0);
  });
});
