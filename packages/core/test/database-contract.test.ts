// "the database dialect (PGlite and PostgreSQL run the same suite)": both drivers give the API the same values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { isPanelError, openDatabase, type ExecutedQuery, type PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';

for (const kind of testDatabaseKinds()) {
  describe(`one database contract for both drivers [${kind}]`, () => {
    let database: PanelDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
    });
    afterAll(async () => {
      await database?.close();
    });

    const one = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(database.db)).rows[0] as T;

    it('says which engine it is', () => {
      expect(database.kind).toBe(kind);
    });

    it('numeric and bigint come back as numbers, not strings', async () => {
      const row = await one(sql<{ price: unknown; total: unknown; count: unknown }>`select 12.50::numeric(8, 2) as price, 9007199254740991::int8 as total, count(*) as count from (values (1), (2)) as v(x)`);
      expect(row).toEqual({ price: 12.5, total: 9007199254740991, count: 2 });
    });

    it('a date comes back as the calendar day text, never a Date at some midnight', async () => {
      expect(await one(sql<{ day: unknown }>`select date '2024-02-29' as day`)).toEqual({ day: '2024-02-29' });
      expect(await one(sql<{ day: unknown }>`select date '0050-06-15' as day`)).toEqual({ day: '0050-06-15' });
    });

    it('a timestamptz comes back as the same instant, whatever the zone it was written in', async () => {
      const row = await one(sql<{ at: Date }>`select timestamptz '2026-11-22 11:40:10.397+01' as at`);
      expect(row.at).toBeInstanceOf(Date);
      expect(row.at.toISOString()).toBe('2026-11-22T10:40:10.397Z');
    });

    it('jsonb, text[] and boolean come back as JavaScript values', async () => {
      const row = await one(sql<{ doc: unknown; tags: unknown; yes: unknown; nothing: unknown }>`select '{"a":[1,"b",null]}'::jsonb as doc, array['x','y']::text[] as tags, true as yes, null::text as nothing`);
      expect(row).toEqual({ doc: { a: [1, 'b', null] }, tags: ['x', 'y'], yes: true, nothing: null });
    });

    it('parameters are bound, never spliced: a value with quotes and an SQL comment is just text', async () => {
      const text = "'); select 1; --";
      expect(await one(sql<{ echoed: string }>`select ${text}::text as echoed`)).toEqual({ echoed: text });
    });

    it('onQuery hears each statement with its parameters and whether it failed, until unsubscribed', async () => {
      const heard: ExecutedQuery[] = [];
      const stop = database.onQuery((query) => heard.push(query));
      await sql`select ${41}::int + 1 as answer`.execute(database.db);
      await sql`select * from no_such_table`.execute(database.db).catch(() => undefined);
      stop();
      await sql`select 1`.execute(database.db);
      expect(heard).toHaveLength(2);
      expect(heard[0]).toMatchObject({ sql: 'select $1::int + 1 as answer', parameters: [41], failed: false });
      expect(heard[0]!.durationMillis).toBeGreaterThanOrEqual(0);
      expect(heard[1]).toMatchObject({ sql: 'select * from no_such_table', failed: true });
    });

    it('a failed statement is the driver\'s error with PostgreSQL\'s SQLSTATE, and the connection stays usable', async () => {
      const error = await sql`select 1 / 0`.execute(database.db).then(() => undefined, (reason: unknown) => reason as { code?: string });
      expect(error?.code).toBe('22012');
      expect(await one(sql<{ ok: number }>`select 1 as ok`)).toEqual({ ok: 1 });
    });

    it('a transaction commits as a whole or not at all', async () => {
      await sql`create table contract_rows (id integer primary key)`.execute(database.db);
      await database.db.transaction().execute(async (trx) => {
        await trx.insertInto('contract_rows').values({ id: 1 }).execute();
      });
      await database.db
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('contract_rows').values({ id: 2 }).execute();
          await trx.insertInto('contract_rows').values({ id: 1 }).execute();
        })
        .catch(() => undefined);
      expect((await database.db.selectFrom('contract_rows').select('id').execute()).map((r) => r.id)).toEqual([1]);
    });
  });
}

describe('openDatabase options', () => {
  const configFailure = async (work: Promise<unknown>) => {
    const error = await work.then(() => undefined, (reason: unknown) => reason);
    expect(isPanelError(error, 'PANEL_ERR_CONFIG'), String(error)).toBe(true);
    return (error as Error).message;
  };

  it('refuses a URL that is not PostgreSQL\'s, naming the fix, before connecting', async () => {
    expect(await configFailure(openDatabase({ url: 'mysql://localhost/app' }))).toBe(
      'Database url must start with postgres:// or postgresql://, instead got "mysql://localhost/app". Fix: set DATABASE_URL to a PostgreSQL URL, or unset it to use the embedded PGlite.',
    );
  });

  it('refuses a schema that is not a lower-case identifier (it is written into statements)', async () => {
    for (const schema of ['Public', 'app-data', 'x; drop schema public', '1st']) {
      expect(await configFailure(openDatabase({ url: 'postgres://127.0.0.1:1/none', schema })), schema).toBe(`Database schema must be a lower-case identifier, instead got "${schema}".`);
    }
  });

  it('refuses replicas without a PostgreSQL primary', async () => {
    expect(await configFailure(openDatabase({ replicas: ['postgres://127.0.0.1:1/replica'] } as never))).toMatch(/^Database replicas need a PostgreSQL primary, and no url was given\./);
  });
});
