// Edition B's token cache through real HTTP on the demo: what a repeated token request costs.
import { expect, it } from 'vitest';
import { countQueries } from '@panel/test-support';
import { TOKEN_RATE_LIMITS_TABLE } from '@panel/core';
import { TOKENS_TABLE, GRANTS_TABLE } from '@panel/api-tokens';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';
const tokenStatements = (statements: string[]) => statements.filter((sql) => [TOKENS_TABLE, GRANTS_TABLE, TOKEN_RATE_LIMITS_TABLE].some((table) => sql.includes(`"${table}"`)));

describeOnEachDatabase(
  'Edition B token cache',
  (demo) => {
    const bearer = (name: string) => ({ authorization: `Bearer ${demo().tokenSecrets!.get(name)!}` });
    const get = (url: string, headers: Record<string, string>) => demo().app.inject({ method: 'GET', url, headers });

    it('"a repeated token costs no statement": the second show and index with the same Bearer token send no token statement, and otherwise the same statements and records', async () => {
      await demo().database.changes!.ready();
      for (const url of [`${V1}/blog_posts/6`, `${V1}/blog_posts?per_page=25`]) {
        const first = await countQueries(demo().database, () => get(url, bearer('reader')));
        const again = await countQueries(demo().database, () => get(url, bearer('reader')));
        expect(again.result.statusCode).toBe(200);
        // The same records (a signed file URL in them differs: it carries its own expiry).
        expect(JSON.stringify(again.result.json(), (key, value) => (key === 'url' ? undefined : value))).toBe(JSON.stringify(first.result.json(), (key, value) => (key === 'url' ? undefined : value)));
        expect(tokenStatements(again.statements)).toEqual([]);
        // Sorted: on PostgreSQL an index page's statement and its count run side by side.
        expect([...again.statements].sort()).toEqual(first.statements.filter((sql) => !tokenStatements([sql]).length).sort());
      }
    });

    it('"The default permissions list governs the code-hook path": read once, then no statement on the code-hook path either', async () => {
      await get(`${V1}/products`, ADMIN);
      const again = await countQueries(demo().database, () => get(`${V1}/products`, ADMIN));
      expect(again.result.statusCode).toBe(200);
      expect(tokenStatements(again.statements)).toEqual([]);
    });

    it('a revoked token is refused by the next request of the process that revoked it, though it was cached', async () => {
      const { tokens } = demo();
      const { token, secret } = await tokens!.create({ name: 'revoked-while-cached', grants: ['blog_posts:index'] });
      const headers = { authorization: `Bearer ${secret}` };
      expect((await get(`${V1}/blog_posts`, headers)).statusCode).toBe(200);
      expect(tokenStatements((await countQueries(demo().database, () => get(`${V1}/blog_posts`, headers))).statements)).toEqual([]);
      await tokens!.revoke(token.id);
      const refused = await get(`${V1}/blog_posts`, headers);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({ error: 'Unauthorized' });
    });
  },
  { edition: 'B' },
);
