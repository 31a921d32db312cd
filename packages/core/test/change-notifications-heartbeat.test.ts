// Issue 42, item 12: "The listener notices a dead connection within a bound you state
// (heartbeat), drops the caches it guards and reconnects." The stated bound: twice
// DEFAULT_HEARTBEAT_MILLIS, 2 s (a `select 1` after a second, to be answered within a second).
// The dead connection is made as a frozen server or a black-holed route makes it: the bytes stop,
// nothing closes (the fault proxy's stall). TCP alone takes minutes to notice that. PGlite runs
// in the process and listens on no connection: its channel is live from the start, and stays so.
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
  beforeAll(async () => {
    schema = await createTestSchema();
    const server = new URL(testDatabaseUrl());
    proxy = await startTcpFaultProxy({ host: server.hostname, port: Number(server.port || 5432) });
    const url = new URL(schema.url);
    url.host = proxy.address;
    proxied = await openDatabase({ url: url.toString(), schema: schema.schema, maxConnections: 1, applicationName: `panel-heartbeat-${process.pid}` });
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
