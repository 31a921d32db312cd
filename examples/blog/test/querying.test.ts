// Querying through real HTTP on the demo: filters, search and sparse fieldsets (docs/querying.md).
import { beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { countQueries } from '@panel/test-support';
import { ADMIN, READER, describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';

type Post = { id: number; title: string; published: boolean; published_on: string | null; view_count: number | null; rating: number | null; author: { id: number } | null };

describeOnEachDatabase('querying a list: filter[…], q and fields', (demo) => {
  const get = (url: string, headers: Record<string, string> = ADMIN) => demo().app.inject({ method: 'GET', url, headers });
  const records = async (url: string, headers: Record<string, string> = ADMIN) => {
    const response = await get(url, headers);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json().records as Record<string, unknown>[];
  };
  const ids = (rows: readonly Record<string, unknown>[]) => rows.map((row) => row.id as number).sort((a, b) => a - b);
  /** Every post as the index answers it: the independent evaluation filters these in JavaScript. */
  const allPosts = async () => (await records(`${V1}/blog_posts?per_page=100&sort_by=id`)) as unknown as Post[];
  const error = async (url: string, headers: Record<string, string> = ADMIN) => {
    const response = await get(url, headers);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(400);
    return response.json().error as string;
  };

  // Posts whose titles hold the LIKE metacharacters, so that "% _ \ match themselves" can be seen.
  beforeAll(async () => {
    for (const title of ['Tea at 100% strength', 'Tea at 100 percent', 'snake_case tea', 'snakeXcase tea', 'back\\slash tea', 'backslash tea']) {
      const created = await demo().app.inject({ method: 'POST', url: `${V1}/blog_posts`, headers: { ...ADMIN, 'content-type': 'application/json' }, payload: JSON.stringify({ blog_post: { title, body: `Body of ${title}`, published: false, author_id: 3, view_count: 1 } }) });
      expect(created.statusCode, created.body).toBe(201);
    }
  });

  it('"filter[<field>]=<value> is equality": filter[published]=true lists exactly the published posts', async () => {
    const posts = await allPosts();
    expect(ids(await records(`${V1}/blog_posts?per_page=100&filter[published]=true`))).toEqual(ids(posts.filter((p) => p.published === true)));
  });

  it('"Several filters combine with AND"; "belongs_to … is filtered by its foreign key <association>_id": filter[published]=true&filter[author_id]=1', async () => {
    const posts = await allPosts();
    const expected = ids(posts.filter((p) => p.published === true && p.author?.id === 1));
    expect(expected.length).toBeGreaterThan(0);
    const response = await get(`${V1}/blog_posts?per_page=100&filter[published]=true&filter[author_id]=1`);
    expect(ids(response.json().records)).toEqual(expected);
    expect(response.json().pagination.total_count).toBe(expected.length);
  });

  it('"id, integer, number/decimal, date, datetime: eq ne lt lte gt gte in null"', async () => {
    const posts = await allPosts();
    const cases: [string, (p: Post) => boolean][] = [
      ['filter[view_count][gte]=10', (p) => p.view_count !== null && p.view_count >= 10],
      ['filter[view_count][lt]=5', (p) => p.view_count !== null && p.view_count < 5],
      ['filter[view_count][ne]=7', (p) => p.view_count !== 7],
      ['filter[view_count][eq]=7', (p) => p.view_count === 7],
      ['filter[view_count][in]=1,7,9', (p) => [1, 7, 9].includes(p.view_count ?? -1)],
      ['filter[rating][lte]=3.5', (p) => p.rating !== null && p.rating <= 3.5],
      ['filter[rating][gt]=4.25', (p) => p.rating !== null && p.rating > 4.25],
      ['filter[rating][null]=true', (p) => p.rating === null],
      ['filter[published_on][gte]=2026-02-01', (p) => p.published_on !== null && p.published_on >= '2026-02-01'],
      ['filter[published_on][null]=false', (p) => p.published_on !== null],
      ['filter[id][in]=3,5,999', (p) => [3, 5].includes(p.id)],
      ['filter[id][gt]=50&filter[id][lte]=55', (p) => p.id > 50 && p.id <= 55],
    ];
    for (const [query, holds] of cases) expect(ids(await records(`${V1}/blog_posts?per_page=100&${query}`)), query).toEqual(ids(posts.filter(holds)));
    const users = (await records(`${V1}/users?per_page=100`)) as { id: number; created_at: string }[];
    const middle = users.map((u) => u.created_at).sort()[1]!;
    expect(ids(await records(`${V1}/users?per_page=100&filter[created_at][gte]=${encodeURIComponent(middle)}`))).toEqual(ids(users.filter((u) => u.created_at >= middle)));
  });

  it('"text: eq ne in contains starts_with null (contains, starts_with: case-insensitive; %, _ and \\ in the value match themselves)"', async () => {
    const titles = async (query: string) => ((await records(`${V1}/blog_posts?per_page=100&${query}`)) as Post[]).map((p) => p.title).sort();
    expect(await titles('filter[title][contains]=%25')).toEqual(['Tea at 100% strength']);
    expect(await titles('filter[title][contains]=e_c')).toEqual(['snake_case tea']);
    expect(await titles('filter[title][contains]=k%5Cs')).toEqual(['back\\slash tea']);
    expect(await titles('filter[title][contains]=TEA%20AT')).toEqual(['Tea at 100 percent', 'Tea at 100% strength']);
    expect(await titles('filter[title][starts_with]=SNAKE')).toEqual(['snakeXcase tea', 'snake_case tea'].sort());
    expect(await titles('filter[title][starts_with]=%25')).toEqual([]);
    expect(await titles('filter[title]=snake_case%20tea')).toEqual(['snake_case tea']);
    expect(await titles('filter[title][eq]=SNAKE_CASE%20TEA')).toEqual([]);
    expect(await titles('filter[title][in]=snake_case%20tea,backslash%20tea')).toEqual(['backslash tea', 'snake_case tea']);
    expect((await titles('filter[title][ne]=snake_case%20tea&filter[title][contains]=snake'))).toEqual(['snakeXcase tea']);
  });

  it('"`in` takes a comma-separated list or the parameter repeated"; select: "each value must be one of the options"', async () => {
    const products = (await records(`${V1}/products?per_page=100`)) as { id: number; status: string | null; tags: string[] | null }[];
    const expected = ids(products.filter((p) => p.status === 'draft' || p.status === 'archived'));
    expect(ids(await records(`${V1}/products?per_page=100&filter[status][in]=draft,archived`))).toEqual(expected);
    expect(ids(await records(`${V1}/products?per_page=100&filter[status][in]=draft&filter[status][in]=archived`))).toEqual(expected);
    expect(ids(await records(`${V1}/products?per_page=100&filter[status][ne]=active`))).toEqual(ids(products.filter((p) => p.status !== 'active')));
    expect(await error(`${V1}/products?filter[status]=sold`)).toBe('filter[status] is not included in the list, instead got "sold"');
    expect(await error(`${V1}/products?filter[status][in]=draft,sold`)).toBe('filter[status][in] is not included in the list, instead got "sold"');
  });

  it('"tags: contains (the array holds the value), null"; "boolean: eq null"', async () => {
    const products = (await records(`${V1}/products?per_page=100`)) as { id: number; tags: string[] | null; in_stock: boolean | null }[];
    expect(ids(await records(`${V1}/products?per_page=100&filter[tags][contains]=cooking`))).toEqual(ids(products.filter((p) => p.tags?.includes('cooking'))));
    expect(ids(await records(`${V1}/products?per_page=100&filter[tags][contains]=COOKING`))).toEqual([]);
    expect(ids(await records(`${V1}/products?per_page=100&filter[in_stock]=false`))).toEqual(ids(products.filter((p) => p.in_stock === false)));
    expect(await error(`${V1}/products?filter[tags]=cooking`)).toBe('filter[tags]: "eq" is not an operator of tags (operators: contains, null)');
    expect(await error(`${V1}/products?filter[in_stock][ne]=true`)).toBe('filter[in_stock][ne]: "ne" is not an operator of in_stock (operators: eq, null)');
  });

  it('"belongs_to (<name>_id): eq ne in null"', async () => {
    const posts = await allPosts();
    expect(ids(await records(`${V1}/blog_posts?per_page=100&filter[author_id][in]=1,2`))).toEqual(ids(posts.filter((p) => p.author?.id === 1 || p.author?.id === 2)));
    expect(ids(await records(`${V1}/blog_posts?per_page=100&filter[author_id][ne]=3`))).toEqual(ids(posts.filter((p) => p.author?.id !== 3)));
    expect(ids(await records(`${V1}/blog_posts?per_page=100&filter[author_id][null]=true`))).toEqual(ids(posts.filter((p) => p.author === null)));
    // The record's JSON key (`author`) is not the filter's: the foreign key is.
    expect(await error(`${V1}/blog_posts?filter[author]=1`)).toMatch(/^filter\[author\]: blog_posts has no filterable field "author"/);
  });

  it('"key_value/json, password, file, files, has_many, has_one, habtm: not filterable" — each answered as an unknown field', async () => {
    for (const key of ['comments', 'tag_list', 'cover', 'attachments']) {
      expect(await error(`${V1}/blog_posts?filter[${key}][null]=true`)).toBe(`filter[${key}]: blog_posts has no filterable field "${key}" (filterable: id, title, published, published_on, view_count, rating, author_id)`);
    }
    expect(await error(`${V1}/products?filter[specs]=x`)).toMatch(/^filter\[specs\]: products has no filterable field "specs"/);
    for (const key of ['password', 'password_digest', 'blog_posts', 'profile']) expect(await error(`${V1}/users?filter[${key}]=x`)).toMatch(new RegExp(`^filter\\[${key}\\]: users has no filterable field "${key}"`));
  });

  it('"Values are parsed with the field type\'s own write rules (dates YYYY-MM-DD, datetimes ISO 8601 with zone, numbers, true/false)"', async () => {
    expect(await error(`${V1}/blog_posts?filter[published_on]=2026-02-30`)).toBe('filter[published_on] must be a date in YYYY-MM-DD format, instead got "2026-02-30"');
    expect(await error(`${V1}/users?filter[created_at][gte]=2026-01-01T10:00:00`)).toBe('filter[created_at][gte] must be an ISO 8601 datetime with a time zone, such as 2026-11-22T10:40:00Z, instead got "2026-01-01T10:00:00"');
    expect(await error(`${V1}/blog_posts?filter[view_count]=1.5`)).toBe('filter[view_count] must be an integer, instead got "1.5"');
    expect(await error(`${V1}/blog_posts?filter[rating][gte]=four`)).toBe('filter[rating][gte] is not a number, instead got "four"');
    expect(await error(`${V1}/blog_posts?filter[published]=yes`)).toBe('filter[published] must be true or false, instead got "yes"');
    expect(await error(`${V1}/blog_posts?filter[published][null]=1`)).toBe('filter[published][null] must be true or false, instead got "1"');
    // A number an `integer` column cannot hold is compared, not refused by the database.
    expect(await records(`${V1}/blog_posts?filter[view_count][gt]=9007199254740991`)).toEqual([]);
    expect(await records(`${V1}/blog_posts?filter[author_id]=9007199254740991`)).toEqual([]);
  });

  it('"Datetimes are stored with millisecond precision and answered in UTC": a record created by now() (microseconds) is found by the datetime the API answers for it, with every operator', async () => {
    // As a column default of now() writes it: microseconds past the millisecond.
    const db = demo().database.db;
    const { id } = await db.insertInto('users').values({ name: 'Micro Second', email: 'micro@example.com', password_digest: 'x', admin: false, created_at: sql`timestamptz '2026-11-29 14:40:48.029517+00'` }).returning('id').executeTakeFirstOrThrow();
    try {
      const answered = (await records(`${V1}/users?filter[name]=Micro%20Second`))[0]!.created_at as string;
      expect(answered).toBe('2026-11-29T14:40:48.029Z');
      const found = async (query: string) => (await records(`${V1}/users?per_page=100&${query}`)).some((user) => user.id === id);
      expect(await found(`filter[created_at]=${answered}`)).toBe(true);
      expect(await found(`filter[created_at][eq]=2026-11-29T15:40:48.029%2B01:00`)).toBe(true);
      expect(await found(`filter[created_at][in]=2026-01-01T00:00:00Z,${answered}`)).toBe(true);
      expect(await found(`filter[created_at][lte]=${answered}`)).toBe(true);
      expect(await found(`filter[created_at][gte]=${answered}`)).toBe(true);
      expect(await found(`filter[created_at][gt]=${answered}`)).toBe(false);
      expect(await found(`filter[created_at][lt]=${answered}`)).toBe(false);
      expect(await found(`filter[created_at][ne]=${answered}`)).toBe(false);
      expect(await found(`filter[created_at][gt]=2026-11-29T14:40:48.028Z`)).toBe(true);
      expect(await found(`filter[created_at][lt]=2026-11-29T14:40:48.030Z`)).toBe(true);
      expect(await found(`filter[created_at]=2026-11-29T14:40:48.030Z`)).toBe(false);
    } finally {
      await db.deleteFrom('users').where('id', '=', id).execute();
    }
  });

  it('"q=<text>: the words … must each be contained, case-insensitively, in at least one of the resource\'s search fields" (title, summary: the fields the list answers, issue 42 M2)', async () => {
    const rows = await demo().database.db.selectFrom('blog_posts').select(['id', 'title', 'summary']).execute();
    const matches = (words: string[]) => rows.filter((row) => words.every((word) => [row.title, row.summary].some((text) => typeof text === 'string' && text.toLowerCase().includes(word.toLowerCase())))).map((row) => Number(row.id)).sort((a, b) => a - b);
    for (const q of ['tea', 'TEA 100', 'post games', 'body 100%', 'snake_case', 'back\\slash', 'nothing-like-this']) {
      const expected = matches(q.split(' '));
      expect(ids(await records(`${V1}/blog_posts?per_page=100&q=${encodeURIComponent(q)}`)), q).toEqual(expected);
    }
    expect(ids(await records(`${V1}/blog_posts?per_page=100&q=${encodeURIComponent('  ')}`))).toEqual(ids(await allPosts()));
  });

  it('"users.email is filterable: false (but searchable)"; products search name, comments body', async () => {
    const users = (await records(`${V1}/users?per_page=100`)) as { id: number; email: string }[];
    expect(ids(await records(`${V1}/users?per_page=100&q=EXAMPLE.COM`))).toEqual(ids(users.filter((u) => u.email.toLowerCase().includes('example.com'))));
    expect(await error(`${V1}/users?filter[email][contains]=example`)).toBe('filter[email]: users has no filterable field "email" (filterable: id, name, admin, created_at)');
    const products = (await records(`${V1}/products?per_page=100`)) as { id: number; name: string }[];
    expect(ids(await records(`${V1}/products?per_page=100&q=kitchen`))).toEqual(ids(products.filter((p) => p.name.toLowerCase().includes('kitchen'))));
    const comments = (await records(`${V1}/comments?per_page=100`)) as { id: number; body: string }[];
    const word = comments[0]!.body.split(' ')[0]!;
    expect(ids(await records(`${V1}/comments?per_page=100&q=${encodeURIComponent(word)}`))).toEqual(ids(comments.filter((c) => c.body.toLowerCase().includes(word.toLowerCase()))));
  });

  it('"q on a resource without any is a 400 naming the resource"; "at most 10" words; "q longer than 200 characters → 400"', async () => {
    expect(await error(`${V1}/product_categories?q=books`)).toBe('q cannot search product_categories: the resource ProductCategory declares no search fields');
    expect(await error(`${V1}/blog_posts?q=${'a '.repeat(11)}`)).toBe('q must have at most 10 words, instead got 11');
    expect(await records(`${V1}/blog_posts?q=${'a '.repeat(10)}`)).toBeInstanceOf(Array);
    expect(await error(`${V1}/blog_posts?q=${'é'.repeat(201)}`)).toBe('q must be at most 200 characters, instead got 201');
    expect(await records(`${V1}/blog_posts?q=${'é'.repeat(200)}`)).toEqual([]);
  });

  it('"fields=<field>,<field> on index … the records carry id and exactly the listed fields"', async () => {
    const rows = await records(`${V1}/blog_posts?per_page=5&fields=title,author`);
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(Object.keys(row)).toEqual(['id', 'title', 'author']);
    for (const row of await records(`${V1}/blog_posts?per_page=3&fields=view_count&fields=cover`)) expect(Object.keys(row)).toEqual(['id', 'view_count', 'cover']);
    for (const row of await records(`${V1}/blog_posts?per_page=3&fields=id`)) expect(Object.keys(row)).toEqual(['id']);
  });

  it('"fields … on show": the record carries id and exactly the listed fields of the show view (body and created_at are on show)', async () => {
    const response = await get(`${V1}/blog_posts/6?fields=body,created_at,cover`);
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json().record)).toEqual(['id', 'body', 'cover', 'created_at']);
    expect(response.json().record.cover).toMatchObject({ filename: 'cover-06.png' });
    expect(await error(`${V1}/blog_posts/6?fields=password,nope`)).toBe('fields: blog_posts has no field "password" here (fields: id, title, summary, body, published, published_on, view_count, rating, author, comments, tag_list, cover, attachments, created_at); fields: blog_posts has no field "nope" here (fields: id, title, summary, body, published, published_on, view_count, rating, author, comments, tag_list, cover, attachments, created_at)');
  });

  it('"Work for fields not asked for is not done (no has_many count subquery, no attachment lookup for a field left out)"', async () => {
    const { database } = demo();
    const full = await countQueries(database, () => get(`${V1}/blog_posts?per_page=20`));
    const sparse = await countQueries(database, () => get(`${V1}/blog_posts?per_page=20&fields=title`));
    const page = (statements: string[]) => statements.find((statement) => /offset/.test(statement))!;
    expect(page(full.statements)).toMatch(/"comments"/);
    expect(page(full.statements)).toMatch(/panel_attachments/);
    expect(page(full.statements)).toMatch(/"users"/);
    expect(page(sparse.statements)).not.toMatch(/"comments"|panel_attachments|"users"|blog_posts_tags/);
    const show = await countQueries(database, () => get(`${V1}/blog_posts/6?fields=title`));
    const read = show.statements.filter((statement) => statement.includes('"blog_posts"'));
    expect(read).toHaveLength(1);
    expect(read[0]).not.toMatch(/"comments"|panel_attachments|"users"/);
  });

  it('"an unknown field, a field not allowed by rule 4, an operator the type does not have, a value the type cannot parse, an option outside a select\'s options, an empty in list … → 400 naming every problem at once"', async () => {
    const message = await error(`${V1}/blog_posts?filter[nope]=1&filter[title][gte]=a&filter[view_count]=x&filter[published_on][in]=&q=${'x'.repeat(201)}&fields=nope&sort_by=nope`);
    expect(message.split('; ')).toEqual([
      'sort_by must be one of id, title, published, published_on, view_count, rating, instead got "nope"',
      'filter[nope]: blog_posts has no filterable field "nope" (filterable: id, title, published, published_on, view_count, rating, author_id)',
      'filter[title][gte]: "gte" is not an operator of title (operators: eq, ne, in, contains, starts_with, null)',
      'filter[view_count] must be an integer, instead got "x"',
      'filter[published_on][in] must list at least one value',
      'q must be at most 200 characters, instead got 201',
      'fields: blog_posts has no field "nope" here (fields: id, title, published, published_on, view_count, rating, author, comments, tag_list, cover, attachments)',
    ]);
  });

  it('malformed filter keys are refused, never ignored: filter, filters[x], nested brackets, empty names, an unknown operator', async () => {
    expect(await error(`${V1}/blog_posts?filter=1`)).toBe('"filter" is not a filter: write filter[<field>]=<value> or filter[<field>][<operator>]=<value>');
    expect(await error(`${V1}/blog_posts?filters[title]=1`)).toBe('"filters[title]" is not a filter: write filter[<field>]=<value> or filter[<field>][<operator>]=<value>');
    expect(await error(`${V1}/blog_posts?filter[title][eq][x]=1`)).toMatch(/^"filter\[title\]\[eq\]\[x\]" is not a filter/);
    expect(await error(`${V1}/blog_posts?filter[]=1`)).toMatch(/^"filter\[\]" is not a filter/);
    expect(await error(`${V1}/blog_posts?filter[title][like]=1`)).toBe('filter[title][like]: "like" is not an operator of title (operators: eq, ne, in, contains, starts_with, null)');
    expect(await error(`${V1}/blog_posts?filter[title]=a&filter[title]=b`)).toBe('filter[title] takes one value, instead got 2');
    expect(await error(`${V1}/blog_posts?filter[id][in]=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`)).toBe('filter[id][in] takes at most 100 values, instead got 101');
  });

  it('"filtering on body (hidden on index) and users.email (filterable: false) gives the same 400 as an unknown field"', async () => {
    const same = async (resource: string, refused: string, unknown: string) => {
      const a = await get(`${V1}/${resource}?filter[${refused}][contains]=a`);
      const b = await get(`${V1}/${resource}?filter[${unknown}][contains]=a`);
      expect([a.statusCode, b.statusCode]).toEqual([400, 400]);
      expect(a.headers['content-type']).toBe(b.headers['content-type']);
      expect(a.json().error.replaceAll(refused, '<name>')).toBe(b.json().error.replaceAll(unknown, '<name>'));
    };
    await same('blog_posts', 'body', 'no_such_field');
    await same('users', 'email', 'no_such_field');
    await same('users', 'password', 'no_such_field');
    // The same for fields= and a hidden field on index.
    const hidden = await get(`${V1}/blog_posts?fields=body`);
    const unknown = await get(`${V1}/blog_posts?fields=no_such_field`);
    expect(hidden.json().error.replaceAll('body', '<name>')).toBe(unknown.json().error.replaceAll('no_such_field', '<name>'));
  });

  it('"every spelling of a field name" is checked against the allow-list: prefixes, case, look-alikes, SQL', async () => {
    for (const name of ['r.title', 't1.title', 'Title', 'TITLE', 'tіtle', 'title ', '"title"', 'title--', 'title)', 'blog_posts.title']) {
      const response = await get(`${V1}/blog_posts?filter[${encodeURIComponent(name)}]=x`);
      expect(response.statusCode, name).toBe(400);
      expect(response.json().error, name).toBe(`filter[${name}]: blog_posts has no filterable field ${JSON.stringify(name)} (filterable: id, title, published, published_on, view_count, rating, author_id)`);
    }
  });

  it('"user text never reaches SQL except as a bound parameter": SQL in values and search is data', async () => {
    const posts = await allPosts();
    for (const value of ["' or 1=1 --", "x'); drop table blog_posts; --", '\\', "%' or '%'='", '%', '_']) {
      expect(await records(`${V1}/blog_posts?filter[title]=${encodeURIComponent(value)}`), value).toEqual([]);
      const containing = ids(posts.filter((p) => p.title.toLowerCase().includes(value.toLowerCase())));
      expect(ids(await records(`${V1}/blog_posts?per_page=100&filter[title][contains]=${encodeURIComponent(value)}`)), value).toEqual(containing);
    }
    expect((await allPosts()).length).toBeGreaterThan(60);
  });

  it('"the policy scope … apply unchanged": the reader key filters within its scope (published posts and its own)', async () => {
    const readerAll = (await records(`${V1}/blog_posts?per_page=100`, READER)) as unknown as Post[];
    const unpublished = ids(readerAll.filter((p) => p.published === false));
    expect(ids(await records(`${V1}/blog_posts?per_page=100&filter[published]=false`, READER))).toEqual(unpublished);
    const adminUnpublished = ids((await allPosts()).filter((p) => p.published === false));
    expect(adminUnpublished.length).toBeGreaterThan(unpublished.length);
  });

  it('"total_count/total_pages count the filtered set; sorting and pagination work with filters; the per_page cookie is unaffected"', async () => {
    const posts = (await allPosts()).filter((p) => p.published === true && p.author?.id === 2);
    const sorted = [...posts].sort((a, b) => (b.view_count ?? -1) - (a.view_count ?? -1) || b.id - a.id);
    const response = await get(`${V1}/blog_posts?filter[published]=true&filter[author_id]=2&sort_by=view_count&sort_direction=desc&per_page=3&page=2`);
    expect(response.json().pagination).toEqual({ page: 2, per_page: 3, total_pages: Math.ceil(posts.length / 3), total_count: posts.length, has_next_page: posts.length > 6, has_prev_page: true });
    expect(response.json().records.map((r: Post) => r.id)).toEqual(sorted.slice(3, 6).map((p) => p.id));
    expect(response.cookies.find((cookie) => cookie.name === 'per_page')?.value).toBe('3');
    const withoutPerPage = await get(`${V1}/blog_posts?filter[published]=true`, { ...ADMIN, cookie: 'per_page=4' });
    expect(withoutPerPage.json().pagination.per_page).toBe(4);
    expect(withoutPerPage.cookies.find((cookie) => cookie.name === 'per_page')).toBeUndefined();
  });

  it('"an index page stays two statements, whatever the number of filters"', async () => {
    const { database } = demo();
    const plain = await countQueries(database, () => get(`${V1}/blog_posts?per_page=10`));
    const filtered = await countQueries(database, () =>
      get(`${V1}/blog_posts?per_page=10&filter[published]=true&filter[author_id][in]=1,2,3&filter[view_count][gte]=0&filter[title][contains]=o&filter[published_on][null]=false&filter[rating][lt]=5&q=post%20the&fields=title,comments`),
    );
    expect(filtered.result.statusCode).toBe(200);
    // The records layer's statements (the API key's user lookup aside): the page and the count.
    const records = (statements: string[]) => statements.filter((statement) => statement.includes('"blog_posts"'));
    expect(records(plain.statements)).toHaveLength(2);
    expect(records(filtered.statements)).toHaveLength(2);
    expect(filtered.count).toBe(plain.count);
  });
});
