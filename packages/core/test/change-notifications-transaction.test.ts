// `ChangeNotifications.transaction`: a change sent inside the write's transaction reaches other processes only if it commits, and this one only after the commit.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSchema, openTestDatabase, testDatabaseKinds, type TestSchema } from '@panel/test-support';
import { openDatabase, type Change, type PanelDatabase } from '../src/index.js';

const heardOf = (changes: Change[], id: number) => changes.some((change) => change.kind === 'token' && change.id === id);

async function until(done: () => boolean, millis = 2_000): Promise<void> {
  const started = Date.now();
  while (!done() && Date.now() - started < millis) await new Promise((resolve) => setTimeout(resolve, 2));
}

for (const kind of testDatabaseKinds()) {
  describe(`change notifications sent inside a transaction, this process [${kind}]`, () => {
    let database: PanelDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
    });
    afterAll(async () => database?.close());

    it('delivers to this process after the commit, never during the transaction, and nothing when it rolls back', async () => {
      const heard: Change[] = [];
      database.changes!.subscribe({ change: (change) => heard.push(change), reset: () => undefined });
      await database.changes!.ready();
      const during: boolean[] = [];
      await database.changes!.transaction(database.db, async (trx, announce) => {
        await sql`select 1`.execute(trx);
        announce({ kind: 'token', id: 1 });
        during.push(heardOf(heard, 1));
      });
      expect(during).toEqual([false]);
      expect(heardOf(heard, 1)).toBe(true);
      await expect(
        database.changes!.transaction(database.db, async (_trx, announce) => {
          announce({ kind: 'token', id: 2 });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(heardOf(heard, 2)).toBe(false);
    });
  });
}

const describePostgres = testDatabaseKinds().includes('postgres') ? describe : describe.skip;

describePostgres('change notifications sent inside a transaction, another process [postgres]', () => {
  let schema: TestSchema;
  let one: PanelDatabase;
  let two: PanelDatabase;
  beforeAll(async () => {
    schema = await createTestSchema();
    one = await openDatabase({ url: schema.url, schema: schema.schema, maxConnections: 2 });
    two = await openDatabase({ url: schema.url, schema: schema.schema, maxConnections: 2 });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await schema?.drop();
  });

  it('reaches the other process when the transaction commits, and never when it rolls back', async () => {
    const heard: Change[] = [];
    two.changes!.subscribe({ change: (change) => heard.push(change), reset: () => undefined });
    await two.changes!.ready();
    await one.changes!.transaction(one.db, async (_trx, announce) => announce({ kind: 'token', id: 10 }));
    await until(() => heardOf(heard, 10));
    expect(heardOf(heard, 10)).toBe(true);
    await one.changes!.transaction(one.db, async (_trx, announce) => {
      announce({ kind: 'token', id: 11 });
      throw new Error('rolled back');
    }).catch(() => undefined);
    // Notifications reach a listener in commit order: once a later one arrived, the rolled-back one never will.
    await one.changes!.publish({ kind: 'token', id: 12 });
    await until(() => heardOf(heard, 12));
    expect(heardOf(heard, 12)).toBe(true);
    expect(heardOf(heard, 11)).toBe(false);
  });
});
