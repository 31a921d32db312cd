import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, PanelConfigError, type PanelDatabase } from '@panel/core';

/** A prepare step that counts its runs: one table, one row. */
function preparer() {
  const calls = { count: 0 };
  const prepare = async (database: PanelDatabase) => {
    calls.count += 1;
    await database.db.schema.createTable('notes').addColumn('body', 'text').execute();
    await database.db.insertInto('notes').values({ body: 'seeded' }).execute();
  };
  return { calls, prepare };
}

async function bodies(database: PanelDatabase): Promise<string[]> {
  return (await database.db.selectFrom('notes').select('body').orderBy('body').execute()).map((row) => row.body as string);
}

// Each test runs initdb once or loads a snapshot: a few seconds alone, far more on a busy machine.
describe('openDatabase({ snapshot }): PGlite in memory from a prepared snapshot file', { timeout: 120_000 }, () => {
  const parent = mkdtemp(join(tmpdir(), 'panel-pglite-snapshot-'));
  afterAll(async () => rm(await parent, { recursive: true, force: true }));

  const file = parent.then((folder) => join(folder, 'nested', 'dev.tar'));

  const v1 = preparer();

  it('prepares and saves on the first open, making the folders above the file', async () => {
    const first = await openDatabase({ snapshot: { file: await file, key: 'v1', prepare: v1.prepare } });
    try {
      expect(await bodies(first)).toEqual(['seeded']);
      await first.db.insertInto('notes').values({ body: 'written after the snapshot' }).execute();
    } finally {
      await first.close();
    }
    expect(v1.calls.count).toBe(1);
    expect((await stat(await file)).size).toBeGreaterThan(0);
  });

  it('loads it on the next open without preparing, starting from the saved data ("every start begins from the same data")', async () => {
    const second = await openDatabase({ snapshot: { file: await file, key: 'v1', prepare: v1.prepare } });
    try {
      // The row the first open wrote after the snapshot was made is not in it.
      expect(await bodies(second)).toEqual(['seeded']);
    } finally {
      await second.close();
    }
    expect(v1.calls.count).toBe(1);
  });

  it('continues each sequence where the prepared data left it: the next id after 4 seeded rows is 5, as on a fresh database', async () => {
    const file = join(await parent, 'serial.tar');
    const prepare = async (database: PanelDatabase) => {
      await database.db.schema.createTable('tags').addColumn('id', 'serial', (column) => column.primaryKey()).addColumn('name', 'text').execute();
      await database.db.insertInto('tags').values([{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }]).execute();
    };
    await (await openDatabase({ snapshot: { file, key: 'v1', prepare } })).close();
    const loaded = await openDatabase({ snapshot: { file, key: 'v1', prepare } });
    try {
      expect(await loaded.db.insertInto('tags').values({ name: 'e' }).returning('id').executeTakeFirstOrThrow()).toEqual({ id: 5 });
    } finally {
      await loaded.close();
    }
  });

  it('prepares again when the key changes ("a new key makes it again"), then loads under the new key', async () => {
    const { calls, prepare } = preparer();
    await (await openDatabase({ snapshot: { file: await file, key: 'v2', prepare } })).close();
    await (await openDatabase({ snapshot: { file: await file, key: 'v2', prepare } })).close();
    expect(calls.count).toBe(1);
  });

  it('makes the snapshot again when the file is not one (another tool wrote it)', async () => {
    const file = join(await parent, 'foreign.tar');
    await writeFile(file, 'not a snapshot');
    const { calls, prepare } = preparer();
    const database = await openDatabase({ snapshot: { file, key: 'v1', prepare } });
    try {
      expect(await bodies(database)).toEqual(['seeded']);
    } finally {
      await database.close();
    }
    expect(calls.count).toBe(1);
    expect((await readFile(file)).subarray(0, 23).toString()).toBe('panel-pglite-snapshot/2');
  });

  it('passes a failing prepare on and saves nothing', async () => {
    const file = join(await parent, 'failed.tar');
    await expect(openDatabase({ snapshot: { file, key: 'v1', prepare: async () => Promise.reject(new Error('seed failed')) } })).rejects.toThrow('seed failed');
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a snapshot with url, dataDir or loadDataDir, naming both options and the fix', async () => {
    const snapshot = { file: 'x.tar', key: 'v1', prepare: async () => {} };
    for (const [option, extra] of [
      ['url', { url: 'postgres://localhost/x' }],
      ['dataDir', { dataDir: 'data/pglite' }],
      ['loadDataDir', { loadDataDir: new Blob([]) }],
    ] as const) {
      const attempt = openDatabase({ ...extra, snapshot });
      await expect(attempt).rejects.toBeInstanceOf(PanelConfigError);
      await expect(attempt).rejects.toThrow(`snapshot and ${option} cannot be used together. Fix:`);
    }
    await expect(openDatabase({ snapshot: { ...snapshot, key: '' } })).rejects.toThrow('snapshot.key must be a non-empty string');
    await expect(openDatabase({ snapshot: { ...snapshot, file: '' } })).rejects.toThrow('snapshot.file must be a file path');
  });
});
