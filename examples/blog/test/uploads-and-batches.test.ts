// POST /api/uploads and POST /api/resources/v1/<route_key>/batch through HTTP: the design "Writes beyond one record", both contracts.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { INVALID_UPLOAD_MESSAGE } from '@panel/core';
import { countQueries } from '@panel/test-support';
import { ADMIN, READER, describeOnEachDatabase } from './demo-app-support.js';
import { solidPng } from '../db/seed-files.js';

/** A multipart/form-data body with one file part. */
function multipart(field: string, filename: string, contentType: string, bytes: Buffer): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----panel-test-boundary-7MA4YWxkTrZu0gW';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const EXE = Buffer.concat([Buffer.from('4d5a90000300000004000000ffff0000b800000000000000400000000000000000000000000000000000000000000000000000000000000000000000800000000e1fba0e00b409cd21b8014ccd21546869732070726f6772616d2063616e6e6f742062652072756e20696e20444f53206d6f64652e0d0d0a2400000000000000', 'hex'), Buffer.alloc(64)]);

describeOnEachDatabase('uploads and batches through HTTP', (demo) => {
  const upload = async (bytes: Buffer, filename = 'cover.png', contentType = 'image/png', headers: Record<string, string> = ADMIN) => {
    const body = multipart('file', filename, contentType, bytes);
    return demo().app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...headers, ...body.headers } });
  };
  const write = (method: 'POST' | 'PATCH', url: string, attributes: Record<string, unknown>, headers: Record<string, string> = ADMIN) =>
    demo().app.inject({ method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: { blog_post: attributes } });
  const batch = (body: unknown, headers: Record<string, string> = ADMIN) => demo().app.inject({ method: 'POST', url: '/api/resources/v1/blog_posts/batch', headers: { ...headers, 'content-type': 'application/json' }, payload: body as Record<string, unknown> });

  it('POST /api/uploads takes a PNG as multipart and answers 201 { upload } with the type its bytes say', async () => {
    const response = await upload(solidPng(8, 8, [10, 20, 30]), 'front.png', 'application/octet-stream');
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ upload: { id: expect.stringMatching(/^up_/), filename: 'front.png', content_type: 'image/png', byte_size: solidPng(8, 8, [10, 20, 30]).length, expires_at: expect.any(String) } });
  });

  it('"cover": "<upload id>" attaches on create, a second upload replaces it, "cover": null removes it', async () => {
    const first = (await upload(solidPng(4, 4, [1, 2, 3]), 'one.png')).json().upload;
    const created = await write('POST', '/api/resources/v1/blog_posts', { title: 'With a cover', author_id: 1, cover: first.id });
    expect(created.statusCode).toBe(201);
    const record = created.json().record;
    expect(record.cover).toEqual({ filename: 'one.png', content_type: 'image/png', byte_size: first.byte_size, url: expect.stringMatching(/^\/panel\/attachments\/[a-z0-9]{28}\/one\.png$/) });
    const fetched = await demo().app.inject({ method: 'GET', url: record.cover.url });
    expect(fetched.statusCode).toBe(200);
    const second = (await upload(solidPng(5, 5, [4, 5, 6]), 'two.png')).json().upload;
    const replaced = await write('PATCH', `/api/resources/v1/blog_posts/${record.id}`, { cover: second.id });
    expect(replaced.json().record.cover.filename).toBe('two.png');
    expect((await demo().app.inject({ method: 'GET', url: record.cover.url })).statusCode, 'the replaced bytes are purged').toBe(404);
    const removed = await write('PATCH', `/api/resources/v1/blog_posts/${record.id}`, { cover: null });
    expect(removed.json().record.cover).toBeNull();
  });

  it('"attachments": [ids] adds files, "attachments_remove" removes the named ones', async () => {
    const a = (await upload(Buffer.from('a note'), 'a.txt', 'text/plain')).json().upload;
    const b = (await upload(Buffer.from('b note'), 'b.txt', 'text/plain')).json().upload;
    const created = (await write('POST', '/api/resources/v1/blog_posts', { title: 'Files', author_id: 1, attachments: [a.id, b.id] })).json().record;
    expect(created.attachments.map((file: { filename: string }) => file.filename)).toEqual(['a.txt', 'b.txt']);
    const removed = await write('PATCH', `/api/resources/v1/blog_posts/${created.id}`, { attachments_remove: ['a.txt'] });
    expect(removed.json().record.attachments.map((file: { filename: string }) => file.filename)).toEqual(['b.txt']);
  });

  it('accept refuses a renamed executable by its bytes: 422 on the field', async () => {
    const renamed = (await upload(EXE, 'holiday.png', 'image/png')).json().upload;
    const response = await write('POST', '/api/resources/v1/blog_posts', { title: 'Malware', author_id: 1, cover: renamed.id });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ errors: { cover: ['has a type that is not accepted (image/png, image/jpeg, image/gif, image/webp)'] }, message: 'Failed to create Blog post' });
  });

  it('a body over the largest file the credential may attach is 413, refused while it is read', async () => {
    const response = await upload(Buffer.alloc(10 * 1024 * 1024 + 1, 1), 'big.bin', 'application/octet-stream');
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'Request body is too large' });
  });

  it('a malformed multipart body (no boundary, a part cut short) is 400 JSON saying so, never a 500', async () => {
    for (const [contentType, payload] of [['multipart/form-data; boundary=', 'x'], ['multipart/form-data; boundary=b', '--b\r\ncontent-disposition: form-data; name="file"; filename="a.png"\r\n\r\nPNG']]) {
      const response = await demo().app.inject({ method: 'POST', url: '/api/uploads', headers: { ...ADMIN, 'content-type': contentType }, payload });
      expect(response.statusCode, contentType).toBe(400);
      expect(response.json(), contentType).toEqual({ error: 'The body is not valid multipart/form-data (Fix: send a Content-Type with its boundary, and complete parts)' });
    }
  });

  it('an id used twice, or uploaded by another credential, gets the same 422 on the field', async () => {
    const used = (await upload(solidPng(3, 3, [9, 9, 9]))).json().upload;
    expect((await write('POST', '/api/resources/v1/blog_posts', { title: 'Uses it', author_id: 1, cover: used.id })).statusCode).toBe(201);
    const foreign = (await upload(solidPng(3, 3, [8, 8, 8]), 'r.png', 'image/png', READER)).json().upload;
    const bodies = [];
    for (const id of [used.id, foreign.id]) {
      const response = await write('POST', '/api/resources/v1/blog_posts', { title: 'Refused', author_id: 1, cover: id });
      expect(response.statusCode).toBe(422);
      bodies.push(response.json());
    }
    expect(bodies).toEqual([
      { errors: { cover: [INVALID_UPLOAD_MESSAGE] }, message: 'Failed to create Blog post' },
      { errors: { cover: [INVALID_UPLOAD_MESSAGE] }, message: 'Failed to create Blog post' },
    ]);
  });

  it('a direct upload on disk storage is 400: send the file itself', async () => {
    const response = await demo().app.inject({ method: 'POST', url: '/api/uploads', headers: { ...ADMIN, 'content-type': 'application/json' }, payload: { filename: 'a.png', content_type: 'image/png', byte_size: 10, checksum: 'AAAAAAAAAAAAAAAAAAAAAA==' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/send the file itself/);
  });

  it('an atomic batch answers 200 with each result; a failure at any place answers 422, every valid operation 424, nothing written', async () => {
    const ok = await batch({ operations: [{ op: 'create', ref: 'new-1', data: { title: 'Batch A', author_id: 1 } }, { op: 'create', data: { title: 'Batch B', author_id: 1 } }] });
    expect(ok.statusCode).toBe(200);
    const body = ok.json();
    expect(body.summary).toEqual({ succeeded: 2, failed: 0, not_applied: 0 });
    expect(body.results[0]).toMatchObject({ index: 0, ref: 'new-1', status: 201, record: { title: 'Batch A' } });
    const id = body.results[1].record.id;
    const failed = await batch({ operations: [{ op: 'update', id, data: { title: 'Changed' } }, { op: 'create', data: { title: '' } }, { op: 'delete', id: 999999 }] });
    expect(failed.statusCode).toBe(422);
    expect(failed.json()).toEqual({
      results: [
        { index: 0, status: 424, error: 'Not applied: the batch was rolled back' },
        { index: 1, status: 422, errors: { title: ["can't be blank"] }, message: 'Failed to create Blog post' },
        { index: 2, status: 404, error: 'Not Found' },
      ],
      summary: { succeeded: 0, failed: 2, not_applied: 1 },
    });
    const unchanged = await demo().app.inject({ method: 'GET', url: `/api/resources/v1/blog_posts/${id}`, headers: ADMIN });
    expect(unchanged.json().record.title).toBe('Batch B');
  });

  it('"atomic": false applies the valid operations; a reader\'s delete is 403 in its result, never a 302', async () => {
    const response = await batch({ atomic: false, operations: [{ op: 'create', data: { title: 'Partial' } }, { op: 'delete', id: 1 }] }, READER);
    expect(response.statusCode).toBe(200);
    const { results, summary } = response.json();
    expect(results.map((result: { status: number }) => result.status)).toEqual([201, 403]);
    expect(results[1]).toEqual({ index: 1, status: 403, error: 'Forbidden' });
    expect(summary).toEqual({ succeeded: 1, failed: 1, not_applied: 0 });
  });

  it('a condition several operations ask (one category named by two rows) is selected once, and every operation gets its answer', async () => {
    const asked: string[] = [];
    const stop = demo().panel.database.onQuery((query) => asked.push(query.sql));
    const operations = [1, 999_999, 1, 999_999].map((category, i) => ({ op: 'create', data: { name: `Shared check ${i}`, price: 1, in_stock: true, product_category_id: category, status: 'active' } }));
    const response = await demo().app.inject({ method: 'POST', url: '/api/resources/v1/products/batch', headers: { ...ADMIN, 'content-type': 'application/json' }, payload: { atomic: false, operations } });
    stop();
    expect(response.statusCode).toBe(200);
    const { results } = response.json();
    expect(results.map((result: { status: number }) => result.status)).toEqual([201, 422, 201, 422]);
    expect(results[1].errors).toEqual(results[3].errors);
    const checks = asked.filter((statement) => statement.includes('_panel_check_'));
    expect(checks).toHaveLength(1);
    expect(checks[0]!.match(/exists \(/g)).toHaveLength(2);
  });

  it('an atomic batch of creates: a missing category at any place is 422 there, 424 for the others, nothing written; else its checks in one select, its rows inserted and read back by one statement, each as stored', async () => {
    const products = async () => (await demo().panel.database.db.selectFrom('products').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n;
    const create = (category: number, i: number) => ({ op: 'create', data: { name: `Gated ${category}-${i}`, price: 2, in_stock: true, product_category_id: category, status: 'active' } });
    const before = await products();
    for (let position = 0; position < 3; position += 1) {
      const operations = [0, 1, 2].map((i) => create(i === position ? 999_999 : 1, i));
      const response = await demo().app.inject({ method: 'POST', url: '/api/resources/v1/products/batch', headers: { ...ADMIN, 'content-type': 'application/json' }, payload: { operations } });
      expect(response.statusCode, `missing at ${position}`).toBe(422);
      expect(response.json().results.map((result: { status: number }) => result.status)).toEqual([0, 1, 2].map((i) => (i === position ? 422 : 424)));
      expect(response.json().results[position].errors).toEqual({ product_category: ['must exist'] });
      expect(await products(), `missing at ${position}: nothing written`).toBe(before);
    }
    const asked: string[] = [];
    const stop = demo().panel.database.onQuery((query) => asked.push(query.sql));
    const response = await demo().app.inject({ method: 'POST', url: '/api/resources/v1/products/batch', headers: { ...ADMIN, 'content-type': 'application/json' }, payload: { operations: [0, 1, 2].map((i) => create(1, i)) } });
    stop();
    expect(response.statusCode).toBe(200);
    const records = response.json().results.map((result: { record: { id: number; name: string } }) => result.record);
    expect(records.map((record: { name: string }) => record.name)).toEqual(['Gated 1-0', 'Gated 1-1', 'Gated 1-2']);
    // Each record as stored, with its category's label (the admin lists categories; an anonymous GET /products/:id would not show it).
    const stored = await demo().panel.database.db.selectFrom('products as p').innerJoin('product_categories as c', 'c.id', 'p.product_category_id').select(['p.id', 'p.name', 'c.name as category']).where('p.id', 'in', records.map((record: { id: number }) => record.id)).orderBy('p.id').execute();
    expect(records.map((record: { id: number; name: string; product_category: unknown }) => ({ id: record.id, name: record.name, category: record.product_category }))).toEqual(stored.map((row) => ({ id: row.id, name: row.name, category: { id: 1, label: row.category } })));
    const touching = asked.filter((statement) => /product_categories|"products"/.test(statement));
    expect(touching).toHaveLength(2);
    expect(touching[0]).toMatch(/^select exists \(select "r"."id" from "product_categories"/);
    expect(touching[1]).toMatch(/^with "written" as \(insert into "products"/);
  });

  it('a batch reads and locks its ids as one array parameter: the same statements for 1 record or 3 (one prepared statement each, one plan)', async () => {
    const statementsOf = async (ids: number[]) => {
      const asked: string[] = [];
      const stop = demo().panel.database.onQuery((query) => asked.push(query.sql));
      const operations = ids.map((id) => ({ op: 'update', id, data: { price: id } }));
      const response = await demo().app.inject({ method: 'POST', url: '/api/resources/v1/products/batch', headers: { ...ADMIN, 'content-type': 'application/json' }, payload: { operations } });
      stop();
      expect(response.statusCode).toBe(200);
      return asked.filter((statement) => statement.includes('= any(cast('));
    };
    const one = await statementsOf([1]);
    expect(one.length).toBeGreaterThanOrEqual(3); // the lock and the read of the targets, the read back
    expect(await statementsOf([2, 3, 4])).toEqual(one);
  });

  it('"Statements: constant in the number of operations when no app hook or policy issues its own SQL": a hook runs for the operations it concerns only, so 1 and 10 updates of users (a beforeDestroy hook alone) cost 7, and 1 and 10 deletes of blog posts (a validate hook alone) cost 7', async () => {
    const db = demo().database.db;
    const census = async (routeKey: string, operations: unknown[]) => {
      const { result, count } = await countQueries(demo().database, () => demo().app.inject({ method: 'POST', url: `/api/resources/v1/${routeKey}/batch`, headers: { ...ADMIN, 'content-type': 'application/json' }, payload: { operations } }));
      expect(result.statusCode, result.body).toBe(200);
      expect(result.json().summary).toEqual({ succeeded: operations.length, failed: 0, not_applied: 0 });
      return count;
    };
    const counts: Record<string, number[]> = { updates: [], deletes: [] };
    for (const n of [1, 10]) {
      const users = await db.insertInto('users').values(Array.from({ length: n }, (_, i) => ({ name: `Batch ${n}-${i}`, email: `batch-${n}-${i}@example.com`, password_digest: 'x', admin: false }))).returning('id').execute();
      counts.updates!.push(await census('users', users.map(({ id }) => ({ op: 'update', id, data: { name: `Renamed ${id}` } }))));
      expect((await db.selectFrom('users').select('name').where('id', '=', users[0]!.id).executeTakeFirstOrThrow()).name).toBe(`Renamed ${users[0]!.id}`);
      const posts = await db.insertInto('blog_posts').values(Array.from({ length: n }, (_, i) => ({ title: `To delete ${n}-${i}`, author_id: 1 }))).returning('id').execute();
      counts.deletes!.push(await census('blog_posts', posts.map(({ id }) => ({ op: 'delete', id }))));
      expect(await db.selectFrom('blog_posts').select('id').where('id', 'in', posts.map(({ id }) => id)).execute()).toEqual([]);
      await db.deleteFrom('users').where('id', 'in', users.map(({ id }) => id)).execute();
    }
    expect(counts).toEqual({ updates: [7, 7], deletes: [7, 7] });
  });

  it('a stale if_match is 412 in its result', async () => {
    const response = await batch({ operations: [{ op: 'update', id: 2, if_match: '"stale"', data: { title: 'x' } }] });
    expect(response.statusCode).toBe(422);
    expect(response.json().results[0]).toEqual({ index: 0, status: 412, error: 'Precondition Failed' });
  });

  it('Idempotency-Key: the same key and body replay the stored answer; another body is 422', async () => {
    const key = { ...ADMIN, 'idempotency-key': `batch-${Date.now()}` };
    const body = { operations: [{ op: 'create', data: { title: 'Once', author_id: 1 } }] };
    const first = await batch(body, key);
    const again = await batch(body, key);
    expect(first.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const other = await batch({ operations: [{ op: 'create', data: { title: 'Other', author_id: 1 } }] }, key);
    expect(other.statusCode).toBe(422);
  });

  it('a malformed batch is 400: the same id twice, too many operations', async () => {
    const twice = await batch({ operations: [{ op: 'delete', id: 3 }, { op: 'update', id: 3, data: {} }] });
    expect(twice.statusCode).toBe(400);
    const many = await batch({ operations: Array.from({ length: 101 }, () => ({ op: 'create', data: { title: 't' } })) });
    expect(many.statusCode).toBe(400);
    expect(many.json().error).toMatch(/at most 100 operations/);
  });
});
