// "Timing tells whether a token's public id exists": an unknown id and a known id with a wrong secret must cost the same.
import { performance } from 'node:perf_hooks';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations, type PanelDatabase } from '@panel/core';
import { countQueries, openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { ApiTokenService, apiTokensSchemaV1, mintToken, parseToken } from '../src/index.js';
import { crc32 } from '../src/secret/crc32.js';
import { randomBase62, uint32ToBase62 } from '../src/secret/base62.js';

const PEPPER = 'test-pepper-0123456789abcdef0123456789';

/** A well-formed token (valid checksum) with `publicId` and a secret part that was never issued. */
function forged(publicId: string): string {
  const body = `pat_${publicId}_${randomBase62(43)}`;
  return `${body}_${uint32ToBase62(crc32(body))}`;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

for (const kind of testDatabaseKinds()) {
  describe(`token authentication timing [${kind}]`, () => {
    let database: PanelDatabase;
    let tokens: ApiTokenService;
    let knownId = '';
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await runMigrations(database, { '20261122000000-create-panel-api-tokens': apiTokensSchemaV1 });
      tokens = new ApiTokenService({ database, pepper: PEPPER, resources: ['blog_posts', 'comments'], env: {} });
      const { secret } = await tokens.create({ name: 'timing', grants: ['blog_posts:index', 'blog_posts:show', 'comments:index'] });
      knownId = parseToken(secret)!;
    });
    afterAll(async () => {
      await database?.close();
    });

    it('an unknown public id and a known one with a wrong secret send the same statement and get no row: the same work', async () => {
      const unknown = await countQueries(database, () => tokens.authenticate(forged(mintToken().publicId)));
      const known = await countQueries(database, () => tokens.authenticate(forged(knownId)));
      expect(unknown.result).toBeUndefined();
      expect(known.result).toBeUndefined();
      expect(known.statements).toEqual(unknown.statements);
      expect(known.count).toBe(1);
    });

    it('the statement an unknown id and a known id with a wrong secret send finds no row in either case (a row read and then refused costs more)', async () => {
      const rowsFound = async (secret: string) => {
        const sent: { sql: string; parameters: readonly unknown[] }[] = [];
        const stop = database.onQuery((query) => sent.push({ sql: query.sql, parameters: query.parameters }));
        try {
          await tokens.authenticate(secret);
        } finally {
          stop();
        }
        expect(sent).toHaveLength(1);
        // The same statement with the same parameters, sent again: how many rows it read.
        return (await database.db.executeQuery(CompiledQuery.raw(sent[0]!.sql, [...sent[0]!.parameters]))).rows.length;
      };
      expect(await rowsFound(forged(mintToken().publicId))).toBe(0);
      expect(await rowsFound(forged(knownId))).toBe(0);
    });

    it('measures both paths (median of 300 each, interleaved) and prints the figures', async () => {
      const samples = { unknown: [] as number[], known: [] as number[] };
      for (let i = 0; i < 300; i += 1) {
        for (const [path, id] of [['unknown', mintToken().publicId], ['known', knownId]] as const) {
          const secret = forged(id);
          const started = performance.now();
          await tokens.authenticate(secret);
          samples[path].push((performance.now() - started) * 1000);
        }
      }
      const figures = { unknown: Math.round(median(samples.unknown)), known: Math.round(median(samples.known)) };
      console.log(`token authentication [${kind}]: median ${figures.unknown} µs for an unknown public id, ${figures.known} µs for a known id with a wrong secret`);
      expect(figures.unknown).toBeGreaterThan(0);
    });
  });
}
