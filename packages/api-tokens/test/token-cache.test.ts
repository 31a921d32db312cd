// The token cache in one process: what it saves, what it never does (answer while it cannot hear changes, tell an id's existence by time).
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, runMigrations, type PanelDatabase } from '@panel/core';
import { countQueries, createTestSchema, openTestDatabase, testDatabaseKinds, type TestSchema } from '@panel/test-support';
import { ApiTokenService, apiTokensSchemaV1, apiTokensSchemaV2, mintToken, parseToken, TOKENS_TABLE } from '../src/index.js';
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
  describe(`the token cache [${kind}]`, () => {
    let database: PanelDatabase;
    const service = (cache: ConstructorParameters<typeof ApiTokenService>[0]['cache'] = true) => new ApiTokenService({ database, pepper: PEPPER, env: {}, cache });

    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await runMigrations(database, { '20261122000000-create-panel-api-tokens': apiTokensSchemaV1, '20261127000000-index-panel-api-token-digests': apiTokensSchemaV2 });
    });
    afterAll(async () => {
      await database?.close();
    });

    it('"a repeated token costs no statement": the second authenticate of a secret answers from memory, with the same token', async () => {
      const tokens = service();
      const { secret, token } = await tokens.create({ name: 'hot', grants: ['blog_posts:index', 'comments:show'] });
      const first = await countQueries(database, () => tokens.authenticate(secret));
      expect(first.count).toBeGreaterThan(0);
      const again = await countQueries(database, () => tokens.authenticate(secret));
      expect(again.count).toBe(0);
      expect(again.result).toMatchObject({ id: token.id, name: 'hot', grants: [{ resource: 'blog_posts', verb: 'index' }, { resource: 'comments', verb: 'show' }] });
      expect(again.result!.allows('comments', 'show')).toBe(true);
      expect(again.result!.allows('comments', 'destroy')).toBe(false);
      tokens.close();
    });

    it('the default permissions list is read once and kept until it changes; a change through this service is seen at once', async () => {
      const tokens = service();
      await tokens.setDefaultPermissions(['blog_posts:index']);
      await tokens.defaultGrants();
      const again = await countQueries(database, () => tokens.defaultGrants());
      expect(again.count).toBe(0);
      expect(again.result.allows('blog_posts', 'index')).toBe(true);
      await tokens.setDefaultPermissions(['comments:show']);
      const changed = await tokens.defaultGrants();
      expect(changed.allows('blog_posts', 'index')).toBe(false);
      expect(changed.grants).toEqual([{ resource: 'comments', verb: 'show' }]);
      tokens.close();
    });

    it('"a cache miss is never cheaper than a hit … by id existence": a wrong secret for a cached id sends the same statement as an unknown id; medians printed', async () => {
      const tokens = service();
      const { secret } = await tokens.create({ name: 'cached-then-probed' });
      await tokens.authenticate(secret);
      expect((await countQueries(database, () => tokens.authenticate(secret))).count).toBe(0);
      const knownId = parseToken(secret)!;
      const unknown = await countQueries(database, () => tokens.authenticate(forged(mintToken().publicId)));
      const known = await countQueries(database, () => tokens.authenticate(forged(knownId)));
      expect(unknown.result).toBeUndefined();
      expect(known.result).toBeUndefined();
      expect(known.statements).toEqual(unknown.statements);
      expect(known.count).toBe(1);
      // The right secret still answers from memory after the probes.
      expect((await countQueries(database, () => tokens.authenticate(secret))).count).toBe(0);
      const samples = { unknown: [] as number[], known: [] as number[] };
      for (let i = 0; i < 200; i += 1) {
        for (const [path, id] of [['unknown', mintToken().publicId], ['known', knownId]] as const) {
          const probe = forged(id);
          const started = performance.now();
          await tokens.authenticate(probe);
          samples[path].push((performance.now() - started) * 1000);
        }
      }
      console.log(`token authentication with the cache [${kind}]: median ${Math.round(median(samples.unknown))} µs for an unknown public id, ${Math.round(median(samples.known))} µs for a cached id with a wrong secret`);
      expect(median(samples.unknown)).toBeGreaterThan(0);
      tokens.close();
    });

    it('is bounded: past maxEntries the token verified longest ago is read again', async () => {
      const tokens = service({ maxEntries: 2 });
      const made = await Promise.all(['one', 'two', 'three'].map((name) => tokens.create({ name })));
      for (const { secret } of made) await tokens.authenticate(secret);
      expect((await countQueries(database, () => tokens.authenticate(made[2]!.secret))).count).toBe(0);
      expect((await countQueries(database, () => tokens.authenticate(made[1]!.secret))).count).toBe(0);
      expect((await countQueries(database, () => tokens.authenticate(made[0]!.secret))).count).toBe(1);
      tokens.close();
    });

    it('a change no notification announces (SQL outside the service) is seen after maxAgeMillis', async () => {
      const tokens = service({ maxAgeMillis: 200 });
      const { secret, token } = await tokens.create({ name: 'edited-by-hand' });
      await tokens.authenticate(secret);
      await database.db.updateTable(TOKENS_TABLE).set({ status: 'revoked' }).where('id', '=', token.id).execute();
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(await tokens.authenticate(secret)).toBeUndefined();
      tokens.close();
    });

    it('without the cache option nothing is kept (a script needs neither the cache nor a listening connection)', async () => {
      const tokens = service(false);
      const { secret } = await tokens.create({ name: 'uncached' });
      await tokens.authenticate(secret);
      expect((await countQueries(database, () => tokens.authenticate(secret))).count).toBe(1);
    });
  });
}

const describePostgres = testDatabaseKinds().includes('postgres') ? describe : describe.skip;

describePostgres('the token cache when the listening connection is lost [postgres]', () => {
  let schema: TestSchema;
  let database: PanelDatabase;
  // Its own application name, so that only this file's listening connection is cut.
  const applicationName = `panel token cache ${process.pid}`;
  beforeAll(async () => {
    schema = await createTestSchema();
    database = await openDatabase({ url: schema.url, schema: schema.schema, maxConnections: 2, applicationName });
    await runMigrations(database, { '20261122000000-create-panel-api-tokens': apiTokensSchemaV1 });
  });
  afterAll(async () => {
    await database?.close();
    await schema?.drop();
  });

  it('"the cache dropped whenever the listening connection is lost": every token is read again until it listens again, then cached again', async () => {
    const tokens = new ApiTokenService({ database, pepper: PEPPER, env: {}, cache: { maxAgeMillis: 60_000 } });
    const { secret } = await tokens.create({ name: 'through-an-outage' });
    await tokens.authenticate(secret);
    expect((await countQueries(database, () => tokens.authenticate(secret))).count).toBe(0);
    const admin = await openDatabase({ url: schema.url, maxConnections: 1 });
    try {
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${`${applicationName} listen`}`.execute(admin.db);
    } finally {
      await admin.close();
    }
    const started = Date.now();
    while (database.changes!.live && Date.now() - started < 5_000) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(database.changes!.live).toBe(false);
    // Not live: nothing answers from memory, and nothing read now is kept.
    expect((await countQueries(database, () => tokens.authenticate(secret))).count).toBeGreaterThan(0);
    while (!database.changes!.live && Date.now() - started < 10_000) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(database.changes!.live).toBe(true);
    await tokens.authenticate(secret);
    expect((await countQueries(database, () => tokens.authenticate(secret))).count).toBe(0);
    tokens.close();
  }, 20_000);
});
