import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isOtherSchemaDropped, openDatabase, runMigrations, type Migration } from '@panel/core';
import { createTestSchema, testDatabaseKinds, testDatabaseUrl } from '@panel/test-support';

/**
 * Kysely's migrator finds its own tables with Kysely's introspector, which lists the tables of
 * every schema, calling `has_schema_privilege(nspname, 'USAGE')` for each. A schema another
 * process drops while that list runs fails it with 3F000 naming that schema. `runMigrations`
 * gives the migrator an introspector that reads the database's own schema only, and would
 * still try a run again that met such an error, instead of failing an app's boot (or a test
 * file) for another schema's sake.
 */
describe.runIf(testDatabaseKinds().includes('postgres'))('runMigrations and a schema dropped by someone else [postgres]', () => {
  /** The race, made on purpose: the catalog scan's snapshot still shows the schema, the privilege check by name no longer finds it. */
  async function raceError(doomed: string): Promise<unknown> {
    const url = testDatabaseUrl();
    const [lister, dropper] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
    await Promise.all([lister.connect(), dropper.connect()]);
    try {
      await dropper.query(`create schema ${doomed}`);
      await lister.query('begin isolation level repeatable read');
      await lister.query('select 1');
      await dropper.query(`drop schema ${doomed}`);
      return await lister
        .query(`select ns.nspname from pg_catalog.pg_namespace ns where ns.nspname !~ '^pg_' and has_schema_privilege(ns.nspname, 'USAGE')`)
        .then(() => undefined, (error: unknown) => error);
    } finally {
      await lister.query('rollback').catch(() => undefined);
      await Promise.all([lister.end(), dropper.end()]);
    }
  }

  it('recognizes the error the race gives (3F000 naming the other schema), and never a missing schema of its own', async () => {
    const doomed = `panel_doomed_${process.pid}`;
    const error = await raceError(doomed);
    expect(error).toMatchObject({ code: '3F000', message: `schema "${doomed}" does not exist` });
    expect(isOtherSchemaDropped(error, 'panel_mine')).toBe(true);
    expect(isOtherSchemaDropped(error, undefined)).toBe(true);
    // The database's own schema missing is a real error: no retry.
    expect(isOtherSchemaDropped(error, doomed)).toBe(false);
    expect(isOtherSchemaDropped({ code: '42P01', message: 'relation "x" does not exist' }, 'panel_mine')).toBe(false);
    expect(isOtherSchemaDropped(undefined, 'panel_mine')).toBe(false);
  });

  it('migrates while other schemas of the server come and go', async () => {
    const { url, schema, drop } = await createTestSchema();
    const database = await openDatabase({ url, schema, maxConnections: 2 });
    const statements: string[] = [];
    const stopListening = database.onQuery((query) => statements.push(query.sql));
    const churn = new pg.Client({ connectionString: url });
    await churn.connect();
    let stop = false;
    const churning = (async () => {
      for (let i = 0; !stop; i += 1) {
        await churn.query(`create schema panel_churn_${process.pid}_${i}`);
        await churn.query(`drop schema panel_churn_${process.pid}_${i}`);
        // A schema dropped every few milliseconds: busier than parallel test files, but not back to back.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const migrations: Record<string, Migration> = {};
    try {
      for (let i = 0; i < 20; i += 1) {
        const name = `000${i}`.slice(-3);
        migrations[name] = { up: async (db) => void (await db.schema.createTable(`t${i}`).addColumn('id', 'integer').execute()) };
        expect(await runMigrations(database, migrations)).toEqual([name]);
      }
      // The check that fails when a schema vanishes under it is never called: the migrator
      // reads the database's own schema only, so there is no race to retry.
      expect(statements.filter((text) => /has_schema_privilege|pg_get_serial_sequence/.test(text))).toEqual([]);
      expect(statements.some((text) => text.includes('pg_catalog.pg_class'))).toBe(true);
    } finally {
      stopListening();
      stop = true;
      await churning;
      await churn.end();
      await database.close();
      await drop();
    }
  });
});
