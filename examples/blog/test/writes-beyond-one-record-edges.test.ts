// Edges of the uploads and batch contracts found by probing the demo over HTTP ("Writes beyond one record"), each a rule a test here quotes.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';
import { solidPng } from '../db/seed-files.js';

const BOUNDARY = '----panel-edges-boundary-3fQ9';

/** A multipart body of these parts, in order: a file part when `filename` is given, else a text part. */
function multipart(parts: { name: string; filename?: string; contentType?: string; bytes: Buffer }[]): { payload: Buffer; headers: Record<string, string> } {
  const chunks = parts.flatMap(({ name, filename, contentType, bytes }) => [
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}\r\n${contentType === undefined ? '' : `Content-Type: ${contentType}\r\n`}\r\n`),
    bytes,
    Buffer.from('\r\n'),
  ]);
  return { payload: Buffer.concat([...chunks, Buffer.from(`--${BOUNDARY}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
}

describeOnEachDatabase('writes beyond one record: edges', (demo) => {
  const batch = (body: unknown, headers: Record<string, string>) => demo().app.inject({ method: 'POST', url: '/api/resources/v1/tags/batch', headers: { ...ADMIN, ...headers, 'content-type': 'application/json' }, payload: body as Record<string, unknown> });

  it('"Only a write that happened (a 2xx) is stored … so the retry runs again and may succeed": a partial batch that wrote nothing leaves no Idempotency-Key', async () => {
    const taken = `edge-taken-${Date.now()}`;
    await sql`insert into tags (name) values (${taken})`.execute(demo().database.db);
    const body = { atomic: false, operations: [{ op: 'create', data: { name: taken } }] };
    const headers = { 'idempotency-key': `edge-nothing-${Date.now()}` };
    const first = await batch(body, headers);
    expect(first.statusCode).toBe(200);
    expect(first.json().summary).toEqual({ succeeded: 0, failed: 1, not_applied: 0 });
    // The client frees the name, then retries with the same key and body: the batch runs again.
    await sql`update tags set name = ${`${taken}-renamed`} where name = ${taken}`.execute(demo().database.db);
    const retry = await batch(body, headers);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.json().summary).toEqual({ succeeded: 1, failed: 0, not_applied: 0 });
    // That answer wrote a tag: it is stored, and the next retry replays it.
    const replay = await batch(body, headers);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(retry.json());
  });
  it('"POST <mount>/uploads (multipart …)" takes one part named file: a text part before it or a text part named file is a 400 that says so, not the parser\'s 413', async () => {
    const png = solidPng(2, 2, [1, 2, 3]);
    const bodies = {
      'a text part before the file': [{ name: 'name', bytes: Buffer.from('cover') }, { name: 'file', filename: 'a.png', contentType: 'image/png', bytes: png }],
      'a text part named file': [{ name: 'file', bytes: Buffer.from('abc') }],
    };
    for (const [what, parts] of Object.entries(bodies)) {
      const body = multipart(parts);
      const response = await demo().app.inject({ method: 'POST', url: '/api/uploads', headers: { ...ADMIN, ...body.headers }, payload: body.payload });
      expect(response.statusCode, what).toBe(400);
      expect(response.json(), what).toEqual({ error: 'Send the file as multipart/form-data with one part, named "file", and no other part' });
    }
    const alone = multipart([{ name: 'file', filename: 'a.png', contentType: 'image/png', bytes: png }]);
    expect((await demo().app.inject({ method: 'POST', url: '/api/uploads', headers: { ...ADMIN, ...alone.headers }, payload: alone.payload })).statusCode).toBe(201);
  });
  it('"OpenAPI: the upload operation, and file fields typed as upload ids on writes": the document describes POST /api/uploads (multipart and direct), its 201 and its refusals', async () => {
    const document = (await demo().app.inject({ url: '/api/resources/v1/openapi.json' })).json();
    const operation = document.paths['/api/uploads']?.post;
    expect(operation, 'POST /api/uploads in the document').toBeDefined();
    expect(operation.operationId).toBe('createUpload');
    expect(operation.tags).toEqual(['Uploads']);
    expect(Object.keys(operation.requestBody.content).sort()).toEqual(['application/json', 'multipart/form-data']);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '413']));
    expect(document.tags.map((tag: { name: string }) => tag.name)).toContain('Uploads');
    // A write names the upload's id under a file field.
    expect(JSON.stringify(document.components.schemas.BlogPostCreate.properties.cover)).toContain('POST <mount>/uploads');
  });
  it('"attachments_remove": a value that is not a list of names is a 422 on the field that says what to send', async () => {
    const response = await demo().app.inject({ method: 'PATCH', url: '/api/resources/v1/blog_posts/6', headers: { ...ADMIN, 'content-type': 'application/json' }, payload: { blog_post: { attachments_remove: 'notes-1.txt' } } });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ attachments: ['has an invalid attachments_remove: send a list of at most 100 URLs or filenames of attached files'] });
  });
});
