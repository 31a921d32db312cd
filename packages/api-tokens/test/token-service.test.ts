import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPanelError, runMigrations, type PanelDatabase } from '@panel/core';
import { countQueries, openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { ApiTokenService, apiTokensSchemaV1, mintToken, PEPPER_ENV, TOKENS_TABLE, GRANTS_TABLE, type ApiTokenServiceOptions } from '../src/index.js';

const PEPPER = 'test-pepper-0123456789abcdef0123456789';
const RESOURCES = ['blog_posts', 'comments', 'products'];

async function refusalOf(work: Promise<unknown>): Promise<{ code?: string; message: string; errors?: Record<string, string[]> }> {
  const error = await work.then(() => undefined, (reason: unknown) => reason);
  expect(error, 'expected a refusal').toBeDefined();
  return error as { code?: string; message: string; errors?: Record<string, string[]> };
}

for (const kind of testDatabaseKinds()) {
  describe(`the API token service [${kind}]`, () => {
    let database: PanelDatabase;
    let clock = new Date('2026-11-22T10:00:00Z');
    const service = (options: Partial<ApiTokenServiceOptions> = {}) =>
      new ApiTokenService({ database, pepper: PEPPER, resources: RESOURCES, now: () => clock, env: {}, ...options });

    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await runMigrations(database, { '20261122000000-create-panel-api-tokens': apiTokensSchemaV1 });
    });
    afterAll(async () => {
      await database?.close();
    });

    it('reveals the secret exactly once: the stored row holds only its HMAC-SHA256 digest keyed with the pepper', async () => {
      const { token, secret } = await service().create({ name: 'CI', grants: ['blog_posts:index'] });
      expect(token).toMatchObject({ name: 'CI', status: 'Active', expiresAt: null, lastUsedAt: null, grants: [{ resource: 'blog_posts', verb: 'index' }] });
      expect(JSON.stringify(token)).not.toContain(secret);
      const row = await database.db.selectFrom(TOKENS_TABLE).selectAll().where('id', '=', token.id).executeTakeFirstOrThrow();
      expect(Object.values(row).map(String)).not.toContain(secret);
      expect(row.token_digest).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(await service().list())).not.toContain(secret);
    });

    it('authenticates an Active token and tells its grants', async () => {
      const { secret, token } = await service().create({ name: 'reader', grants: ['blog_posts:index', 'blog_posts:show', 'comments:index'], createdById: 7 });
      const actor = await service().authenticate(secret);
      expect(actor).toMatchObject({ id: token.id, name: 'reader', createdById: 7 });
      expect(actor!.allows('blog_posts', 'show')).toBe(true);
      expect(actor!.allows('blog_posts', 'destroy')).toBe(false);
      expect(actor!.allows('products', 'index')).toBe(false);
    });

    it('refuses a malformed, mistyped or unknown token; a malformed one without any query', async () => {
      const { secret } = await service().create({ name: 'x' });
      const { count } = await countQueries(database, () => service().authenticate('not-a-token'));
      expect(count).toBe(0);
      expect(await service().authenticate(`${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}`)).toBeUndefined();
      expect(await service().authenticate(mintToken().secret)).toBeUndefined();
    });

    it('"Changing it invalidates every existing token": the same secret fails under another pepper', async () => {
      const { secret } = await service().create({ name: 'peppered' });
      expect(await service().authenticate(secret)).toBeDefined();
      expect(await service({ pepper: 'another-pepper-0123456789abcdef01234' }).authenticate(secret)).toBeUndefined();
    });

    it('"Token creation and authentication raise until it is set": no pepper, or a short one, is an error naming the fix', async () => {
      const none = service({ pepper: undefined, env: {} });
      for (const work of [none.create({ name: 'x' }), none.authenticate(mintToken().secret)]) {
        const error = await refusalOf(work);
        expect(error.code).toBe('PANEL_API_ERR_TOKEN_PEPPER');
        expect(error.message).toContain(PEPPER_ENV);
      }
      expect((await refusalOf(service({ pepper: 'short' }).create({ name: 'x' }))).message).toMatch(/32 or more characters/);
    });

    it('reads the pepper from PANEL_API_TOKEN_PEPPER when the app passes none, and the app\'s own source wins', async () => {
      const fromEnv = service({ pepper: undefined, env: { [PEPPER_ENV]: PEPPER } });
      const { secret } = await fromEnv.create({ name: 'env' });
      expect(await service().authenticate(secret)).toBeDefined();
      expect(await service({ env: { [PEPPER_ENV]: 'x'.repeat(40) } }).authenticate(secret)).toBeDefined();
    });

    it('refuses a blank or over-long name, and an invalid expiry, with per-field messages and no row', async () => {
      const before = await database.db.selectFrom(TOKENS_TABLE).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const blank = await refusalOf(service().create({ name: '  ' }));
      expect(isPanelError(blank, 'PANEL_ERR_RECORD_INVALID')).toBe(true);
      expect(blank.errors).toEqual({ name: ["can't be blank"] });
      expect((await refusalOf(service().create({ name: 'x'.repeat(121) }))).errors).toEqual({ name: ['is too long (maximum is 120 characters)'] });
      expect((await refusalOf(service().create({ name: 'x', expiresAt: new Date('nope') }))).errors).toEqual({ expires_at: ['is not a valid datetime'] });
      const after = await database.db.selectFrom(TOKENS_TABLE).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });

    it('"Only an Active token authenticates": Disabled ⇄ Active is reversible; Revoked is permanent', async () => {
      const tokens = service();
      const { secret, token } = await tokens.create({ name: 'cycle', grants: ['comments:index'] });
      expect((await tokens.disable(token.id)).status).toBe('Disabled');
      expect(await tokens.authenticate(secret)).toBeUndefined();
      expect((await tokens.enable(token.id)).status).toBe('Active');
      expect(await tokens.authenticate(secret)).toBeDefined();
      const revoked = await tokens.revoke(token.id);
      expect(revoked.status).toBe('Revoked');
      expect(revoked.revokedAt).toEqual(clock);
      expect(await tokens.authenticate(secret)).toBeUndefined();
      const error = await refusalOf(tokens.enable(token.id));
      expect(error.code).toBe('PANEL_API_ERR_TOKEN_TRANSITION');
      expect(error.message).toMatch(/Revoked; it cannot be enabled\. Revocation is permanent/);
      expect((await refusalOf(tokens.disable(token.id))).code).toBe('PANEL_API_ERR_TOKEN_TRANSITION');
      expect((await tokens.revoke(token.id)).status).toBe('Revoked');
      expect((await tokens.find(token.id)).status).toBe('Revoked');
    });

    it('a disabled token can be revoked too, and stays revoked', async () => {
      const tokens = service();
      const { token } = await tokens.create({ name: 'disabled-then-revoked' });
      await tokens.disable(token.id);
      expect((await tokens.revoke(token.id)).status).toBe('Revoked');
      expect((await refusalOf(tokens.enable(token.id))).code).toBe('PANEL_API_ERR_TOKEN_TRANSITION');
    });

    it('a token past its expiry is Expired and does not authenticate; blank expiry never expires', async () => {
      const tokens = service();
      const { secret, token } = await tokens.create({ name: 'short-lived', expiresAt: new Date(clock.getTime() + 60_000) });
      const { secret: forever } = await tokens.create({ name: 'forever', expiresAt: null });
      expect(await tokens.authenticate(secret)).toBeDefined();
      const saved = clock;
      clock = new Date(saved.getTime() + 60_000);
      try {
        expect((await tokens.find(token.id)).status).toBe('Expired');
        expect(await tokens.authenticate(secret)).toBeUndefined();
        expect(await tokens.authenticate(forever)).toBeDefined();
        expect((await refusalOf(tokens.enable(token.id))).message).toMatch(/is Expired; it cannot be enabled/);
      } finally {
        clock = saved;
      }
    });

    it('accepts an expiry already in the past (a script may make an expired token), which never authenticates', async () => {
      const { secret, token } = await service().create({ name: 'expired', expiresAt: new Date(clock.getTime() - 1) });
      expect(token.status).toBe('Expired');
      expect(await service().authenticate(secret)).toBeUndefined();
    });

    it('writes last_used_at at most once a minute per token', async () => {
      const tokens = service();
      const { secret, token } = await tokens.create({ name: 'busy' });
      const saved = clock;
      try {
        const writes = async () => (await countQueries(database, () => tokens.authenticate(secret))).statements.filter((s) => /^update/i.test(s)).length;
        expect(await writes()).toBe(1);
        expect((await tokens.find(token.id)).lastUsedAt).toEqual(saved);
        clock = new Date(saved.getTime() + 59_000);
        expect(await writes()).toBe(0);
        clock = new Date(saved.getTime() + 60_000);
        expect(await writes()).toBe(1);
        expect((await tokens.find(token.id)).lastUsedAt).toEqual(clock);
      } finally {
        clock = saved;
      }
    });

    it('authenticates with one statement when last_used_at is fresh: the token and its grants together', async () => {
      const tokens = service();
      const { secret } = await tokens.create({ name: 'one-query', grants: ['blog_posts:index', 'comments:show'] });
      await tokens.authenticate(secret);
      const { count, result } = await countQueries(database, () => tokens.authenticate(secret));
      expect(count).toBe(1);
      expect(result!.grants).toEqual([{ resource: 'blog_posts', verb: 'index' }, { resource: 'comments', verb: 'show' }]);
    });

    it('replaces a token\'s grants, accepting objects or "<route_key>:<verb>" and ignoring duplicates', async () => {
      const tokens = service();
      const { token, secret } = await tokens.create({ name: 'regrant', grants: ['blog_posts:index'] });
      const updated = await tokens.setGrants(token.id, [{ resource: 'comments', verb: 'create' }, 'comments:create', 'products:destroy']);
      expect(updated.grants).toEqual([{ resource: 'comments', verb: 'create' }, { resource: 'products', verb: 'destroy' }]);
      const actor = await tokens.authenticate(secret);
      expect(actor!.allows('blog_posts', 'index')).toBe(false);
      expect(actor!.allows('products', 'destroy')).toBe(true);
    });

    it('refuses a grant with an unknown verb or resource, and leaves the grants as they were', async () => {
      const tokens = service();
      const { token } = await tokens.create({ name: 'strict', grants: ['comments:index'] });
      for (const bad of ['comments:publish', 'nope:index', 'comments', ':index'] as const) {
        const error = await refusalOf(tokens.setGrants(token.id, ['blog_posts:show', bad]));
        expect(error.code, bad).toBe('PANEL_API_ERR_GRANT_INVALID');
      }
      expect((await refusalOf(tokens.create({ name: 'y', grants: ['users:index'] }))).message).toMatch(/Known resources: blog_posts, comments, products/);
      expect((await tokens.find(token.id)).grants).toEqual([{ resource: 'comments', verb: 'index' }]);
    });

    it('"The default permissions list may grant only index and show": a write verb is refused, in the service and in the database', async () => {
      const tokens = service();
      expect(await tokens.setDefaultPermissions(['products:index', 'products:show', 'blog_posts:index'])).toEqual([
        { resource: 'blog_posts', verb: 'index' },
        { resource: 'products', verb: 'index' },
        { resource: 'products', verb: 'show' },
      ]);
      const error = await refusalOf(tokens.setDefaultPermissions(['products:index', 'products:create']));
      expect(error.code).toBe('PANEL_API_ERR_GRANT_INVALID');
      expect(error.message).toMatch(/only index and show.*writes always need a Bearer token/);
      expect(await tokens.defaultPermissions()).toHaveLength(3);
      await expect(database.db.insertInto(GRANTS_TABLE).values({ token_id: null, resource: 'products', verb: 'destroy' }).execute()).rejects.toThrow(/panel_api_default_grants_read_only/);
    });

    it('keeps the default permissions list apart from every token\'s grants', async () => {
      const tokens = service();
      await tokens.setDefaultPermissions(['comments:show']);
      const { token } = await tokens.create({ name: 'separate', grants: ['comments:destroy'] });
      expect(await tokens.defaultPermissions()).toEqual([{ resource: 'comments', verb: 'show' }]);
      expect((await tokens.find(token.id)).grants).toEqual([{ resource: 'comments', verb: 'destroy' }]);
    });

    it('lists tokens newest first with their status, never a secret or digest', async () => {
      const listed = await service().list();
      expect(listed.length).toBeGreaterThan(3);
      for (const token of listed) expect(Object.keys(token).sort()).toEqual(['createdAt', 'createdById', 'expiresAt', 'grants', 'id', 'lastUsedAt', 'name', 'revokedAt', 'status']);
      expect((await refusalOf(service().find(999_999))).code).toBe('PANEL_API_ERR_TOKEN_NOT_FOUND');
    });
  });
}
