// Edges of uploads found by probing the demo over HTTP (a spoofed filename, an upload id named
// twice), each a rule of "Writes beyond one record" that a test here quotes.
import { expect, it } from 'vitest';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';
import { PEOPLE, signInAs } from './resource-screens-support.js';
import { solidPng } from '../db/seed-files.js';

const V1 = '/api/resources/v1';
const BOUNDARY = '----panel-upload-edges-7Kx2';

type Part = { name: string; value: string | Buffer; filename?: string; type?: string };

/** A multipart/form-data body of `parts` in order (a part with `filename` is a file). */
function multipart(parts: readonly Part[]): { payload: Buffer; contentType: string } {
  const chunks = parts.flatMap((part) => [
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`),
    Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value),
    Buffer.from('\r\n'),
  ]);
  return { payload: Buffer.concat([...chunks, Buffer.from(`--${BOUNDARY}--\r\n`)]), contentType: `multipart/form-data; boundary=${BOUNDARY}` };
}

describeOnEachDatabase('uploads: edges found by probing the demo', (demo) => {
  const upload = async (filename: string, bytes: Buffer = solidPng(2, 2, [9, 8, 7]), type = 'image/png') => {
    const body = multipart([{ name: 'file', value: bytes, filename, type }]);
    return demo().app.inject({ method: 'POST', url: '/api/uploads', headers: { ...ADMIN, 'content-type': body.contentType }, payload: body.payload });
  };
  const patch = (id: number, attributes: Record<string, unknown>) =>
    demo().app.inject({ method: 'PATCH', url: `${V1}/blog_posts/${id}`, headers: { ...ADMIN, 'content-type': 'application/json' }, payload: { blog_post: attributes } });

  it('"filenames are sanitized" as Active Storage does, which replaces bidi controls: "invoice\\u202Efdp.exe" is stored as "invoice-fdp.exe", by the API and on the show page', async () => {
    const response = await upload('invoice\u202Efdp.exe');
    expect(response.statusCode).toBe(201);
    expect(response.json().upload.filename).toBe('invoice-fdp.exe');
    for (const control of ['\u202A', '\u202B', '\u202C', '\u202D', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C']) {
      expect((await upload(`a${control}b.png`)).json().upload.filename, JSON.stringify(control)).toBe('a-b.png');
    }
    const saved = await patch(44, { attachments: [response.json().upload.id] });
    expect(saved.statusCode).toBe(200);
    const ada = await signInAs(demo(), PEOPLE.ada);
    const shown = await ada.get('/panel/resources/blog_posts/44');
    expect(shown.body).toContain('invoice-fdp.exe');
    expect(shown.body).not.toContain('\u202E');
  });

  it('"an upload id is … single-use": the same id twice in one files list gets the 422 of a used id, and nothing is attached', async () => {
    const before = (await demo().app.inject({ url: `${V1}/blog_posts/44`, headers: ADMIN })).json().record.attachments;
    const id = (await upload('twice.png')).json().upload.id;
    const twice = await patch(44, { attachments: [id, id] });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors).toEqual({ attachments: ['is not a valid upload (unknown, expired or already used)'] });
    expect((await demo().app.inject({ url: `${V1}/blog_posts/44`, headers: ADMIN })).json().record.attachments).toEqual(before);
    // The refused write used nothing: the id still attaches once.
    expect((await patch(44, { attachments: [id] })).statusCode).toBe(200);
  });
});
