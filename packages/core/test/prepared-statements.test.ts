// openDatabase({ preparedStatements }): statements with parameters are sent named, so that each
// PostgreSQL connection plans them once; by default only on connections PostgreSQL sees directly
// (not behind a pooler); the names are bounded; a migration that changes a table's columns under
// a prepared `select *` is handled. PostgreSQL only: PGlite ignores the option.
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, type OpenDatabaseOptions, type PanelDatabase } from '@panel/core';
import { createTestSchema, startTcpFaultProxy, testDatabaseKinds, testDatabaseUrl } from '@panel/test-support';

const onPostgres = testDatabaseKinds().includes('postgres');

describe.runIf(onPostgres)('prepared statements [postgres]', () => {
  const opened: { database: PanelDatabase; drop: () => Promise<void> }[] = [];
  afterEach(async () => {
    for (const { database, drop } of opened.splice(0)) {
      await database.close();
      await drop();
    }
  });

  /** A database of one connection (so the session asked is the one that prepared), with a table `t`. */
  const open = async (preparedStatements: boolean | { max: number }) => {
    const { url, schema, drop } = await createTestSchema();
    const database = await openDatabase({ url, schema, maxConnections: 1, preparedStatements });
    opened.push({ database, drop });
    await sql`create table t (id integer primary key, name text)`.execute(database.db);
    await sql`insert into t values (1, 'one'), (2, 'two'), (3, 'three')`.execute(database.db);
    return database;
  };
  const prepared = async (database: PanelDatabase) =>
    (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements order by name`.execute(database.db)).rows;

  it('"each connection plans a statement once": a statement with parameters is prepared under one name, and sent by it again', async () => {
    const database = await open(true);
    const find = (id: number) => database.db.selectFrom('t').selectAll().where('id', '=', id).executeTakeFirst();
    expect(await find(1)).toEqual({ id: 1, name: 'one' });
    expect(await find(2)).toEqual({ id: 2, name: 'two' });
    const names = await prepared(database);
    expect(names).toHaveLength(1);
    expect(names[0]!.name).toMatch(/^panel_\d+$/);
    expect(names[0]!.statement).toContain('from "t" where "id" = $1');
    // A statement without parameters (the question above, `begin`, `commit`) is never named.
    await database.db.transaction().execute((trx) => trx.selectFrom('t').select('id').execute());
    expect(await prepared(database)).toHaveLength(1);
  });

  it('"later texts are sent unnamed": at most `max` statement texts are prepared, whatever is sent', async () => {
    const database = await open({ max: 2 });
    for (const column of ['id', 'name', 'id, name'] as const) {
      await sql`select ${sql.raw(column)} from t where id = ${1}`.execute(database.db);
    }
    expect(await prepared(database)).toHaveLength(2);
    expect((await sql<{ name: string }>`select name from t where id = ${3}`.execute(database.db)).rows).toEqual([{ name: 'three' }]);
  });

  it('a migration that adds a column under a prepared `select *`: outside a transaction the statement is prepared again and answers the new columns', async () => {
    const database = await open(true);
    const find = () => database.db.selectFrom('t').selectAll().where('id', '=', 1).executeTakeFirst();
    expect(await find()).toEqual({ id: 1, name: 'one' });
    await migrateFromAnotherSession(database);
    expect(await find()).toEqual({ id: 1, name: 'one', note: null });
    expect(await find()).toEqual({ id: 1, name: 'one', note: null });
    // A second migration under the statement prepared again: prepared once more.
    await migrateFromAnotherSession(database, 'tag');
    expect(await find()).toEqual({ id: 1, name: 'one', note: null, tag: null });
  });

  it('the same migration inside a transaction with a savepoint, then a statement outside it: each answers as above', async () => {
    const database = await open(true);
    const find = (db: typeof database.db) => db.selectFrom('t').selectAll().where('id', '=', 3).executeTakeFirst();
    expect(await find(database.db)).toEqual({ id: 3, name: 'three' });
    await migrateFromAnotherSession(database);
    const refused = database.db.transaction().execute(async (trx) => {
      await sql`savepoint before_find`.execute(trx);
      return find(trx);
    });
    await expect(refused).rejects.toMatchObject({ code: 'PANEL_ERR_DATABASE_UNAVAILABLE', reason: 'connection' });
    expect(await find(database.db)).toEqual({ id: 3, name: 'three', note: null });
  });

  it('the same migration inside a transaction: that transaction fails (PostgreSQL aborted it), and the next one prepares the statement again', async () => {
    const database = await open(true);
    const find = (db: typeof database.db) => db.selectFrom('t').selectAll().where('id', '=', 2).executeTakeFirst();
    expect(await find(database.db)).toEqual({ id: 2, name: 'two' });
    await migrateFromAnotherSession(database);
    // Answered as the database being briefly unavailable (the API's 503 with Retry-After): a retry works.
    await expect(database.db.transaction().execute((trx) => find(trx))).rejects.toMatchObject({ code: 'PANEL_ERR_DATABASE_UNAVAILABLE', reason: 'connection' });
    expect(await database.db.transaction().execute((trx) => find(trx))).toEqual({ id: 2, name: 'two', note: null });
    expect(await find(database.db)).toEqual({ id: 2, name: 'two', note: null });
  });

  it('a max that is not a whole number above 0 fails at start, naming the option and the fix', async () => {
    const { url, schema, drop } = await createTestSchema();
    try {
      await expect(openDatabase({ url, schema, preparedStatements: { max: 0 } })).rejects.toThrow(
        'Database preparedStatements.max must be a whole number of statements above 0, instead got 0. Fix: pass preparedStatements: true (the first 256 statements) or { max: <number> }.',
      );
    } finally {
      await drop();
    }
  });
});

describe.runIf(onPostgres)('which connections name statements [postgres]', () => {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });

  /** Runs one statement with a parameter on a database of one connection; the names that connection prepared. */
  const namesAfterOneStatement = async (options: { through?: 'proxy'; preparedStatements?: OpenDatabaseOptions['preparedStatements'] }) => {
    const { url, schema, drop } = await createTestSchema();
    closing.push(drop);
    let target = url;
    if (options.through === 'proxy') {
      const server = new URL(url);
      const proxy = await startTcpFaultProxy({ host: server.hostname, port: Number(server.port || 5432) });
      closing.push(() => proxy.close());
      const proxied = new URL(url);
      proxied.host = proxy.address;
      target = proxied.toString();
    }
    const database = await openDatabase({ url: target, schema, maxConnections: 1, ...(options.preparedStatements === undefined ? {} : { preparedStatements: options.preparedStatements }) });
    closing.push(() => database.close());
    expect((await sql<{ one: number }>`select ${1}::int as one`.execute(database.db)).rows).toEqual([{ one: 1 }]);
    return (await sql<{ name: string }>`select name from pg_prepared_statements`.execute(database.db)).rows.map((row) => row.name);
  };

  it('"the default, \'direct\': only on connections PostgreSQL sees directly": a direct connection names its statements', async () => {
    expect(await namesAfterOneStatement({})).toEqual(['panel_1']);
  });

  it('"behind a pooler [...] statements go unnamed": through a proxy (PostgreSQL sees its socket) the default names none, `true` and { connections: \'all\' } do', async () => {
    expect(await namesAfterOneStatement({ through: 'proxy' })).toEqual([]);
    expect(await namesAfterOneStatement({ through: 'proxy', preparedStatements: { connections: 'direct', max: 10 } })).toEqual([]);
    expect(await namesAfterOneStatement({ through: 'proxy', preparedStatements: true })).toEqual(['panel_1']);
    expect(await namesAfterOneStatement({ through: 'proxy', preparedStatements: { connections: 'all' } })).toEqual(['panel_1']);
  });

  it('"`false`: never": not even on a direct connection', async () => {
    expect(await namesAfterOneStatement({ preparedStatements: false })).toEqual([]);
  });

  it('a connections value other than direct or all fails at start, naming the option and the fix', async () => {
    await expect(openDatabase({ url: testDatabaseUrl(), preparedStatements: { connections: 'some' as 'all' } })).rejects.toThrow(
      `Database preparedStatements.connections must be 'direct' or 'all', instead got "some". Fix: pass 'direct' (connections PostgreSQL sees directly, the default) or 'all' (every connection, e.g. PgBouncer 1.21+ with max_prepared_statements).`,
    );
  });
});

/** Adds a column (`note` by default) to `t` from a connection of its own, as a migration run by another process would. */
async function migrateFromAnotherSession(database: PanelDatabase, column = 'note'): Promise<void> {
  const schema = database.schema!;
  const other = await openDatabase({ url: testDatabaseUrl(), schema, maxConnections: 1 });
  try {
    await sql`alter table t add column ${sql.id(column)} text`.execute(other.db);
  } finally {
    await other.close();
  }
}
