// "Timing tells whether a token's public id exists": an unknown id and a known id with a wrong secret must cost the same.
import { performance } from 'node:perf_hooks';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations, type PanelDatabase } from '@panel/core';
import { countQueries, openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { ApiTokenService, apiTokensSchemaV1, apiTokensSchemaV2, mintToken, parseToken, TOKEN_DIGEST_INDEX } from '../src/index.js';
import { crc32 } from '../src/secret/crc32.js';
import { randomBase62, uint32ToBase62 } from '../src/secret/base62.js';

const PEPPER = 'test-pepper-0123456789abcdef0123456789';

/** A well-formed token (valid checksum) with `publicId` and a secret part that was never issued. */
function forged(publicId: string): string {
  const body = `pat_${publicId}_${randomBase62(43)}`;
  return `${body}_${uint32ToBase62(crc32(body))}`;
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

/** A plan's shape (node types and indexes, depth first) and the pages it touched in all. */
function describePlan(root: PlanNode): { nodes: string[]; pages: number; rows: number } {
  const nodes: string[] = [];
  const visit = (node: PlanNode) => {
    nodes.push(node['Index Name'] ? `${node['Node Type']} on ${node['Index Name']}` : node['Node Type']);
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(root);
  // The root's counts include its children's.
  return { nodes, pages: (root['Shared Hit Blocks'] ?? 0) + (root['Shared Read Blocks'] ?? 0), rows: root['Actual Rows'] };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

for (const kind of testDatabaseKinds()) {
  describe(`token authentication timing [${kind}]`, () => {
    let database: PanelDatabase;
    let tokens: ApiTokenService;
    let knownId = '';
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await runMigrations(database, { '20261122000000-create-panel-api-tokens': apiTokensSchemaV1, '20261127000000-index-panel-api-token-digests': apiTokensSchemaV2 });
      tokens = new ApiTokenService({ database, pepper: PEPPER, resources: ['blog_posts', 'comments'], env: {} });
      // Other tokens around the known one, so that the table has more than one row to tell apart.
      for (let i = 0; i < 20; i += 1) await tokens.create({ name: `other ${i}`, grants: ['blog_posts:index'] });
      const { secret } = await tokens.create({ name: 'timing', grants: ['blog_posts:index', 'blog_posts:show', 'comments:index'] });
      knownId = parseToken(secret)!;
    });
    afterAll(async () => {
      await database?.close();
    });

    /** The one statement `authenticate(secret)` sends, with its parameters (as the test above captures it). */
    const statementOf = async (secret: string) => {
      const sent: { sql: string; parameters: readonly unknown[] }[] = [];
      const stop = database.onQuery((query) => sent.push({ sql: query.sql, parameters: query.parameters }));
      try {
        await tokens.authenticate(secret);
      } finally {
        stop();
      }
      expect(sent).toHaveLength(1);
      return sent[0]!;
    };

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
        const { sql, parameters } = await statementOf(secret);
        // The same statement with the same parameters, sent again: how many rows it read.
        return (await database.db.executeQuery(CompiledQuery.raw(sql, [...parameters]))).rows.length;
      };
      expect(await rowsFound(forged(mintToken().publicId))).toBe(0);
      expect(await rowsFound(forged(knownId))).toBe(0);
    });

    it('inside the database both take the same path and touch the same pages: the plan and its buffer counts are equal (a row read and then refused shows as one page more)', async () => {
      const executed = async (secret: string) => {
        const sent = await statementOf(secret);
        // The same statement with the same parameters, run again under EXPLAIN ANALYZE: what it did.
        const explained = await database.db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(`explain (analyze, buffers, costs off, timing off, summary off, format json) ${sent.sql}`, [...sent.parameters]));
        const cell = Object.values(explained.rows[0]!)[0];
        const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as [{ Plan: PlanNode }];
        return describePlan(plan[0].Plan);
      };
      // Twice each, so that the first run's page reads (not yet in shared buffers) do not count.
      await executed(forged(knownId));
      await executed(forged(mintToken().publicId));
      const unknown = await executed(forged(mintToken().publicId));
      const known = await executed(forged(knownId));
      expect(unknown.rows).toBe(0);
      // By the digest index that version 2 of the schema adds: no entry for either.
      expect(unknown.nodes[0]).toBe(`Index Scan on ${TOKEN_DIGEST_INDEX}`);
      expect(known).toEqual(unknown);
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
