// "The document is looser than the server" (issue point 5): each finding, through HTTP, against the served document.
import { expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

const DOCUMENT = '/api/resources/v1/openapi.json';
const V1 = '/api/resources/v1';

type Json = any;

describeOnEachDatabase('the OpenAPI document says what the server does (issue point 5)', (demo) => {
  const served = async (): Promise<Json> => (await demo().app.inject({ url: DOCUMENT })).json();
  const send = (method: 'POST' | 'PATCH' | 'PUT', url: string, payload: unknown) => demo().app.inject({ method, url, headers: { ...ADMIN, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

  it('"create schemas: a field with a presence rule is in required and not nullable": title is a string, and null is refused with 422 on create and update', async () => {
    const { schemas } = (await served()).components;
    expect(schemas.BlogPostCreate.required).toEqual(['title']);
    expect(schemas.BlogPostCreate.properties.title).toEqual({ type: 'string', maxLength: 200 });
    expect(schemas.BlogPostCreate.properties.summary.type).toEqual(['string', 'null']);
    const created = await send('POST', `${V1}/blog_posts`, { blog_post: { title: null } });
    expect(created.statusCode).toBe(422);
    expect(created.json().errors.title).toContain("can't be blank");
    // Update: nothing required, and still no null for a field with a presence rule.
    expect(schemas.BlogPostUpdate.required).toBeUndefined();
    expect(schemas.BlogPostUpdate.properties.title).toEqual({ type: 'string', maxLength: 200 });
    expect((await send('PATCH', `${V1}/blog_posts/1`, { blog_post: { title: null } })).statusCode).toBe(422);
    expect((await send('PATCH', `${V1}/blog_posts/1`, { blog_post: { summary: null } })).statusCode).toBe(200);
  });

  it('"a required belongs_to is in required": ProfileCreate and CommentCreate name the keys the server needs, and leaving them out is a 422', async () => {
    const { schemas } = (await served()).components;
    expect(schemas.ProfileCreate.required).toEqual(['user_id']);
    expect(schemas.ProfileCreate.properties.user_id).toEqual({ type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
    expect(schemas.CommentCreate.required).toEqual(expect.arrayContaining(['body', 'blog_post_id']));
    const profile = await send('POST', `${V1}/profiles`, { profile: { bio: 'no owner' } });
    expect(profile.statusCode).toBe(422);
    expect(Object.keys(profile.json().errors)).toEqual(['user']);
    const comment = await send('POST', `${V1}/comments`, { comment: { body: 'nowhere' } });
    expect(comment.statusCode).toBe(422);
  });

  it('"per_page: the server keeps clamping to 100 (a contract, tested); the document describes the clamp instead of a maximum"', async () => {
    const parameters = (await served()).paths[`${V1}/comments`].get.parameters;
    const perPage = parameters.find((p: Json) => p.name === 'per_page');
    // No maximum at the clamp: the bound every integer of the API has (the safe integers), nothing lower.
    expect(perPage.schema.maximum).toBe(Number.MAX_SAFE_INTEGER);
    expect(perPage.description).toContain('clamps it to 100');
    const page = await demo().app.inject({ url: `${V1}/comments?per_page=5000`, headers: ADMIN });
    expect(page.statusCode).toBe(200);
    expect(page.json().pagination.per_page).toBe(100);
  });

  it('"a body the document calls valid is accepted": a text field\'s `format` is the write schema\'s `pattern`, and what the pattern refuses the server refuses with 422', async () => {
    const { schemas } = (await served()).components;
    const email = schemas.UserCreate.properties.email;
    // The demo's users.email: `format: /^[^@\s]+@[^@\s]+$/`, no flags.
    expect(email).toEqual({ type: 'string', maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+$' });
    expect(schemas.UserUpdate.properties.email.pattern).toBe(email.pattern);
    const valid = new Ajv2020({ strict: false }).compile(email);
    expect(valid('ada@example.com')).toBe(true);
    expect(valid('not an email')).toBe(false);
    const refused = await send('POST', `${V1}/users`, { user: { name: 'No Mail', email: 'not an email' } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.email).toContain('is invalid');
  });

  it('docs/querying.md: "The answer carries a `Link` header" (cursor pages) and "The answer says its cost: `Include-Cost: <n>`": both are declared on the answers that can carry them', async () => {
    const document = await served();
    const operations = Object.values(document.paths as Record<string, Record<string, Json>>).flatMap((item) => Object.values(item));
    const success = (operation: Json) => Object.entries(operation.responses as Record<string, Json>).find(([code]) => code.startsWith('2'))![1];
    // Every operation with an `include` parameter declares Include-Cost on its success; every one with `pagination` declares Link.
    const including = operations.filter((operation) => (operation.parameters ?? []).some((p: Json) => p.name === 'include'));
    const paging = operations.filter((operation) => (operation.parameters ?? []).some((p: Json) => p.name === 'pagination'));
    expect(including.length).toBeGreaterThan(0);
    expect(paging.length).toBeGreaterThan(0);
    for (const operation of including) expect(success(operation).headers?.['Include-Cost'], operation.operationId).toBeDefined();
    for (const operation of paging) expect(success(operation).headers?.Link, operation.operationId).toBeDefined();
    // The server sends them there.
    const included = await demo().app.inject({ url: `${V1}/blog_posts/1?include=author`, headers: ADMIN });
    expect(included.headers['include-cost']).toBeDefined();
    const cursor = await demo().app.inject({ url: `${V1}/blog_posts?pagination=cursor&per_page=1`, headers: ADMIN });
    expect(cursor.headers.link).toMatch(/rel="next"/);
  });

  it('"page ≥ 1" and at most the server\'s bound: the document\'s `page` maximum is the last page the server reads (1000000000); one more is its 400', async () => {
    const page = (await served()).paths[`${V1}/comments`].get.parameters.find((p: Json) => p.name === 'page');
    expect(page.schema.maximum).toBe(1_000_000_000);
    expect((await demo().app.inject({ url: `${V1}/comments?page=${page.schema.maximum}`, headers: ADMIN })).statusCode).toBe(200);
    const over = await demo().app.inject({ url: `${V1}/comments?page=${page.schema.maximum + 1}`, headers: ADMIN });
    expect(over.statusCode).toBe(400);
    expect(over.json().error).toBe('page must be a positive integer (at most 1000000000), instead got "1000000001"');
  });

  it('"the default order without sort_by described": the document names it, and the server answers in it', async () => {
    const document = await served();
    const sortBy = document.paths[`${V1}/blog_posts`].get.parameters.find((p: Json) => p.name === 'sort_by');
    expect(sortBy.description).toContain('`created_at` descending, then `id`');
    expect(document.paths[`${V1}/tags`].get.description).toContain('ordered by `id` descending');
    const ids = (await demo().app.inject({ url: `${V1}/tags?per_page=100`, headers: ADMIN })).json().records.map((r: Json) => r.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
  });

  it('"PUT documented as the server behaves (same as PATCH: omitted fields kept)"', async () => {
    const put = (await served()).paths[`${V1}/blog_posts/{id}`].put;
    expect(put.description).toMatch(/a field left out keeps its value/);
    expect(put.description).toMatch(/PUT is not a full replacement/);
    const before = (await demo().app.inject({ url: `${V1}/blog_posts/2`, headers: ADMIN })).json().record;
    const replaced = await send('PUT', `${V1}/blog_posts/2`, { blog_post: { summary: 'Only the summary' } });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().record).toMatchObject({ title: before.title, summary: 'Only the summary' });
  });

  // Issue 42, item 14 (Spectral's OWASP ruleset, API4 "unrestricted resource consumption"): the bounds the document states are the server's.
  it('"integer format/maximum", "maxItems for arrays", "429 + RateLimit headers on operations that spend the limit": every integer is an int64 within its bounds, a page holds at most maxPerPage, and 409/412 carry RateLimit as the server sends it', async () => {
    const document = await served();
    const integers: Json[] = [];
    const walk = (node: Json): void => {
      if (Array.isArray(node)) {
        for (const item of node) walk(item);
        return;
      }
      if (node === null || typeof node !== 'object') return;
      if (node.type === 'integer' || (Array.isArray(node.type) && node.type.includes('integer'))) integers.push(node);
      for (const [key, value] of Object.entries(node)) if (key !== 'example' && key !== 'examples') walk(value);
    };
    walk(document);
    expect(integers.length).toBeGreaterThan(100);
    expect(integers.filter((schema) => schema.format === undefined || schema.minimum === undefined || schema.maximum === undefined)).toEqual([]);
    expect(integers.every((schema) => schema.maximum <= Number.MAX_SAFE_INTEGER && schema.minimum >= -Number.MAX_SAFE_INTEGER)).toBe(true);
    // The server refuses what the document's bound refuses: an id beyond the safe integers is no record.
    expect((await demo().app.inject({ url: `${V1}/blog_posts/${2 ** 53 + 2}`, headers: ADMIN })).statusCode).toBe(404);
    const list = document.paths[`${V1}/comments`].get.responses['200'].content['application/json'].schema;
    expect(list.properties.records.maxItems).toBe(100);
    expect((await demo().app.inject({ url: `${V1}/comments?per_page=5000`, headers: ADMIN })).json().records.length).toBeLessThanOrEqual(100);
    // A 412 spends the limit and says so.
    const patch = document.paths[`${V1}/blog_posts/{id}`].patch.responses;
    for (const status of ['409', '412', '429']) expect(Object.keys(patch[status].headers), status).toEqual(expect.arrayContaining(['RateLimit-Policy', 'RateLimit']));
    const stale = await demo().app.inject({ method: 'PATCH', url: `${V1}/blog_posts/1`, headers: { ...ADMIN, 'content-type': 'application/json', 'if-match': '"stale"' }, payload: JSON.stringify({ blog_post: { summary: 'x' } }) });
    expect(stale.statusCode).toBe(412);
    expect(stale.headers.ratelimit).toMatch(/^"default";r=\d+;t=\d+$/);
  });

  it('"a servers entry (from the mount\'s prefix, relative, so it works behind any host)"', async () => {
    const document = await served();
    expect(document.servers).toHaveLength(1);
    expect(document.servers[0].url).toBe('/');
    expect(Object.keys(document.paths).every((path) => path.startsWith('/api/'))).toBe(true);
  });

  it('"no unused components": every schema and header is referenced', async () => {
    const document = await served();
    const text = JSON.stringify({ ...document, components: undefined }) + JSON.stringify(document.components);
    for (const section of ['schemas', 'headers'] as const) {
      for (const name of Object.keys(document.components[section] ?? {})) {
        expect(text.split(`"#/components/${section}/${name}"`).length - 1, `${section}/${name}`).toBeGreaterThan(0);
      }
    }
    expect(document.components.schemas.BlogPost_related).toBeUndefined();
  });

  it('"examples for path parameters and request bodies (from the resource\'s fields)": each validates against its schema, and each create example is accepted', async () => {
    const document = await served();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    for (const schema of Object.entries(document.components.schemas)) ajv.addSchema(schema[1] as object, `#/components/schemas/${schema[0]}`);
    let bodies = 0;
    for (const [path, item] of Object.entries<Json>(document.paths)) {
      for (const [method, operation] of Object.entries<Json>(item)) {
        for (const parameter of operation.parameters ?? []) if (parameter.in === 'path') expect(parameter.example, `${method} ${path} ${parameter.name}`).toBeDefined();
        const body = operation.requestBody?.content['application/json'];
        if (!body) continue;
        expect(body.example, `${method} ${path}`).toBeDefined();
        const resolved = JSON.parse(JSON.stringify(body.schema).replace(/"\$ref":"#\/components\/schemas\/(\w+)"/g, (_m, name) => JSON.stringify(document.components.schemas[name]).slice(1, -1)));
        const validate = ajv.compile(resolved);
        expect(validate(body.example) ? [] : validate.errors, `${method} ${path}`).toEqual([]);
        bodies += 1;
      }
    }
    expect(bodies).toBeGreaterThan(10);
    const example = document.paths[`${V1}/blog_posts`].post.requestBody.content['application/json'].example;
    expect((await send('POST', `${V1}/blog_posts`, example)).statusCode).toBe(201);
  });
});
