// Edges of uploads found by probing the demo over HTTP (a spoofed filename, an upload id named
// twice, the panel's form refusing a chosen file), each a rule of "Writes beyond one record" or of
// the screens' design that a test here quotes.
import { expect, it } from 'vitest';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';
import { PEOPLE, mainText, signInAs, type ScreenBrowser } from './resource-screens-support.js';
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
  const postForm = (browser: ScreenBrowser, url: string, parts: readonly Part[]) => {
    const body = multipart([{ name: 'csrf_token', value: browser.csrf }, ...parts]);
    return demo().app.inject({ method: 'POST', url, headers: { cookie: browser.cookie, origin: 'http://localhost:80', 'content-type': body.contentType }, payload: body.payload });
  };
  const pendingCount = async () => Number((await demo().database.db.selectFrom('panel_uploads').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const pendingIds = (html: string) => [...html.matchAll(/value="(up_[A-Za-z0-9_-]{43})" checked>/g)].map((match) => match[1]!);

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

  it('a file refused for its type is "not kept": the form says so and does not put it back ticked, while the other chosen files stay pending; saving again succeeds', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const before = await pendingCount();
    const answer = await postForm(ada, '/panel/resources/blog_posts/31', [
      { name: 'record[title]', value: 'Fake cover refused' },
      { name: 'record[cover]', value: '<html><body>not a picture</body></html>', filename: 'fake.png', type: 'image/png' },
      { name: 'record[attachments]', value: 'kept notes', filename: 'kept-notes.txt', type: 'text/plain' },
    ]);
    expect(answer.statusCode).toBe(422);
    const text = mainText(answer.body);
    expect(text).toContain('Cover has a type that is not accepted (image/png, image/jpeg, image/gif, image/webp)');
    expect(text).toContain('the file was not kept');
    expect(text).not.toContain('fake.png will be attached when you save');
    expect(text).toContain('kept-notes.txt will be attached when you save');
    const kept = pendingIds(answer.body);
    expect(kept).toHaveLength(1);
    expect(await pendingCount()).toBe(before + 1);
    // Sent again as the form now stands: saved.
    const again = await ada.post('/panel/resources/blog_posts/31', [['record[title]', 'Fake cover refused'], ['record[attachments]', kept[0]!]]);
    expect(again.statusCode).toBe(303);
    expect((await demo().app.inject({ url: `${V1}/blog_posts/31`, headers: ADMIN })).json().record.attachments.map((file: { filename: string }) => file.filename)).toContain('kept-notes.txt');
  });
});
