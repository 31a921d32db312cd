// "Rate limit: a batch spends one unit per operation" (design "Writes beyond one record"), through HTTP on the demo: what a refused batch spends.
import { expect, it } from 'vitest';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';
const remaining = (header: unknown) => Number(/;r=(\d+);/.exec(String(header))?.[1]);

describeOnEachDatabase(
  'What a batch spends of its token\'s rate limit (Edition B)',
  (demo) => {
    const tokenLimitedTo = async (max: number) => {
      const tokens = demo().tokens!;
      const made = await tokens.create({ name: `batch budget ${max} ${Math.random()}`, grants: ['blog_posts:index', 'blog_posts:show', 'blog_posts:create', 'blog_posts:update'] });
      await tokens.setRateLimit(made.token.id, max);
      return { authorization: `Bearer ${made.secret}` };
    };
    const batch = (headers: Record<string, string>, count: number, title: string) =>
      demo().app.inject({ method: 'POST', url: `${V1}/blog_posts/batch`, headers: { ...headers, 'content-type': 'application/json' }, payload: { operations: Array.from({ length: count }, (_, n) => ({ op: 'create', data: { title: `${title} ${n}`, author_id: 1 } })) } });
    const count = async (title: string) => Number((await demo().database.db.selectFrom('blog_posts').select((eb) => eb.fn.countAll().as('n')).where('title', 'like', `${title}%`).executeTakeFirstOrThrow()).n);

    it('"a batch spends one unit per operation": a batch of 3 within the budget spends 3', async () => {
      const headers = await tokenLimitedTo(5);
      const response = await batch(headers, 3, 'Spends three');
      expect(response.statusCode).toBe(200);
      expect(remaining(response.headers.ratelimit)).toBe(2);
    });

    it('a batch refused for lack of budget (429) writes nothing and spends only what any refused request spends (one unit): the next small batch goes through', async () => {
      const headers = await tokenLimitedTo(5);
      expect((await demo().app.inject({ method: 'GET', url: `${V1}/blog_posts?per_page=1`, headers })).statusCode).toBe(200);
      const refused = await batch(headers, 5, 'Over budget');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: 'Too Many Requests' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(remaining(refused.headers.ratelimit), 'the refused batch spent one unit, as a refused request does').toBe(3);
      expect(await count('Over budget')).toBe(0);
      const next = await batch(headers, 1, 'Within budget');
      expect(next.statusCode, next.body).toBe(200);
      expect(remaining(next.headers.ratelimit)).toBe(2);
    });
  },
  { edition: 'B' },
);

describeOnEachDatabase('What a malformed batch spends of the rate limit (Edition A)', (demo) => {
  it('a batch refused as malformed (400: more operations than allowed, an id twice) spends what any other 400 spends, one unit, not one per listed operation', async () => {
    const before = remaining((await demo().app.inject({ method: 'GET', url: `${V1}/blog_posts?per_page=1`, headers: ADMIN })).headers.ratelimit);
    const tooMany = await demo().app.inject({ method: 'POST', url: `${V1}/blog_posts/batch`, headers: { ...ADMIN, 'content-type': 'application/json' }, payload: { operations: Array.from({ length: 150 }, () => ({ op: 'create', data: { title: 't' } })) } });
    expect(tooMany.statusCode).toBe(400);
    expect(remaining(tooMany.headers.ratelimit)).toBe(before - 1);
    const twice = await demo().app.inject({ method: 'POST', url: `${V1}/blog_posts/batch`, headers: { ...ADMIN, 'content-type': 'application/json' }, payload: { operations: [{ op: 'delete', id: 3 }, { op: 'delete', id: 4 }, { op: 'delete', id: 3 }] } });
    expect(twice.statusCode).toBe(400);
    expect(remaining(twice.headers.ratelimit)).toBe(before - 2);
    const after = remaining((await demo().app.inject({ method: 'GET', url: `${V1}/blog_posts?per_page=1`, headers: ADMIN })).headers.ratelimit);
    expect(after).toBe(before - 3);
  });
});
