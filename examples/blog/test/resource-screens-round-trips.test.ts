// A value written through the API survives being saved from the screens' edit form unchanged,
// and the screens take what the API takes and refuse what it refuses ("one rule, one place"):
// tags, key_value keys, textarea line breaks and the size of a form, on the demo, with
// JavaScript off (urlencoded posts through app.inject), on both databases.
import { expect, it } from 'vitest';
import { describeOnEachDatabase } from './demo-app-support.js';
import { API_KEYS, PEOPLE, mainText, signInAs } from './resource-screens-support.js';

const V1 = '/api/resources/v1';

/** A multipart/form-data body of text `fields`, in order, as a browser posts a form with a file control and no file chosen. */
function multipartForm(fields: readonly (readonly [string, string])[]): { payload: Buffer; contentType: string } {
  const boundary = '----panel-round-trip-form';
  const chunks = fields.map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  return { payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

describeOnEachDatabase('form round trips', (demo) => {
  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: string | object) =>
    demo().app.inject({ method, url: `${V1}${url}`, headers: { authorization: API_KEYS.ada, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) }, ...(payload === undefined ? {} : { payload }) });

  it('"the tags type trims each tag"; a comma or a backslash inside a tag is escaped in the comma-separated form, so saving the edit form keeps the tags exactly', async () => {
    const created = await api('POST', '/products', { product: { name: 'Tagged', tags: [' padded ', 'b,c', 'back\\slash', 'x'] } });
    expect(created.statusCode).toBe(201);
    const id = created.json().record.id as number;
    expect(created.json().record.tags).toEqual(['padded', 'b,c', 'back\\slash', 'x']);
    const ada = await signInAs(demo(), PEOPLE.ada);
    const edit = await ada.get(`/panel/resources/products/${id}/edit`);
    const shown = /name="record\[tags\]" value="([^"]*)"/.exec(edit.body)![1]!;
    expect(shown).toBe('padded, b\\,c, back\\\\slash, x');
    const saved = await ada.post(`/panel/resources/products/${id}`, [['record[name]', 'Renamed'], ['record[tags]', shown]]);
    expect(saved.statusCode).toBe(303);
    expect((await api('GET', `/products/${id}`)).json().record).toMatchObject({ name: 'Renamed', tags: ['padded', 'b,c', 'back\\slash', 'x'] });
    // Typed by hand: a backslash before another character is itself.
    await ada.post(`/panel/resources/products/${id}`, [['record[tags]', 'a\\b, c\\,d']]);
    expect((await api('GET', `/products/${id}`)).json().record.tags).toEqual(['a\\b', 'c,d']);
  });

  it('a key_value value with a "__proto__" or "constructor.prototype" key is refused on the screens with a 422 naming the field, as the API refuses it', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    for (const specs of ['{"__proto__": "x"}', '{"a": "1", "constructor": {"prototype": "x"}}']) {
      const viaApi = await api('POST', '/products', `{"product": {"name": "Poisoned", "specs": ${specs}}}`);
      expect(viaApi.statusCode, specs).toBe(400);
      const screen = await ada.post('/panel/resources/products', [['record[name]', 'Poisoned'], ['record[specs]', specs]]);
      expect(screen.statusCode, specs).toBe(422);
      expect(mainText(screen.body), specs).toContain('Specs must not have a key named __proto__ or constructor.prototype');
    }
    expect((await api('GET', '/products?q=Poisoned')).json().records).toEqual([]);
  });

  it('"the textarea API value is LF-normalized": CRLF and lone CR posted by a browser are stored as LF, so a 500-character summary with 49 line breaks saves', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const lines = Array.from({ length: 50 }, () => 'x'.repeat(9));
    const summary = lines.join('\n');
    expect(summary).toHaveLength(499);
    const saved = await ada.post('/panel/resources/blog_posts/3', [['record[summary]', `${lines.join('\r\n')}y`]]);
    expect(saved.statusCode).toBe(303);
    expect((await api('GET', '/blog_posts/3')).json().record.summary).toBe(`${summary}y`);
    await ada.post('/panel/resources/blog_posts/3', [['record[summary]', 'a\rb\r\nc']]);
    expect((await api('GET', '/blog_posts/3')).json().record.summary).toBe('a\nb\nc');
  });

  it('a resource form takes what the API takes (a comment of 6,000 "é", 36 KB URL-encoded), and a form over the limit is an HTML 413 page inside the shell', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const body = 'é'.repeat(6000);
    const saved = await ada.post('/panel/resources/comments', [['record[body]', body], ['record[blog_post_id]', '2']]);
    expect(saved.statusCode).toBe(303);
    const id = /\/comments\/(\d+)$/.exec(saved.headers.location as string)![1]!;
    expect((await api('GET', `/comments/${id}`)).json().record.body).toBe(body);
    const huge = await ada.post('/panel/resources/comments', [['record[body]', 'x'.repeat(1024 * 1024 + 1)], ['record[blog_post_id]', '2']]);
    expect(huge.statusCode).toBe(413);
    expect(huge.headers['content-type']).toContain('text/html');
    expect(huge.body).toContain('<nav class="sidebar"');
    expect(mainText(huge.body)).toContain('The form is too large');
  });
  it('a multipart form takes a text value as long as the API takes (not cut at 64 KiB), and one over the form limit is the 413 page with nothing written', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const post = (fields: [string, string][]) => {
      const { payload, contentType } = multipartForm([['csrf_token', ada.csrf], ...fields]);
      return demo().app.inject({ method: 'POST', url: '/panel/resources/blog_posts/13', headers: { cookie: ada.cookie, origin: 'http://localhost:80', 'content-type': contentType }, payload });
    };
    const body = 'b'.repeat(100_000);
    const saved = await post([['record[title]', 'Post 13'], ['record[body]', body]]);
    expect(saved.statusCode).toBe(303);
    expect((await api('GET', '/blog_posts/13')).json().record.body).toBe(body);
    const huge = await post([['record[title]', 'Post 13, too large'], ['record[body]', 'c'.repeat(1024 * 1024 + 1)]]);
    expect(huge.statusCode).toBe(413);
    expect(huge.headers['content-type']).toContain('text/html');
    expect(mainText(huge.body)).toContain('The form is too large');
    expect((await api('GET', '/blog_posts/13')).json().record).toMatchObject({ title: 'Post 13', body });
  });
});
