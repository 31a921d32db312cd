// The transaction contract both dialects pass: PostgreSQL through `pg`'s pool, PGlite through
// Panel's own dialect (src/database/pglite-dialect.ts), whose single session must be handed to one
// holder at a time (an earlier PGlite dialect interleaved concurrent transactions and lost a rollback).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kysely, sql } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import type { PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { PGliteDialect } from '../src/database/pglite-dialect.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const kind of testDatabaseKinds()) {
  describe(`transactions on ${kind}`, () => {
    let database: PanelDatabase;
    const db = () => database.db;
    const titles = async () => (await db().selectFrom('notes').select('title').orderBy('title').execute()).map((row) => row.title as string);

    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await db().schema.createTable('notes').addColumn('id', 'serial', (c) => c.primaryKey()).addColumn('title', 'text', (c) => c.notNull().unique()).execute();
    });
    afterAll(async () => {
      await database?.close();
    });

    it('runs two concurrent transactions without mixing them: the one that rolls back loses only its own rows', async () => {
      await db().deleteFrom('notes').execute();
      const failing = db().transaction().execute(async (trx) => {
        await trx.insertInto('notes').values({ title: 'doomed-1' }).execute();
        await pause(20);
        await trx.insertInto('notes').values({ title: 'doomed-2' }).execute();
        throw new Error('roll back');
      });
      const succeeding = db().transaction().execute(async (trx) => {
        await trx.insertInto('notes').values({ title: 'kept-1' }).execute();
        await pause(5);
        await trx.insertInto('notes').values({ title: 'kept-2' }).execute();
      });
      const [failed, succeeded] = await Promise.allSettled([failing, succeeding]);
      expect(failed.status).toBe('rejected');
      expect(succeeded.status).toBe('fulfilled');
      expect(await titles()).toEqual(['kept-1', 'kept-2']);
    });

    it('rolls back a transaction whose statement fails, leaving no half-written row, and the next query still runs', async () => {
      await db().deleteFrom('notes').execute();
      await db().insertInto('notes').values({ title: 'taken' }).execute();
      const attempt = db().transaction().execute(async (trx) => {
        await trx.insertInto('notes').values({ title: 'first half' }).execute();
        await trx.insertInto('notes').values({ title: 'taken' }).execute();
      });
      await expect(attempt).rejects.toMatchObject({ code: '23505' });
      expect(await titles()).toEqual(['taken']);
    });

    it('keeps a query issued outside a running transaction out of it: it sees only committed rows', async () => {
      await db().deleteFrom('notes').execute();
      let seenDuring: string[] | undefined;
      const transaction = db().transaction().execute(async (trx) => {
        await trx.insertInto('notes').values({ title: 'uncommitted' }).execute();
        await pause(20);
        throw new Error('roll back');
      });
      const outside = (async () => {
        await pause(5);
        seenDuring = await titles();
      })();
      await Promise.allSettled([transaction, outside]);
      expect(seenDuring).toEqual([]);
      expect(await titles()).toEqual([]);
    });

    it('runs many concurrent transactions to completion, each committing its own row', async () => {
      await db().deleteFrom('notes').execute();
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          db().transaction().execute(async (trx) => {
            await trx.insertInto('notes').values({ title: `n${String(i).padStart(2, '0')}` }).execute();
            await pause(i % 3);
            const own = await trx.selectFrom('notes').select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow();
            expect(own.count).toBeGreaterThan(0);
          }),
        ),
      );
      expect(await titles()).toHaveLength(12);
    });

    it('rolls back to a savepoint inside a transaction and commits the rest', async () => {
      await db().deleteFrom('notes').execute();
      const trx = await db().startTransaction().execute();
      await trx.insertInto('notes').values({ title: 'before' }).execute();
      const inner = await trx.savepoint('inner "quoted"').execute();
      await inner.insertInto('notes').values({ title: 'undone' }).execute();
      await inner.rollbackToSavepoint('inner "quoted"').execute();
      await trx.insertInto('notes').values({ title: 'after' }).execute();
      await trx.commit().execute();
      expect(await titles()).toEqual(['after', 'before']);
    });

    it('reports the rows an update or delete touched, zero included', async () => {
      await db().deleteFrom('notes').execute();
      await db().insertInto('notes').values([{ title: 'a' }, { title: 'b' }]).execute();
      expect((await db().updateTable('notes').set({ title: sql`title || '!'` }).executeTakeFirst()).numUpdatedRows).toBe(2n);
      expect((await db().deleteFrom('notes').where('title', '=', 'none').executeTakeFirst()).numDeletedRows).toBe(0n);
    });
  });
}

describe('the PGlite dialect on its own', () => {
  it('closes PGlite when Kysely is destroyed, and refuses queries afterwards', async () => {
    const pglite = new PGlite();
    const db = new Kysely<any>({ dialect: new PGliteDialect(pglite) });
    expect(await sql<{ one: number }>`select 1 as one`.execute(db)).toMatchObject({ rows: [{ one: 1 }] });
    await db.destroy();
    expect(pglite.closed).toBe(true);
    await expect(sql`select 1`.execute(db)).rejects.toThrow();
  });
});
