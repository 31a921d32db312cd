// Edges of POST /api/resources/v1/<route_key>/batch found by probing the demo (issues 44 and 45): lock order, deadlocks, ids past the column's range.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

const BATCH = '/api/resources/v1/blog_posts/batch';

describeOnEachDatabase('batch edges through HTTP', (demo, kind) => {
  const batch = (body: unknown) => demo().app.inject({ method: 'POST', url: BATCH, headers: { ...ADMIN, 'content-type': 'application/json' }, payload: body as Record<string, unknown> });
  const updates = (ids: number[], summary: string) => ({ operations: ids.map((id) => ({ op: 'update', id, data: { summary } })) });

  it('"lock the targets in one statement": a blog post batch (one by one, for its validate hook) locks every update and delete target first, in primary-key order', async () => {
    const asked: string[] = [];
    const stop = demo().panel.database.onQuery((query) => asked.push(query.sql));
    const response = await batch({ operations: [{ op: 'update', id: 14, data: { summary: 'Locked first' } }, { op: 'create', data: { title: 'New', author_id: 1 } }, { op: 'delete', id: 12 }, { op: 'update', id: 13, data: { summary: 'Locked first' } }] });
    stop();
    expect(response.statusCode).toBe(200);
    const locks = asked.filter((statement) => / for update/.test(statement));
    expect(locks[0]).toMatch(/^select "id" from "blog_posts" where "id" = any\(cast\(\$1 as bigint\[\]\)\) order by "id" for update$/);
    expect(asked.findIndex((statement) => / for update/.test(statement)), 'the lock comes before any write').toBeLessThan(asked.findIndex((statement) => /^(with|insert|update|delete)/.test(statement)));
  });

  it('"a record outside the scope and a missing id give identical 404s": an id past the column\'s range (2147483648) is its operation\'s 404, as DELETE /blog_posts/2147483648 answers, never a 400', async () => {
    const single = await demo().app.inject({ method: 'DELETE', url: '/api/resources/v1/blog_posts/2147483648', headers: ADMIN });
    expect(single.statusCode).toBe(404);
    const alone = await batch({ operations: [{ op: 'delete', id: 2147483648 }] });
    expect(alone.statusCode, alone.body).toBe(422);
    expect(alone.json().results).toEqual([{ index: 0, status: 404, ...single.json() }]);
    const before = await demo().panel.database.db.selectFrom('blog_posts').select('summary').where('id', '=', 15).executeTakeFirstOrThrow();
    const atomic = await batch({ operations: [{ op: 'update', id: 15, data: { summary: 'Not applied' } }, { op: 'update', id: 99999999999, data: { summary: 'x' } }] });
    expect(atomic.statusCode).toBe(422);
    expect(atomic.json().results).toEqual([{ index: 0, status: 424, error: 'Not applied: the batch was rolled back' }, { index: 1, status: 404, error: 'Not Found' }]);
    expect(await demo().panel.database.db.selectFrom('blog_posts').select('summary').where('id', '=', 15).executeTakeFirstOrThrow()).toEqual(before);
    const partial = await batch({ atomic: false, operations: [{ op: 'delete', id: 2147483648, ref: 'past' }, { op: 'update', id: 15, data: { summary: 'Applied' } }] });
    expect(partial.statusCode).toBe(200);
    expect(partial.json().results.map((result: { status: number }) => result.status)).toEqual([404, 200]);
    // Products run in bulk: the same answer on that path.
    const bulk = await demo().app.inject({ method: 'POST', url: '/api/resources/v1/products/batch', headers: { ...ADMIN, 'content-type': 'application/json' }, payload: { atomic: false, operations: [{ op: 'update', id: 2147483648, data: { price: 1 } }, { op: 'delete', id: 4294967296 }] } });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(bulk.json().results.map((result: { status: number }) => result.status)).toEqual([404, 404]);
    // Still a 400: a value that is not an id at all, and the same id twice.
    expect((await batch({ operations: [{ op: 'delete', id: -1 }] })).statusCode).toBe(400);
    expect((await batch({ operations: [{ op: 'delete', id: 2147483648 }, { op: 'delete', id: 2147483648 }] })).statusCode).toBe(400);
  });

  it('"a batch never answers with the single endpoint\'s 302": the OpenAPI document lists no 302 among a batch\'s responses', async () => {
    const document = (await demo().app.inject({ method: 'GET', url: '/api/resources/v1/openapi.json', headers: ADMIN })).json();
    const batches = Object.values(document.paths as Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>>).flatMap((item) => Object.values(item)).filter((operation) => /^batch/.test(operation.operationId ?? ''));
    expect(batches.map((operation) => operation.operationId)).toContain('batchBlogPosts');
    for (const operation of batches) expect(Object.keys(operation.responses!), operation.operationId).not.toContain('302');
    const destroy = document.paths['/blog_posts/{id}']?.delete ?? Object.values(document.paths as Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>>).flatMap((item) => Object.values(item)).find((operation) => operation.operationId === 'deleteBlogPost');
    expect(Object.keys(destroy.responses), 'the single endpoint keeps its 302').toContain('302');
  });

  if (kind !== 'postgres') return;

  it('two concurrent batches updating the same posts in opposite orders never deadlock: both answer 200', async () => {
    for (let round = 0; round < 8; round += 1) {
      const [one, other] = await Promise.all([batch(updates([13, 14], `A${round}`)), batch(updates([14, 13], `B${round}`))]);
      expect([one.statusCode, other.statusCode], `round ${round}: ${one.body} ${other.body}`).toEqual([200, 200]);
    }
  });

  it('a deadlock that still happens (against an app\'s own lock) is 503 with Retry-After and a JSON body, never a 500, and writes nothing', async () => {
    const { db } = demo().panel.database;
    const before = await db.selectFrom('blog_posts').select(['id', 'summary']).where('id', 'in', [13, 14]).orderBy('id').execute();
    let answer: Awaited<ReturnType<typeof batch>> | undefined;
    await db.transaction().execute(async (trx) => {
      await sql`select id from blog_posts where id = 14 for update`.execute(trx);
      const pending = batch(updates([13, 14], 'Deadlocked')).then((response) => (answer = response));
      // The batch holds 13 and waits for 14; then this connection asks for 13: a deadlock, which PostgreSQL breaks in the batch (it waited first).
      for (let tries = 0; tries < 100; tries += 1) {
        const { rows } = await sql<{ waiting: number }>`select count(*)::int as waiting from pg_stat_activity where wait_event_type = 'Lock' and query like '%blog_posts%for update%' and pid <> pg_backend_pid()`.execute(db);
        if (rows[0]!.waiting > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await sql`select id from blog_posts where id = 13 for update`.execute(trx);
      await pending;
    });
    expect(answer!.statusCode, answer!.body).toBe(503);
    expect(answer!.headers['retry-after']).toBe('5');
    expect(answer!.json()).toEqual({ error: 'Service Unavailable' });
    expect(await db.selectFrom('blog_posts').select(['id', 'summary']).where('id', 'in', [13, 14]).orderBy('id').execute()).toEqual(before);
  });
});
