// "Token cache correctness: tests on both databases for each invalidating event across two processes, within the stated bound."
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, runMigrations, runPanelMigrations, type PanelDatabase } from '@panel/core';
import { createTestSchema, openTestDatabase, testDatabaseKinds, type TestSchema } from '@panel/test-support';
import { ApiTokenService, apiTokensSchemaV1 } from '../src/index.js';
import { inProcessPeer, startPeerProcess, type TokenPeer } from './support/token-peer.js';

const PEPPER = 'test-pepper-0123456789abcdef0123456789';
/** The stated bound: a change made through any process is seen by every other within this (docs/edition-b-tokens.md#the-token-cache). */
const BOUND_MILLIS = 1_000;
/** The peer keeps what it verified for a minute: within the bound, only the change channel can make it forget. */
const PEER_MAX_AGE_MILLIS = 60_000;

/** How long until `seen()` holds, polling; fails the test past twice the bound. */
async function millisUntil(seen: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (!(await seen())) {
    if (performance.now() - started > 2 * BOUND_MILLIS) throw new Error(`not seen within ${2 * BOUND_MILLIS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return performance.now() - started;
}

for (const kind of testDatabaseKinds()) {
  describe(`the token cache across two processes on one database [${kind}]`, () => {
    let database: PanelDatabase;
    let schema: TestSchema | undefined;
    let tokens: ApiTokenService;
    let peer: TokenPeer;
    const figures: Record<string, number> = {};

    beforeAll(async () => {
      if (kind === 'postgres') {
        schema = await createTestSchema();
        database = await openDatabase({ url: schema.url, schema: schema.schema, maxConnections: 4 });
      } else {
        database = await openTestDatabase(kind);
      }
      await runMigrations(database, { '20261122000000-create-panel-api-tokens': apiTokensSchemaV1 });
      // The tokens' own rate limits live in a table of Panel's own migrations.
      await runPanelMigrations(database);
      tokens = new ApiTokenService({ database, pepper: PEPPER, env: {}, cache: true });
      // PostgreSQL: a real second Node process, its own pool and listening connection. PGlite runs
      // in one process: a second service with its own cache on the same database.
      peer = schema ? await startPeerProcess({ url: schema.url, schema: schema.schema, pepper: PEPPER, maxAgeMillis: PEER_MAX_AGE_MILLIS }) : inProcessPeer({ database, pepper: PEPPER, maxAgeMillis: PEER_MAX_AGE_MILLIS });
    }, 60_000);
    afterAll(async () => {
      console.log(`token cache [${kind}]: seen by the other process within (ms) ${JSON.stringify(figures)}`);
      await peer?.close();
      tokens?.close();
      await database?.close();
      await schema?.drop();
    });

    /** A new token the peer has verified and now answers from memory (its second check costs no statement). */
    async function cachedByPeer(grants: string[] = ['blog_posts:index'], expiresAt: Date | null = null) {
      const made = await tokens.create({ name: 'shared', grants, expiresAt });
      const first = await peer.ask({ op: 'authenticate', secret: made.secret });
      expect(first).toMatchObject({ accepted: true, grants });
      expect(first.statements).toBeGreaterThan(0);
      expect(await peer.ask({ op: 'authenticate', secret: made.secret })).toEqual({ accepted: true, grants, statements: 0 });
      return made;
    }
    const refusedByPeer = (secret: string) => async () => !(await peer.ask({ op: 'authenticate', secret })).accepted;

    it(`"revoke … take[s] effect in every process within a bound you state": refused by the other process within ${BOUND_MILLIS} ms`, async () => {
      const { token, secret } = await cachedByPeer();
      await tokens.revoke(token.id);
      figures.revoke = await millisUntil(refusedByPeer(secret));
      expect(figures.revoke).toBeLessThan(BOUND_MILLIS);
      expect(await tokens.authenticate(secret)).toBeUndefined();
    });

    it(`"disable … take[s] effect in every process": refused within ${BOUND_MILLIS} ms, and accepted again within it after enable`, async () => {
      const { token, secret } = await cachedByPeer();
      await tokens.disable(token.id);
      figures.disable = await millisUntil(refusedByPeer(secret));
      expect(figures.disable).toBeLessThan(BOUND_MILLIS);
      await tokens.enable(token.id);
      figures.enable = await millisUntil(async () => (await peer.ask({ op: 'authenticate', secret })).accepted);
      expect(figures.enable).toBeLessThan(BOUND_MILLIS);
    });

    it(`"expiry … take[s] effect in every process": a cached token is refused from its expiry on, without any change announced`, async () => {
      // Long enough for the token to be verified and kept first, on a loaded machine too.
      const expiresAt = new Date(Date.now() + 3_000);
      const { secret } = await cachedByPeer(['blog_posts:index'], expiresAt);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt.getTime() - Date.now())));
      const afterExpiry = performance.now();
      await millisUntil(refusedByPeer(secret));
      figures.expiry = performance.now() - afterExpiry;
      expect(figures.expiry).toBeLessThan(BOUND_MILLIS);
    });

    it(`"grant edits take effect in every process": the other process answers with the new grants within ${BOUND_MILLIS} ms`, async () => {
      const { token, secret } = await cachedByPeer(['blog_posts:index', 'comments:index']);
      await tokens.setGrants(token.id, ['comments:show']);
      figures.grants = await millisUntil(async () => JSON.stringify((await peer.ask({ op: 'authenticate', secret })).grants) === JSON.stringify(['comments:show']));
      expect(figures.grants).toBeLessThan(BOUND_MILLIS);
    });

    it(`"default-permission edits take effect in every process": the other process's list changes within ${BOUND_MILLIS} ms`, async () => {
      await tokens.setDefaultPermissions(['blog_posts:index']);
      await millisUntil(async () => JSON.stringify((await peer.ask({ op: 'defaultGrants' })).grants) === JSON.stringify(['blog_posts:index']));
      expect(await peer.ask({ op: 'defaultGrants' })).toEqual({ accepted: true, grants: ['blog_posts:index'], statements: 0 });
      await tokens.setDefaultPermissions(['comments:show', 'blog_posts:show']);
      figures.defaultList = await millisUntil(async () => JSON.stringify((await peer.ask({ op: 'defaultGrants' })).grants) === JSON.stringify(['blog_posts:show', 'comments:show']));
      expect(figures.defaultList).toBeLessThan(BOUND_MILLIS);
    });

    it(`a token's own rate limit, kept with it, changes in the other process within ${BOUND_MILLIS} ms`, async () => {
      const { token } = await cachedByPeer();
      await tokens.setRateLimit(token.id, 5);
      await millisUntil(async () => (await peer.ask({ op: 'rateLimit', id: token.id })).rateLimit === 5);
      expect(await peer.ask({ op: 'rateLimit', id: token.id })).toMatchObject({ rateLimit: 5, statements: 0 });
      await tokens.setRateLimit(token.id, null);
      figures.rateLimit = await millisUntil(async () => (await peer.ask({ op: 'rateLimit', id: token.id })).rateLimit === null);
      expect(figures.rateLimit).toBeLessThan(BOUND_MILLIS);
    });

    it('"pepper changes take effect": a process given a new pepper refuses at once every token it verified under the old one', async () => {
      const { secret } = await cachedByPeer();
      await peer.ask({ op: 'pepper', pepper: 'another-pepper-0123456789abcdef01234' });
      try {
        const started = performance.now();
        expect((await peer.ask({ op: 'authenticate', secret })).accepted).toBe(false);
        figures.pepper = performance.now() - started;
        expect(await new ApiTokenService({ database, pepper: 'another-pepper-0123456789abcdef01234', env: {}, cache: true }).authenticate(secret)).toBeUndefined();
      } finally {
        await peer.ask({ op: 'pepper', pepper: PEPPER });
      }
      expect((await peer.ask({ op: 'authenticate', secret })).accepted).toBe(true);
    });
  });
}
