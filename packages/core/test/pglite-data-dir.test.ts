import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@panel/core';

describe('a PGlite data folder', () => {
  const parent = mkdtemp(join(tmpdir(), 'panel-pglite-dir-'));
  afterAll(async () => rm(await parent, { recursive: true, force: true }));

  it('is created with the folders above it (data/pglite in a fresh folder), and keeps its rows across opens', async () => {
    const dataDir = join(await parent, 'data', 'pglite');
    const first = await openDatabase({ dataDir });
    await first.db.schema.createTable('notes').addColumn('body', 'text').execute();
    await first.db.insertInto('notes').values({ body: 'kept' }).execute();
    await first.close();
    const again = await openDatabase({ dataDir });
    try {
      expect(await again.db.selectFrom('notes').select('body').execute()).toEqual([{ body: 'kept' }]);
    } finally {
      await again.close();
    }
  });
});
