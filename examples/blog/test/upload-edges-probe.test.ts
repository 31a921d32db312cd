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

  it('"never an internal code or message in a body": a file part whose Content-Type is no media type is a 400 that names the part\'s header, not the service\'s option', async () => {
    const before = await pendingCount();
    const response = await upload('cover.png', solidPng(2, 2, [9, 8, 7]), 'image png');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'The file part\'s Content-Type must be a media type such as "image/png", instead got "image png".' });
    expect(await pendingCount()).toBe(before);
  });

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

  it('"a file chosen in a form lost on a validation error" is a failure to avoid: a chosen file whose filename is blank or over 255 characters answers the form again (422, HTML), typed values and the other chosen files kept, the problem said on its field', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    for (const filename of ['z'.repeat(256), '   ']) {
      const before = await pendingCount();
      const answer = await postForm(ada, '/panel/resources/blog_posts/35', [
        { name: 'record[title]', value: 'Typed before the refusal' },
        { name: 'record[cover]', value: solidPng(2, 2, [1, 2, 3]), filename: 'good-cover.png', type: 'image/png' },
        { name: 'record[attachments]', value: 'notes', filename, type: 'text/plain' },
      ]);
      expect(answer.statusCode, JSON.stringify(filename)).toBe(422);
      expect(answer.headers['content-type']).toContain('text/html');
      expect(answer.body).toContain('value="Typed before the refusal"');
      const text = mainText(answer.body);
      expect(text).toMatch(/Attachments could not be taken: (filename must be at most 255 characters, instead got 256|filename must name a file, such as &quot;cover\.png&quot;, instead got &quot; &quot;) \(the file was not kept\)/);
      expect(text).toContain('the file was not kept');
      expect(answer.body).toMatch(/id="record-attachments"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="record-attachments"/);
      // The valid cover stays pending, the refused file was never stored.
      expect(text).toContain('good-cover.png will be attached when you save');
      expect(pendingIds(answer.body)).toHaveLength(1);
      expect(await pendingCount()).toBe(before + 1);
      expect((await demo().app.inject({ url: `${V1}/blog_posts/35`, headers: ADMIN })).json().record.title).not.toBe('Typed before the refusal');
    }
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

  it('a file over its field\'s maxBytes, in a form within the form\'s limit, is the field\'s 422 as through the API ("is too large (maximum is 2 MiB)"), the form kept with every typed value and the other chosen files', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const big = Buffer.concat([solidPng(2, 2, [4, 5, 6]), Buffer.alloc(3 * 1024 * 1024)]);
    const before = await pendingCount();
    const answer = await postForm(ada, '/panel/resources/blog_posts/33', [
      { name: 'record[title]', value: 'Typed with a big cover' },
      { name: 'record[cover]', value: big, filename: 'big.png', type: 'image/png' },
      { name: 'record[attachments]', value: 'small notes', filename: 'small-notes.txt', type: 'text/plain' },
    ]);
    expect(answer.statusCode).toBe(422);
    expect(answer.headers['content-type']).toContain('text/html');
    expect(answer.body).toContain('value="Typed with a big cover"');
    const text = mainText(answer.body);
    expect(text).toContain('Cover is too large (maximum is 2 MiB)');
    expect(text).toContain('the file was not kept');
    expect(text).not.toContain('big.png will be attached');
    expect(text).toContain('small-notes.txt will be attached when you save');
    expect(await pendingCount()).toBe(before + 1);
    // A file past the largest any file field takes (attachments: 10 MiB) is still the 413 page, as the API's upload endpoint refuses it, and keeps nothing.
    const huge = await postForm(ada, '/panel/resources/blog_posts/33', [
      { name: 'record[title]', value: 'Typed with a huge file' },
      { name: 'record[attachments]', value: 'small notes', filename: 'first-notes.txt', type: 'text/plain' },
      { name: 'record[attachments]', value: Buffer.alloc(10 * 1024 * 1024 + 2), filename: 'huge.bin', type: 'application/octet-stream' },
    ]);
    expect(huge.statusCode).toBe(413);
    expect(huge.headers['content-type']).toContain('text/html');
    expect(mainText(huge.body)).toContain('The file is too large');
    expect(await pendingCount()).toBe(before + 1);
  });
});
