// A transaction's `begin` is held back and sent in one write with the transaction's first
// statement, and a last statement marked `sentWithCommit` in one write with its commit (both
// postgres-pool.ts's `PrefixedQuery`): a round trip fewer for each, with the same transaction
// and the same outcome. The round trips are counted on the wire, by a proxy between the pool
// and PostgreSQL that counts the server's ReadyForQuery messages (one per round trip).
// PostgreSQL only: PGlite has no wire.
import { afterEach, describe, expect, it } from 'vitest';
import { CompiledQuery, sql, type Transaction } from 'kysely';
import { openDatabase, sentWithCommit, type PanelDatabase } from '@panel/core';
import { createTestSchema, startTcpFaultProxy, testDatabaseKinds, testDatabaseUrl } from '@panel/test-support';
import { createPostgresPool } from '../src/database/postgres-pool.js';
import { normalizeDatabaseTimeouts } from '../src/database/database-timeouts.js';
import { consoleDatabaseLogger } from '../src/database/database-logger.js';

const onPostgres = testDatabaseKinds().includes('postgres');

/** The test support's TCP proxy in front of the server at `url`, counting the ReadyForQuery ('Z') messages the server sends. */
async function countingProxy(url: string): Promise<{ url: string; readyForQuery: () => number; close: () => Promise<void> }> {
  const target = new URL(url);
  const proxy = await startTcpFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
  let count = 0;
  const pending = new Map<number, Buffer>();
  proxy.onServerData((chunk, connection) => {
    let bytes = Buffer.concat([pending.get(connection) ?? Buffer.alloc(0), chunk]);
    // Each message: a type byte, then its length (itself included) as a 32-bit integer.
    while (bytes.length >= 5 && bytes.length >= 1 + bytes.readInt32BE(1)) {
      if (bytes[0] === 0x5a) count += 1;
      bytes = bytes.subarray(1 + bytes.readInt32BE(1));
    }
    pending.set(connection, bytes);
  });
  const proxied = new URL(url);
  proxied.host = proxy.address;
  return { url: proxied.toString(), readyForQuery: () => count, close: () => proxy.close() };
}

/** What each test opened, closed after it. */
const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

/**
 * One connection through the counting proxy, a table `t`, and a function counting the round
 * trips of `work`. PostgreSQL sees the proxy's socket, so statements go unnamed by default, as
 * behind a pooler; `preparedStatements: true` names them.
 */
async function open(preparedStatements?: true) {
  const { url, schema, drop } = await createTestSchema();
  const proxy = await countingProxy(url);
  const database = await openDatabase({ url: proxy.url, schema, maxConnections: 1, ...(preparedStatements ? { preparedStatements } : {}) });
  opened.push(drop, proxy.close, () => database.close());
  await sql`create table t (id integer primary key, name text)`.execute(database.db);
  const roundTrips = async (work: () => Promise<unknown>) => {
    const before = proxy.readyForQuery();
    await work();
    return proxy.readyForQuery() - before;
  };
  return { database, roundTrips };
}
const xid = (db: PanelDatabase['db']) => sql<{ xid: string }>`select txid_current()::text as xid where ${1} = 1`.execute(db).then((r) => r.rows[0]!.xid);
const names = async (database: PanelDatabase) => (await sql<{ name: string }>`select name from t order by id`.execute(database.db)).rows.map((row) => row.name);
/** A transaction that inserts row 2 and then runs `second`; the error it ends with (undefined when it committed). */
const insertsTwoThen = (database: PanelDatabase, second: (trx: Transaction<any>) => Promise<unknown>) =>
  database.db
    .transaction()
    .execute(async (trx) => {
      await trx.insertInto('t').values({ id: 2, name: 'two' }).execute();
      await second(trx);
    })
    .then(() => undefined, (error: unknown) => error);

describe.runIf(onPostgres)('begin sent with the first statement [postgres]', () => {

  it('"one round trip fewer per transaction": begin, three statements and commit take four round trips, in one transaction', async () => {
    const { database, roundTrips } = await open();
    let ids: string[] = [];
    const trips = await roundTrips(() =>
      database.db.transaction().execute(async (trx) => {
        ids = [await xid(trx), await xid(trx)];
        await trx.insertInto('t').values({ id: 1, name: 'one' }).execute();
      }),
    );
    // begin + the first statement, the second, the insert, commit.
    expect(trips).toBe(4);
    expect(ids[0]).toBe(ids[1]);
    expect(await names(database)).toEqual(['one']);
    // Outside a transaction, each statement is its own again.
    expect(await xid(database.db)).not.toBe(await xid(database.db));
  });

  it('a failing statement rolls the transaction back, the first statement included, and the connection is clean after', async () => {
    const { database } = await open();
    await sql`insert into t values (1, 'one')`.execute(database.db);
    const failed = await insertsTwoThen(database, (trx) => trx.insertInto('t').values({ id: 1, name: 'again' }).execute());
    expect(failed).toMatchObject({ code: '23505' });
    expect(await names(database)).toEqual(['one']);
    // The first statement failing (with begin in the same write) also leaves nothing behind.
    const first = await database.db
      .transaction()
      .execute((trx) => trx.insertInto('t').values({ id: 1, name: 'again' }).execute())
      .catch((error: unknown) => error);
    expect(first).toMatchObject({ code: '23505' });
    expect(await xid(database.db)).not.toBe(await xid(database.db));
    expect(await names(database)).toEqual(['one']);
  });

  it('a transaction with no statement sends nothing, and one that throws before its first statement leaves no transaction open', async () => {
    const { database, roundTrips } = await open();
    expect(await roundTrips(() => database.db.transaction().execute(async () => 'nothing'))).toBe(0);
    await expect(
      database.db.transaction().execute(async () => {
        throw new Error('before any statement');
      }),
    ).rejects.toThrow('before any statement');
    expect(await xid(database.db)).not.toBe(await xid(database.db));
  });

  it('a first statement without parameters is sent after begin, as before, in the same transaction', async () => {
    const { database, roundTrips } = await open();
    let ids: string[] = [];
    const trips = await roundTrips(() =>
      database.db.transaction().execute(async (trx) => {
        const first = (await sql<{ xid: string }>`select txid_current()::text as xid`.execute(trx)).rows[0]!.xid;
        ids = [first, await xid(trx)];
      }),
    );
    expect(trips).toBe(4);
    expect(ids[0]).toBe(ids[1]);
  });

  it('a named (prepared) first statement travels with begin too: two round trips per transaction, the first time and after', async () => {
    const { database, roundTrips } = await open(true);
    const prepared = async () => (await sql<{ name: string }>`select name from pg_prepared_statements`.execute(database.db)).rows.length;
    for (const id of [1, 2]) {
      let ids: string[] = [];
      // begin + the named insert (its Parse the first time, not the second), then commit.
      const trips = await roundTrips(() =>
        database.db.transaction().execute(async (trx) => {
          await trx.insertInto('t').values({ id, name: `n${id}` }).execute();
          ids = [await xid(trx), await xid(trx)];
        }),
      );
      expect(trips).toBe(4);
      expect(ids[0]).toBe(ids[1]);
    }
    expect(await names(database)).toEqual(['n1', 'n2']);
    expect(await prepared()).toBeGreaterThanOrEqual(2);
  });

  it('a named first statement whose Parse fails (begin\'s Parse succeeded in the same write): its next use parses it again', async () => {
    const { database } = await open(true);
    const find = () => database.db.transaction().execute((trx) => sql<{ id: number }>`select id from later where id = ${1}`.execute(trx));
    await expect(find()).rejects.toMatchObject({ code: '42P01' });
    await sql`create table later (id integer primary key)`.execute(database.db);
    await sql`insert into later values (1)`.execute(database.db);
    // Without forgetting the name, pg would skip the Parse and PostgreSQL answer 26000 (no such prepared statement).
    expect((await find()).rows).toEqual([{ id: 1 }]);
  });

  it('a statement sent in another form (a config object) after begin still runs in the transaction: begin goes first', async () => {
    const pool = createPostgresPool({ url: testDatabaseUrl(), schema: undefined, maxConnections: 1, applicationName: 'panel-test', timeouts: normalizeDatabaseTimeouts({}), logger: consoleDatabaseLogger });
    const client = await pool.connect();
    try {
      await client.query('begin', []);
      const xid = async () => (await client.query<{ xid: string }>({ text: 'select txid_current()::text as xid' })).rows[0]!.xid;
      const [first, second] = [await xid(), await xid()];
      expect(first).toBe(second);
      await client.query('commit', []);
      expect(await xid()).not.toBe(await xid());
    } finally {
      client.release();
      await pool.end();
    }
  });
});

describe.runIf(onPostgres)('a last statement sent with the commit (sentWithCommit) [postgres]', () => {
  const insertWithCommit = (id: number, name: string) => CompiledQuery.raw(sentWithCommit('insert into t (id, name) values ($1, $2)'), [id, name]);

  it('"costs no round trip of its own": begin with the first statement, then the marked statement with commit, two round trips, both written', async () => {
    const { database, roundTrips } = await open();
    const trips = await roundTrips(() =>
      database.db.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ id: 1, name: 'one' }).execute();
        await trx.executeQuery(insertWithCommit(2, 'two'));
      }),
    );
    expect(trips).toBe(2);
    expect(await names(database)).toEqual(['one', 'two']);
  });

  it('"its error is the commit\'s, and the transaction rolls back": nothing of the transaction is written, and the connection is clean after', async () => {
    const { database } = await open();
    await sql`insert into t values (1, 'one')`.execute(database.db);
    const failed = await insertsTwoThen(database, (trx) => trx.executeQuery(insertWithCommit(1, 'again')));
    expect(failed).toMatchObject({ code: '23505', constraint: 't_pkey' });
    expect(await names(database)).toEqual(['one']);
    expect(await xid(database.db)).not.toBe(await xid(database.db));
  });

  it('"rollback drops it unsent": the transaction rolled back leaves nothing, in two round trips', async () => {
    const { database, roundTrips } = await open();
    const trips = await roundTrips(() =>
      database.db
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('t').values({ id: 1, name: 'one' }).execute();
          await trx.executeQuery(insertWithCommit(2, 'two'));
          throw new Error('the caller changed its mind');
        })
        .catch(() => undefined),
    );
    expect(trips).toBe(2);
    expect(await names(database)).toEqual([]);
  });

  it('"any other statement sends it first": a statement after it sees its row, in the same transaction', async () => {
    const { database } = await open();
    const seen = await database.db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ id: 1, name: 'one' }).execute();
      await trx.executeQuery(insertWithCommit(2, 'two'));
      return (await sql<{ name: string }>`select name from t where id = ${2}`.execute(trx)).rows.map((row) => row.name);
    });
    expect(seen).toEqual(['two']);
    expect(await names(database)).toEqual(['one', 'two']);
  });

  it('a named (prepared) statement sent with commit: its first use on a connection prepares it in place, later ones are bound with commit in one write, a failed one leaves it prepared', async () => {
    const { database, roundTrips } = await open(true);
    const keyed = (first: number, last: number) =>
      database.db.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ id: first, name: `n${first}` }).execute();
        await trx.executeQuery(insertWithCommit(last, `n${last}`));
      });
    // begin + the insert, the marked statement in place (its Parse), commit.
    expect(await roundTrips(() => keyed(1, 2))).toBe(3);
    // begin + the insert, the marked statement bound in front of commit.
    expect(await roundTrips(() => keyed(3, 4))).toBe(2);
    const failed = await keyed(5, 4).then(() => undefined, (error: unknown) => error);
    expect(failed).toMatchObject({ code: '23505', constraint: 't_pkey' });
    expect(await roundTrips(() => keyed(6, 7))).toBe(2);
    expect(await names(database)).toEqual(['n1', 'n2', 'n3', 'n4', 'n6', 'n7']);
  });

  it('outside a transaction, and as a transaction\'s first statement, it runs where it stands', async () => {
    const { database } = await open();
    await database.db.executeQuery(insertWithCommit(1, 'alone'));
    expect(await names(database)).toEqual(['alone']);
    await database.db.transaction().execute((trx) => trx.executeQuery(insertWithCommit(2, 'first')));
    expect(await names(database)).toEqual(['alone', 'first']);
  });
});
