import { expect, it } from 'vitest';
import { countQueries } from '@panel/test-support';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

describeOnEachDatabase('GET /api/resources/v1/<route_key>', (demo) => {
  const get = (url: string, headers: Record<string, string> = ADMIN) => demo().app.inject({ method: 'GET', url, headers });

  it('answers 200 { records: [<record on :index view>], pagination } ', async () => {
    const response = await get('/api/resources/v1/blog_posts');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body)).toEqual(['records', 'pagination']);
    expect(body.records).toHaveLength(24);
    expect(body.pagination).toEqual({ page: 1, per_page: 24, total_pages: 3, total_count: 60, has_next_page: true, has_prev_page: false });
  });

  it('serializes one key per field visible on the index view ("body" is hidden on index, "created_at" only on show)', async () => {
    const { records } = (await get('/api/resources/v1/blog_posts?sort_by=id&sort_direction=asc&per_page=1')).json();
    expect(records[0]).toEqual({
      id: 1,
      title: 'Post 01: Games',
      published: true,
      published_on: '2026-01-02',
      view_count: 7,
      rating: 4.7,
      author: { id: 2, label: 'Rita Reader' },
      comments: { count: 2 },
      tag_list: { count: 1 },
      cover: null,
      attachments: [],
    });
  });

  it('pages and sorts: ?per_page=5&page=2&sort_by=title&sort_direction=asc', async () => {
    const body = (await get('/api/resources/v1/blog_posts?per_page=5&page=2&sort_by=title&sort_direction=asc')).json();
    expect(body.records.map((r: { id: number }) => r.id)).toEqual([6, 7, 8, 9, 10]);
    expect(body.pagination).toEqual({ page: 2, per_page: 5, total_pages: 12, total_count: 60, has_next_page: true, has_prev_page: true });
  });

  it('turns the default order (created_at desc) around with sort_direction alone', async () => {
    const newest = (await get('/api/resources/v1/blog_posts?per_page=2')).json().records.map((r: { id: number }) => r.id);
    const oldest = (await get('/api/resources/v1/blog_posts?per_page=2&sort_direction=asc')).json().records.map((r: { id: number }) => r.id);
    expect(newest).toEqual([60, 59]);
    expect(oldest).toEqual([1, 2]);
  });

  it('answers 400 with a message for sort_by=nope', async () => {
    const response = await get('/api/resources/v1/blog_posts?sort_by=nope');
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/^sort_by must be one of id, title, published, published_on, view_count, rating, instead got "nope"$/);
  });

  it('costs the same number of SQL statements for 100 records as for 5, file fields included (cover: file, attachments: files)', async () => {
    const { panel, database } = demo();
    const resource = panel.resource('BlogPost');
    const five = await countQueries(database, () => panel.records.list({ resource, view: 'index', page: 1, perPage: 5 }));
    const hundred = await countQueries(database, () => panel.records.list({ resource, view: 'index', page: 1, perPage: 100 }));
    expect(five.result.rows).toHaveLength(5);
    expect(hundred.result.rows).toHaveLength(60);
    expect(hundred.count).toBe(five.count);
    expect(five.count).toBe(2);
    // The 10 posts with files (every sixth) come with their cover and both attachments from those 2 statements.
    const withFiles = hundred.result.rows.filter((row) => row.__file__cover !== null);
    expect(withFiles.map((row) => row.id).sort((a, b) => Number(a) - Number(b))).toEqual([6, 12, 18, 24, 30, 36, 42, 48, 54, 60]);
    expect(withFiles.every((row) => (row.__files__attachments as unknown[]).length === 2)).toBe(true);
    expect(hundred.statements.filter((statement) => statement.includes('panel_attachments'))).toHaveLength(1);
  });

  it('serializes file fields on an index page over HTTP with as many statements for 60 posts as for 12, the files in the page query', async () => {
    const { database } = demo();
    const small = await countQueries(database, () => get('/api/resources/v1/blog_posts?per_page=12&sort_by=id&sort_direction=asc'));
    const large = await countQueries(database, () => get('/api/resources/v1/blog_posts?per_page=60&sort_by=id&sort_direction=asc'));
    const records = small.result.json().records as { id: number; cover: unknown; attachments: unknown[] }[];
    expect(records.find((r) => r.id === 6)!.cover).toMatchObject({ filename: 'cover-06.png', content_type: 'image/png' });
    expect(records.find((r) => r.id === 12)!.attachments.map((a) => (a as { filename: string }).filename)).toEqual(['notes-12.txt', 'sketch 12 – draft.png']);
    expect(records.find((r) => r.id === 7)!.cover).toBeNull();
    expect(large.result.json().records.filter((r: { cover: unknown }) => r.cover !== null)).toHaveLength(10);
    expect(large.count).toBe(small.count);
    expect(large.statements.filter((statement) => statement.includes('panel_attachments'))).toHaveLength(1);
  });
});
