// Issue 42, L4 and the replay item: "preconditions (If-Match) are evaluated after authorization for
// PATCH, PUT and DELETE, both editions: a refused request answers the refusal whatever the ETag;
// an idempotent replay authorizes again and answers as the credential's rights stand now"
// (RFC 9110 §13.2.1: a server evaluates preconditions after it would otherwise succeed).
import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { ADMIN, READER, describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';
type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

describeOnEachDatabase('preconditions after authorization (Edition A)', (demo) => {
  const send = (method: Method, url: string, headers: Record<string, string>, payload?: unknown) =>
    demo().app.inject({ method, url: `${V1}${url}`, headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });
  /** A post of Ada's that Rita reads (published) but may not delete (admins only) nor update (its author or an admin). */
  const adasPost = async () => Number((await sql<{ id: number }>`select id from blog_posts where author_id = 1 and published order by id limit 1`.execute(demo().database.db)).rows[0]!.id);

  it('"a refused request answers the refusal whatever the ETag": Rita\'s PATCH, PUT and DELETE of Ada\'s post answer the same refusal with a wrong ETag and with the right one, and nothing changes', async () => {
    const id = await adasPost();
    const shown = await send('GET', `/blog_posts/${id}`, READER);
    const tag = shown.headers.etag as string;
    expect(tag).toBeTruthy();
    for (const method of ['PATCH', 'PUT', 'DELETE'] as const) {
      const body = method === 'DELETE' ? undefined : { blog_post: { title: 'Rita was here' } };
      const wrong = await send(method, `/blog_posts/${id}`, { ...READER, 'if-match': '"not-the-tag"' }, body);
      const right = await send(method, `/blog_posts/${id}`, { ...READER, 'if-match': tag }, body);
      expect([method, wrong.statusCode, wrong.body]).toEqual([method, right.statusCode, right.body]);
      expect(right.statusCode).toBe(302);
    }
    expect((await send('GET', `/blog_posts/${id}`, READER)).headers.etag).toBe(tag);
  });

  it('a batch operation\'s if_match is judged after the policy too: a refused delete is "forbidden" with a wrong tag and with the right one', async () => {
    const id = await adasPost();
    const tag = (await send('GET', `/blog_posts/${id}`, READER)).headers.etag as string;
    const results = async (ifMatch: string) => (await send('POST', '/blog_posts/batch', READER, { atomic: false, operations: [{ op: 'delete', id, if_match: ifMatch }] })).json().results;
    expect(await results('"not-the-tag"')).toEqual(await results(tag));
    expect((await results(tag))[0].status).toBe(403);
  });

  it('"an idempotent replay authorizes again": Ada\'s keyed PATCH of a tag is replayed while she is an admin, refused once she is not, and replayed again when she is', async () => {
    const key = { ...ADMIN, 'idempotency-key': 'replay-after-demotion-1' };
    const first = await send('PATCH', '/tags/1', key, { tag: { name: 'Replayed' } });
    expect(first.statusCode).toBe(200);
    const again = await send('PATCH', '/tags/1', key, { tag: { name: 'Replayed' } });
    expect([again.statusCode, again.headers['idempotent-replayed']]).toEqual([200, 'true']);
    const createKey = { ...ADMIN, 'idempotency-key': 'replay-after-demotion-create' };
    const created = await send('POST', '/tags', createKey, { tag: { name: 'Made before demotion' } });
    expect(created.statusCode).toBe(201);
    await sql`update users set admin = false where id = 1`.execute(demo().database.db);
    try {
      // A create's replay asks whether she still reads the record it made (tags are public), not whether she may create another.
      const createdAgain = await send('POST', '/tags', createKey, { tag: { name: 'Made before demotion' } });
      expect([createdAgain.statusCode, createdAgain.headers['idempotent-replayed'], createdAgain.body]).toEqual([201, 'true', created.body]);
      const demoted = await send('PATCH', '/tags/1', key, { tag: { name: 'Replayed' } });
      expect(demoted.statusCode).toBe(302);
      expect(demoted.headers['idempotent-replayed']).toBeUndefined();
      const deleted = await send('DELETE', '/tags/1', { ...ADMIN, 'idempotency-key': 'replay-after-demotion-2' });
      expect(deleted.statusCode).toBe(302);
    } finally {
      await sql`update users set admin = true where id = 1`.execute(demo().database.db);
    }
    expect((await send('PATCH', '/tags/1', key, { tag: { name: 'Replayed' } })).statusCode).toBe(200);
  });
});

describeOnEachDatabase(
  'preconditions after authorization (Edition B)',
  (demo) => {
    const send = (method: Method, url: string, headers: Record<string, string>, payload?: unknown) =>
      demo().app.inject({ method, url: `${V1}${url}`, headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });
    const bearer = (name: string) => ({ authorization: `Bearer ${demo().tokenSecrets!.get(name)!}` });

    it('"a refused request answers the refusal whatever the ETag": the reader token (no update or destroy grant) gets 403 for a wrong and for the right ETag', async () => {
      const tag = (await send('GET', '/blog_posts/3', bearer('reader'))).headers.etag as string;
      for (const method of ['PATCH', 'PUT', 'DELETE'] as const) {
        const body = method === 'DELETE' ? undefined : { blog_post: { title: 'Token was here' } };
        const wrong = await send(method, '/blog_posts/3', { ...bearer('reader'), 'if-match': '"not-the-tag"' }, body);
        const right = await send(method, '/blog_posts/3', { ...bearer('reader'), 'if-match': tag }, body);
        expect([method, wrong.statusCode, wrong.body]).toEqual([method, right.statusCode, right.body]);
        expect(right.statusCode).toBe(403);
      }
    });

    it('"answers as the credential\'s rights stand now": a keyed write replayed after its token lost the grant is 403, after it was disabled 401', async () => {
      const { token, secret } = await demo().tokens!.create({ name: 'replay rights', grants: ['tags:update', 'tags:show'], createdById: 1 });
      const key = { authorization: `Bearer ${secret}`, 'idempotency-key': 'token-replay-1' };
      expect((await send('PATCH', '/tags/2', key, { tag: { name: 'Token tag' } })).statusCode).toBe(200);
      expect((await send('PATCH', '/tags/2', key, { tag: { name: 'Token tag' } })).headers['idempotent-replayed']).toBe('true');
      await demo().tokens!.setGrants(token.id, ['tags:show']);
      expect((await send('PATCH', '/tags/2', key, { tag: { name: 'Token tag' } })).statusCode).toBe(403);
      await demo().tokens!.disable(token.id);
      expect((await send('PATCH', '/tags/2', key, { tag: { name: 'Token tag' } })).statusCode).toBe(401);
    });
  },
  { edition: 'B' },
);
