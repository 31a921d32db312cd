import { expect, it } from 'vitest';
import { ADMIN, READER, describeOnEachDatabase } from './demo-app-support.js';
import { seedKey, solidPng } from '../db/seed-files.js';

const colourOf = (n: number): [number, number, number] => [(n * 53) % 256, (n * 97) % 256, (n * 151) % 256];

describeOnEachDatabase('file fields and the standard attachment URL', (demo) => {
  const get = (url: string, headers: Record<string, string> = ADMIN) => demo().app.inject({ method: 'GET', url, headers });
  const post = async (id: number) => (await get(`/api/resources/v1/blog_posts/${id}`)).json().record;

  it('shows a post\'s cover as { filename, content_type, byte_size, url }, and GET <url> answers exactly those bytes with that content type and length', async () => {
    const { cover } = await post(6);
    const bytes = solidPng(16, 9, colourOf(6));
    expect(cover).toEqual({ filename: 'cover-06.png', content_type: 'image/png', byte_size: bytes.length, url: `/panel/attachments/${seedKey('post-6-cover')}/cover-06.png` });
    const response = await demo().app.inject({ method: 'GET', url: cover.url });
    expect(response.statusCode).toBe(200);
    expect(Buffer.compare(response.rawPayload, bytes)).toBe(0);
    expect(response.headers['content-type']).toBe(cover.content_type);
    expect(Number(response.headers['content-length'])).toBe(cover.byte_size);
    expect(response.rawPayload.length).toBe(cover.byte_size);
    expect(response.headers['content-disposition']).toBe(`inline; filename="cover-06.png"; filename*=UTF-8''cover-06.png`);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('shows attachments as an array of such objects, by position, each URL serving its own bytes and type', async () => {
    const { attachments } = await post(12);
    expect(attachments).toEqual([
      { filename: 'notes-12.txt', content_type: 'text/plain; charset=utf-8', byte_size: Buffer.byteLength('Notes for post 12.\n'), url: `/panel/attachments/${seedKey('post-12-notes')}/notes-12.txt` },
      {
        filename: 'sketch 12 – draft.png',
        content_type: 'image/png',
        byte_size: solidPng(4, 4, colourOf(13)).length,
        url: `/panel/attachments/${seedKey('post-12-sketch')}/sketch%2012%20%E2%80%93%20draft.png`,
      },
    ]);
    const notes = await demo().app.inject({ method: 'GET', url: attachments[0].url });
    expect(notes.statusCode).toBe(200);
    expect(notes.body).toBe('Notes for post 12.\n');
    expect(notes.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(notes.headers['content-disposition']).toBe(`attachment; filename="notes-12.txt"; filename*=UTF-8''notes-12.txt`);
    const sketch = await demo().app.inject({ method: 'GET', url: attachments[1].url });
    expect(sketch.statusCode).toBe(200);
    expect(Buffer.compare(sketch.rawPayload, solidPng(4, 4, colourOf(13)))).toBe(0);
    expect(sketch.headers['content-disposition']).toBe(`inline; filename="sketch 12 _ draft.png"; filename*=UTF-8''sketch%2012%20%E2%80%93%20draft.png`);
  });

  it('shows cover: null and attachments: [] for a post with no files, on index and show', async () => {
    expect(await post(7)).toMatchObject({ cover: null, attachments: [] });
    const { records } = (await get('/api/resources/v1/blog_posts?per_page=6&sort_by=id&sort_direction=asc')).json();
    expect(records.map((r: { cover: unknown }) => r.cover === null)).toEqual([true, true, true, true, true, false]);
  });

  it('shows a profile\'s avatar (file) or null', async () => {
    const profiles = (await get('/api/resources/v1/profiles?sort_by=id&sort_direction=asc')).json().records;
    expect(profiles.map((p: { id: number; avatar: unknown }) => [p.id, p.avatar])).toEqual([
      [1, { filename: 'avatar-1.png', content_type: 'image/png', byte_size: solidPng(8, 8, colourOf(101)).length, url: `/panel/attachments/${seedKey('profile-1-avatar')}/avatar-1.png` }],
      [2, null],
    ]);
  });

  it('gives the same URL to every reader: permanent, neither signed nor expiring (Edition A), and the bytes need no API key', async () => {
    const asAdmin = (await post(18)).cover.url;
    const asReader = (await get('/api/resources/v1/blog_posts/18', READER)).json().record.cover.url;
    expect(asReader).toBe(asAdmin);
    expect(asAdmin).toMatch(/^\/panel\/attachments\/[a-z0-9]+\/cover-18\.png$/);
    expect((await demo().app.inject({ method: 'GET', url: asAdmin })).statusCode).toBe(200);
  });

  it('answers 404 { error: "Not Found" } for an unknown key, a filename other than the blob\'s, or a malformed key', async () => {
    const { url } = (await post(24)).cover;
    const key = url.split('/')[3];
    for (const wrong of [`/panel/attachments/${'0'.repeat(32)}/cover-24.png`, `/panel/attachments/${key}/cover-25.png`, `/panel/attachments/${key}/COVER-24.PNG`, '/panel/attachments/..%2F..%2Fetc/passwd', `/panel/attachments/${key.toUpperCase()}/cover-24.png`]) {
      const response = await demo().app.inject({ method: 'GET', url: wrong });
      expect(response.statusCode, wrong).toBe(404);
      expect(response.json()).toEqual({ error: 'Not Found' });
      expect(response.headers['cache-control'], wrong).toBeUndefined();
    }
  });

  it('answers HEAD with the headers and no body, and a matching If-None-Match with 304', async () => {
    const { url, byte_size } = (await post(30)).cover;
    const head = await demo().app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(byte_size);
    expect(head.headers['content-type']).toBe('image/png');
    expect(head.rawPayload.length).toBe(0);
    const etag = head.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9+/=]+"$/);
    const cached = await demo().app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(cached.statusCode).toBe(304);
    expect(cached.rawPayload.length).toBe(0);
  });

  it('attaches from code: panel.attachments.attach replaces a cover and appends to attachments, and the API shows it', async () => {
    const { panel } = demo();
    const old = (await post(36)).cover;
    const cover = await panel.attachments.attach({ resource: 'BlogPost', id: 36, field: 'cover', filename: 'new cover.png', contentType: 'image/png', bytes: solidPng(2, 2, [1, 2, 3]) });
    const extra = await panel.attachments.attach({ resource: 'BlogPost', id: 36, field: 'attachments', filename: 'more.txt', contentType: 'text/plain', bytes: 'more' });
    const record = await post(36);
    expect(record.cover).toEqual(cover);
    expect(record.attachments.map((a: { filename: string }) => a.filename)).toEqual(['notes-36.txt', 'sketch 36 – draft.png', 'more.txt']);
    expect(record.attachments[2]).toEqual(extra);
    expect((await demo().app.inject({ method: 'GET', url: old.url })).statusCode).toBe(404);
    expect(await panel.attachments.storage.exists(old.url.split('/')[3])).toBe(false);
    const served = await demo().app.inject({ method: 'GET', url: cover.url });
    expect(Buffer.compare(served.rawPayload, solidPng(2, 2, [1, 2, 3]))).toBe(0);
  });

  it('serves a filename with characters that need encoding in a URL (space, +, #, %, non-ASCII) at the URL the API gives', async () => {
    const { panel } = demo();
    const file = await panel.attachments.attach({ resource: 'BlogPost', id: 54, field: 'attachments', filename: 'a+b #1 100% ünï.txt', contentType: 'text/plain', bytes: 'odd name' });
    expect(file.url).toMatch(/\/a%2Bb%20%231%20100%25%20%C3%BCn%C3%AF\.txt$/);
    expect((await post(54)).attachments.at(-1)).toEqual(file);
    const response = await demo().app.inject({ method: 'GET', url: file.url });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('odd name');
  });

  it('DELETE of a post removes its attachments and purges their bytes: its URLs answer 404 afterwards', async () => {
    const { panel } = demo();
    const before = await post(42);
    const urls: string[] = [before.cover.url, ...before.attachments.map((a: { url: string }) => a.url)];
    expect(urls).toHaveLength(3);
    const response = await demo().app.inject({ method: 'DELETE', url: '/api/resources/v1/blog_posts/42', headers: ADMIN });
    expect(response.statusCode).toBe(200);
    for (const url of urls) {
      expect((await demo().app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
      expect(await panel.attachments.storage.exists(url.split('/')[3]!), url).toBe(false);
    }
  });

  it('a refused DELETE (a policy says no) keeps the files', async () => {
    const { cover } = await post(48);
    const refused = await demo().app.inject({ method: 'DELETE', url: '/api/resources/v1/blog_posts/48', headers: READER });
    expect(refused.statusCode).not.toBe(200);
    expect((await demo().app.inject({ method: 'GET', url: cover.url })).statusCode).toBe(200);
  });
});
