import { describe, expect, it } from 'vitest';
import { isCatalogChangedDuringSetup } from '@panel/core';

// The migrator's setup lists every schema's tables and columns; another test file (or tenant)
// dropping or altering its own table meanwhile fails that scan with 42P01 or 42703, naming the
// other table. runMigrations tries such a setup again, as it does for a dropped schema; any other
// error, and any error of a migration that ran, is answered at once.

describe('isCatalogChangedDuringSetup', () => {
  it('is a table or column vanishing under the catalog scan (42P01, 42703)', () => {
    expect(isCatalogChangedDuringSetup({ code: '42703', message: 'column "key" of relation "panel_blobs" does not exist' })).toBe(true);
    expect(isCatalogChangedDuringSetup({ code: '42P01', message: 'relation "panel_blobs" does not exist' })).toBe(true);
  });

  it('is nothing else: a refused connection, a missing database, a syntax error, no error at all', () => {
    for (const error of [{ code: 'ECONNREFUSED' }, { code: '3D000', message: 'database "shop" does not exist' }, { code: '42601' }, new Error('boom'), undefined, null]) {
      expect(isCatalogChangedDuringSetup(error), JSON.stringify(error)).toBe(false);
    }
  });
});
