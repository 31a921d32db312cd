import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations, runPanelMigrations, type PanelDatabase } from '@panel/core';
import { countQueries, openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { ApiTokenService, TOKENS_TABLE, apiTokensSchemaV1, mintToken, type ApiTokenServiceOptions } from '../src/index.js';

const PEPPER = 'lifecycle-pepper-0123456789abcdef0123';
const RESOURCES = ['blog_posts', 'comments'];

/** The code of the error `work` rejects with. */
async function codeOf(work: Promise<unknown>): Promise<string | undefined> {
  const error = await work.then(() => undefined, (reason: unknown) => reason);
  expect(error, 'expected a refusal').toBeDefined();
  return (error as { code?: string }).code;
}

for (const kind of testDatabaseKinds()) {
  describe(`the token lifecycle [${kind}]`, () => {
    let database: PanelDatabase;
    const clock = { now: new Date('2026-11-22T10:00:00Z') };
    const service = (options: Partial<ApiTokenServiceOptions> = {}) =>
      new ApiTokenService({ database, pepper: PEPPER, resources: RESOURCES, now: () => clock.now, env: {}, ...options });
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await runPanelMigrations(database);
      await runMigrations(database, { '20261122000000-create-panel-api-tokens': apiTokensSchemaV1 });
    });
    afterAll(async () => {
      await database?.close();
    });

    it('an id no token has is TokenNotFoundError for every operation on one token', async () => {
      const tokens = service();
      const operations = [() => tokens.find(987654), () => tokens.disable(987654), () => tokens.enable(987654), () => tokens.revoke(987654), () => tokens.setGrants(987654, []), () => tokens.setRateLimit(987654, 10)];
      for (const operation of operations) expect(await codeOf(operation())).toBe('PANEL_API_ERR_TOKEN_NOT_FOUND');
      expect(await tokens.rateLimit(987654)).toBeNull();
    });

    it('disabling a Disabled token or enabling an Active one changes nothing and is not an error', async () => {
      const tokens = service();
      const { token } = await tokens.create({ name: 'idempotent' });
      expect((await tokens.enable(token.id)).status).toBe('Active');
      expect((await tokens.disable(token.id)).status).toBe('Disabled');
      expect((await tokens.disable(token.id)).status).toBe('Disabled');
    });

    it('an Expired token can be neither enabled nor disabled (enabling would not help), only revoked', async () => {
      const tokens = service();
      const { token } = await tokens.create({ name: 'lapsed', expiresAt: new Date('2026-11-22T11:00:00Z') });
      clock.now = new Date('2026-11-22T11:00:00Z');
      try {
        expect((await tokens.find(token.id)).status).toBe('Expired');
        expect(await codeOf(tokens.enable(token.id))).toBe('PANEL_API_ERR_TOKEN_TRANSITION');
        expect(await codeOf(tokens.disable(token.id))).toBe('PANEL_API_ERR_TOKEN_TRANSITION');
        expect((await tokens.revoke(token.id)).status).toBe('Revoked');
      } finally {
        clock.now = new Date('2026-11-22T10:00:00Z');
      }
    });

    it('revoking twice keeps the first revocation time', async () => {
      const tokens = service();
      const { token } = await tokens.create({ name: 'twice' });
      const first = await tokens.revoke(token.id);
      expect(first.revokedAt?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
      clock.now = new Date('2026-11-22T10:30:00Z');
      try {
        expect((await tokens.revoke(token.id)).revokedAt?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
      } finally {
        clock.now = new Date('2026-11-22T10:00:00Z');
      }
    });

    it('a revocation or a disable takes effect on the very next authentication', async () => {
      const tokens = service();
      const { token, secret } = await tokens.create({ name: 'at-once', grants: ['comments:index'] });
      expect(await tokens.authenticate(secret)).toBeDefined();
      await tokens.disable(token.id);
      expect(await tokens.authenticate(secret)).toBeUndefined();
      await tokens.enable(token.id);
      expect(await tokens.authenticate(secret)).toBeDefined();
      await tokens.revoke(token.id);
      expect(await tokens.authenticate(secret)).toBeUndefined();
    });

    it('the authenticated token answers for its grants only, exactly, and cannot be changed by its holder', async () => {
      const { secret } = await service().create({ name: 'exact', grants: ['blog_posts:update', 'comments:show'] });
      const actor = (await service().authenticate(secret))!;
      expect(actor.grants).toEqual([{ resource: 'blog_posts', verb: 'update' }, { resource: 'comments', verb: 'show' }]);
      expect(actor.allows('blog_posts', 'update')).toBe(true);
      expect(actor.allows('comments', 'show')).toBe(true);
      for (const [resource, verb] of [['blog_posts', 'show'], ['comments', 'update'], ['Blog_posts', 'update'], ['blog_posts:update', 'index']] as const) {
        expect(actor.allows(resource, verb as never), `${resource} ${verb}`).toBe(false);
      }
      expect(Object.isFrozen(actor)).toBe(true);
      expect(() => {
        (actor as { name: string }).name = 'other';
      }).toThrow(TypeError);
    });

    it('"Nothing is reachable until a grant exists": a token created without grants allows nothing', async () => {
      const { secret } = await service().create({ name: 'bare' });
      const actor = (await service().authenticate(secret))!;
      expect(actor.grants).toEqual([]);
      for (const resource of RESOURCES) for (const verb of ['index', 'show', 'create', 'update', 'destroy'] as const) expect(actor.allows(resource, verb)).toBe(false);
    });

    it('setting grants to an empty list removes them all', async () => {
      const tokens = service();
      const { token } = await tokens.create({ name: 'emptied', grants: ['blog_posts:index', 'comments:index'] });
      expect((await tokens.setGrants(token.id, [])).grants).toEqual([]);
    });

    it('keeps a token\'s rate limit beside it: set, changed, shown, removed; a limit that is not a positive whole number is refused', async () => {
      const tokens = service();
      const { token } = await tokens.create({ name: 'limited' });
      expect(await tokens.rateLimit(token.id)).toBeNull();
      await tokens.setRateLimit(token.id, 30);
      expect(await tokens.rateLimit(token.id)).toBe(30);
      await tokens.setRateLimit(token.id, 5);
      expect(await tokens.rateLimit(token.id)).toBe(5);
      for (const bad of [0, -1, 2.5, Number.NaN]) await expect(tokens.setRateLimit(token.id, bad), String(bad)).rejects.toThrow(RangeError);
      expect(await tokens.rateLimit(token.id)).toBe(5);
      await tokens.setRateLimit(token.id, null);
      expect(await tokens.rateLimit(token.id)).toBeNull();
    });

    it('trims a name and accepts 120 characters, the column\'s width', async () => {
      const tokens = service();
      expect((await tokens.create({ name: '  padded  ' })).token.name).toBe('padded');
      expect((await tokens.create({ name: 'n'.repeat(120) })).token.name).toHaveLength(120);
    });

    it('"secret … stored only as an HMAC-SHA256 digest": each token gets its own public id and digest, even with the same name', async () => {
      const tokens = service();
      const a = await tokens.create({ name: 'same' });
      const b = await tokens.create({ name: 'same' });
      expect(a.secret).not.toBe(b.secret);
      const rows = await database.db.selectFrom(TOKENS_TABLE).select(['public_id', 'token_digest']).where('id', 'in', [a.token.id, b.token.id]).execute();
      expect(new Set(rows.map((r) => r.public_id)).size).toBe(2);
      expect(new Set(rows.map((r) => r.token_digest)).size).toBe(2);
      expect(await tokens.authenticate(b.secret)).toMatchObject({ id: b.token.id });
    });

    it('a pepper read from a function is read at each use: rotating it invalidates every token at once', async () => {
      let current = PEPPER;
      const tokens = service({ pepper: () => current });
      const { secret } = await tokens.create({ name: 'rotated' });
      expect(await tokens.authenticate(secret)).toBeDefined();
      current = 'rotated-pepper-0123456789abcdef01234567';
      expect(await tokens.authenticate(secret)).toBeUndefined();
      current = PEPPER;
      expect(await tokens.authenticate(secret)).toBeDefined();
    });

    it('a secret with a changed prefix, extra whitespace or another case is refused without a query', async () => {
      const tokens = service();
      const { secret } = await tokens.create({ name: 'spelling' });
      for (const variant of [` ${secret}`, `${secret}\n`, secret.toUpperCase(), secret.replace(/^pat_/, 'PAT_'), `Bearer ${secret}`, secret.slice(0, -1)]) {
        const { result, count } = await countQueries(database, () => tokens.authenticate(variant));
        expect(result, JSON.stringify(variant)).toBeUndefined();
        expect(count, JSON.stringify(variant)).toBe(0);
      }
      // A well-formed token that was never issued costs one statement, like any other miss.
      expect((await countQueries(database, () => tokens.authenticate(mintToken().secret))).count).toBe(1);
    });

    it('a grant naming a resource that is no longer in the panel still authenticates but allows only what it names', async () => {
      const { secret } = await service({ resources: undefined }).create({ name: 'old-resource', grants: ['archived_posts:index', 'comments:index'] });
      const actor = (await service().authenticate(secret))!;
      expect(actor.allows('comments', 'index')).toBe(true);
      expect(actor.allows('archived_posts', 'index')).toBe(true);
      // Changing its grants now goes through the panel's resources.
      const tokens = service();
      expect(await codeOf(tokens.setGrants(actor.id, ['archived_posts:index']))).toBe('PANEL_API_ERR_GRANT_INVALID');
    });

    it('lists a token with every field the screens show', async () => {
      const tokens = service();
      const { token } = await tokens.create({ name: 'shown', createdById: 42, expiresAt: new Date('2027-01-01T00:00:00Z'), grants: ['comments:show'] });
      const listed = (await tokens.list()).find((t) => t.id === token.id);
      expect(listed).toEqual({
        id: token.id,
        name: 'shown',
        status: 'Active',
        expiresAt: new Date('2027-01-01T00:00:00Z'),
        lastUsedAt: null,
        createdById: 42,
        createdAt: expect.any(Date),
        revokedAt: null,
        grants: [{ resource: 'comments', verb: 'show' }],
      });
    });

    it('a refused use is not recorded: last_used_at moves only when the token authenticates', async () => {
      const tokens = service();
      const { token, secret } = await tokens.create({ name: 'unused' });
      await tokens.disable(token.id);
      expect(await tokens.authenticate(secret)).toBeUndefined();
      expect((await tokens.find(token.id)).lastUsedAt).toBeNull();
      await tokens.enable(token.id);
      expect(await tokens.authenticate(secret)).toBeDefined();
      expect((await tokens.find(token.id)).lastUsedAt?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
    });

    it('a name of 120 characters outside the Basic Multilingual Plane fits the varchar(120) column too', async () => {
      // The database counts characters: 120 emoji are stored as they are.
      await database.db.insertInto(TOKENS_TABLE).values({ public_id: 'direct0000000001', name: '🙂'.repeat(120), token_digest: '0'.repeat(64) }).execute();
      const stored = await database.db.selectFrom(TOKENS_TABLE).select('name').where('public_id', '=', 'direct0000000001').executeTakeFirstOrThrow();
      expect([...stored.name].length).toBe(120);
    });

    // create() counts characters, as the varchar(120) column and core's field rules do, not
    // UTF-16 units: 61 emoji (122 units) are 61 characters.
    it('"maximum is 120 characters" counts characters: a name of 61 emoji is accepted', async () => {
      const { token } = await service().create({ name: '🙂'.repeat(61) });
      expect([...token.name].length).toBe(61);
    });
  });
}
