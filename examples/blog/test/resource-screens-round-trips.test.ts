// A value written through the API survives being saved from the screens' edit form unchanged,
// and the screens take what the API takes and refuse what it refuses ("one rule, one place"):
// tags, key_value keys, textarea line breaks and the size of a form, on the demo, with
// JavaScript off (urlencoded posts through app.inject), on both databases.
import { expect, it } from 'vitest';
import { describeOnEachDatabase } from './demo-app-support.js';
import type { DemoApp } from '../src/build-app.js';
import { API_KEYS, PEOPLE, mainText, signInAs, type ScreenBrowser } from './resource-screens-support.js';

const V1 = '/api/resources/v1';

/** A multipart/form-data body of text `fields`, in order, as a browser posts a form with a file control and no file chosen. */
function multipartForm(fields: readonly (readonly [string, string])[]): { payload: Buffer; contentType: string } {
  const boundary = '----panel-round-trip-form';
  const chunks = fields.map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  return { payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Decodes the character references the screens write (Handlebars' escaping). */
const unescapeHtml = (text: string): string =>
  text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot);/gi, (_match, ref: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"' };
    if (ref.startsWith('#x') || ref.startsWith('#X')) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(Number(ref.slice(1)));
    return named[ref.toLowerCase()]!;
  });

/**
 * What a browser submits for each control of a resource form left as it was shown (the HTML
 * standard): a text input's value with its line breaks stripped (value sanitization), a text
 * area's text less the one line feed the parser drops right after its start tag, its line breaks
 * as CRLF, a select's selected option, a ticked checkbox after its hidden field. File inputs
 * (none chosen) send nothing here; the multipart body's empty part is read past by the screens.
 */
function submittedForm(html: string): [string, string][] {
  const form = html.slice(html.indexOf('<form method="post" action="/panel/resources/'), html.indexOf('</form>', html.indexOf('<form method="post" action="/panel/resources/')));
  const fields: [string, string][] = [];
  const attribute = (tag: string, name: string) => {
    const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
    return match ? unescapeHtml(match[1]!) : undefined;
  };
  for (const match of form.matchAll(/<input\b[^>]*>|<textarea\b[^>]*>([\s\S]*?)<\/textarea>|<select\b[^>]*>([\s\S]*?)<\/select>/g)) {
    const tag = match[0];
    const name = attribute(tag, 'name');
    if (name === undefined) continue;
    if (tag.startsWith('<textarea')) fields.push([name, unescapeHtml(match[1]!.replace(/^\n/, '')).replace(/\r\n|\r|\n/g, '\r\n')]);
    else if (tag.startsWith('<select')) {
      const options = [...match[2]!.matchAll(/<option value="([^"]*)"( selected)?/g)];
      const chosen = options.find((option) => option[2] !== undefined) ?? options[0];
      if (chosen) fields.push([name, unescapeHtml(chosen[1]!)]);
    } else {
      const type = attribute(tag, 'type') ?? 'text';
      if (type === 'file') continue;
      if (type === 'checkbox' && !/\schecked\b/.test(tag)) continue;
      fields.push([name, type === 'hidden' || type === 'checkbox' ? (attribute(tag, 'value') ?? '') : (attribute(tag, 'value') ?? '').replace(/[\r\n]/g, '')]);
    }
  }
  return fields;
}

/** Opens a record's edit form as `browser` and saves it as a browser would, untouched (urlencoded, or multipart when the form says so). */
async function saveUntouched(demo: () => DemoApp, browser: ScreenBrowser, path: string, change: (fields: [string, string][]) => [string, string][] = (fields) => fields) {
  const edit = await browser.get(`${path}/edit`);
  expect(edit.statusCode).toBe(200);
  const fields = change(submittedForm(edit.body));
  if (!edit.body.includes('enctype="multipart/form-data"')) return browser.post(path, fields.filter(([name]) => name !== 'csrf_token'));
  const { payload, contentType } = multipartForm(fields);
  return demo().app.inject({ method: 'POST', url: path, headers: { cookie: browser.cookie, origin: 'http://localhost:80', 'content-type': contentType }, payload });
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
  /** Writes `record` on post `id` through the API, saves the post's edit form untouched as Ada, and expects the post as it was. */
  const expectUntouchedSaveKeeps = async (id: number, record: Record<string, unknown>) => {
    expect((await api('PATCH', `/blog_posts/${id}`, { blog_post: record })).statusCode).toBe(200);
    const before = (await api('GET', `/blog_posts/${id}`)).json().record;
    const saved = await saveUntouched(demo, await signInAs(demo(), PEOPLE.ada), `/panel/resources/blog_posts/${id}`);
    expect(saved.statusCode, `post ${id}: ${mainText(saved.body).slice(0, 300)}`).toBe(303);
    expect((await api('GET', `/blog_posts/${id}`)).json().record, `post ${id}`).toEqual(before);
  };

  it('"every form round-trips values exactly": a text area whose value starts with line breaks keeps them (the parser drops one line feed after the start tag)', async () => {
    await expectUntouchedSaveKeeps(6, { summary: '\n\nStarts with two line breaks', title: '  Padded\u00a0title  ' });
  });

  it('"every form round-trips values exactly": a one-line text field holding a line break (written through the API) keeps it', async () => {
    await expectUntouchedSaveKeeps(9, { body: 'first line\nsecond line\r\nthird' });
    // Such a value is edited in a text area, whose line breaks a browser posts as CRLF: stored as LF, as a text area field's are.
    const ada = await signInAs(demo(), PEOPLE.ada);
    expect((await ada.get('/panel/resources/blog_posts/9/edit')).body).toContain('<textarea id="record-body" name="record[body]" rows="5">first line\nsecond line\r\nthird</textarea>');
    expect((await ada.post('/panel/resources/blog_posts/9', [['record[body]', 'first line\r\nsecond line, edited']])).statusCode).toBe(303);
    expect((await api('GET', '/blog_posts/9')).json().record.body).toBe('first line\nsecond line, edited');
  });

  it('"every form round-trips values exactly": empty and null text stay apart when the form is saved untouched', async () => {
    await expectUntouchedSaveKeeps(7, { summary: null, body: '' });
    await expectUntouchedSaveKeeps(8, { summary: '', body: null });
  });

  it('"every form round-trips values exactly": a body over 64 KiB written through the API survives the multipart edit form', async () => {
    await expectUntouchedSaveKeeps(10, { body: `${'long '.repeat(14_000)}end` });
  });

  it('"a screen must never refuse what the API allows the same user": Rita saves her own comment on a post she cannot see (the API takes the same change), and its post stays', async () => {
    // Post 5 is Carl's and unpublished: outside Rita's scope; comment 64 on it is Rita's.
    const comment = (await api('GET', '/comments/64')).json().record;
    expect(comment).toMatchObject({ blog_post: { id: 5 }, user: { id: 2 } });
    const viaApi = await demo().app.inject({ method: 'PATCH', url: `${V1}/comments/64`, headers: { authorization: API_KEYS.rita, 'content-type': 'application/json' }, payload: { comment: { body: 'Edited through the API' } } });
    expect(viaApi.statusCode).toBe(200);
    const rita = await signInAs(demo(), PEOPLE.rita);
    const saved = await saveUntouched(demo, rita, '/panel/resources/comments/64', (fields) => fields.map(([name, value]): [string, string] => [name, name === 'record[body]' ? 'Edited on the screen' : value]));
    expect(saved.statusCode, mainText(saved.body).slice(0, 300)).toBe(303);
    expect((await api('GET', '/comments/64')).json().record).toMatchObject({ body: 'Edited on the screen', blog_post: { id: 5 }, user: { id: 2 } });
  });

  it('"bad input gets a clear answer and loses nothing": an edit form saved after someone else changed a field it shows answers 409 with what was typed, and writes nothing over the other change', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const edit = await ada.get('/panel/resources/blog_posts/11/edit');
    const fields = submittedForm(edit.body);
    // Meanwhile someone else changes the summary, then Ada saves her form with a new title and the summary as she saw it.
    expect((await api('PATCH', '/blog_posts/11', { blog_post: { summary: 'Written meanwhile' } })).statusCode).toBe(200);
    const typed = fields.map(([name, value]): [string, string] => [name, name === 'record[title]' ? 'Ada’s new title' : name === 'record[summary]' ? 'Ada’s summary' : value]);
    const stale = await ada.post('/panel/resources/blog_posts/11', typed.filter(([name]) => name !== 'csrf_token'));
    expect(stale.statusCode).toBe(409);
    expect(stale.headers['content-type']).toContain('text/html');
    expect(mainText(stale.body)).toContain('Summary was changed by someone else');
    expect(stale.body).toContain('value="Ada’s new title"');
    expect((await api('GET', '/blog_posts/11')).json().record).toMatchObject({ summary: 'Written meanwhile', title: 'Post 11: Games' });
    // A field Ada left as it was is not written over someone else's change: only her title is saved.
    const again = await ada.get('/panel/resources/blog_posts/12/edit');
    expect((await api('PATCH', '/blog_posts/12', { blog_post: { summary: 'Written meanwhile' } })).statusCode).toBe(200);
    const titled = submittedForm(again.body).map(([name, value]): [string, string] => [name, name === 'record[title]' ? 'Only the title' : value]);
    const saved = await ada.post('/panel/resources/blog_posts/12', titled.filter(([name]) => name !== 'csrf_token'));
    expect(saved.statusCode, mainText(saved.body).slice(0, 300)).toBe(303);
    expect((await api('GET', '/blog_posts/12')).json().record).toMatchObject({ summary: 'Written meanwhile', title: 'Only the title' });
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
