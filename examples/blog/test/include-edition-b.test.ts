// `include` in Edition B through real HTTP on the demo (`buildDemoApp({ edition: 'B' })`): grants
// decide which paths exist for a token (design: shared/designs/related-reads.md, "Authorization").
import { expect, it } from 'vitest';
import { countQueries } from '@panel/test-support';
import { describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';

describeOnEachDatabase('include in Edition B', (demo) => {
  const bearer = (name: string) => ({ authorization: `Bearer ${demo().tokenSecrets!.get(name)!}` });
  const get = (url: string, name: string) => demo().app.inject({ method: 'GET', url: `${V1}${url}`, headers: bearer(name) });
  const census = (url: string, name: string) => countQueries(demo().database, () => get(url, name));

  it('"An association … ungranted to the token (Edition B) … answers exactly like a name that does not exist: 400", and no statement touched the target', async () => {
    // The reader token reads blog_posts and comments, not users.
    for (const [path, unknown] of [
      ['author', 'no_such'],
      ['comments.user', 'comments.no_such'],
    ] as const) {
      const refused = await census(`/blog_posts?include=${path}`, 'reader');
      const missing = await census(`/blog_posts?include=${unknown}`, 'reader');
      expect([refused.result.statusCode, missing.result.statusCode]).toEqual([400, 400]);
      const name = (text: string) => text.replace(`"${path.split('.').at(-1)}"`, '"?"').replace(`"${unknown.split('.').at(-1)}"`, '"?"').replaceAll(path, '?').replaceAll(unknown, '?');
      expect(name(refused.result.json().error)).toBe(name(missing.result.json().error));
      expect(refused.result.json().error).not.toContain('author,');
      // Only the token's own statements (its lookup, which the token cache may spare): none reads a record.
      const records = (statements: string[]) => statements.filter((statement) => !/"panel_api_/.test(statement));
      expect(records(refused.statements)).toEqual([]);
      expect(records(missing.statements)).toEqual([]);
    }
    // The same path with the grant: the token with every grant embeds the author.
    const granted = await get('/blog_posts/1?include=author', 'all');
    expect(granted.statusCode).toBe(200);
    expect(granted.json().record.author.record).toMatchObject({ id: granted.json().record.author.id });
  });

  it('a granted to-many path embeds its records, and its next page is the traversal URL of the parent (the mount serves traversal)', async () => {
    const response = await get('/blog_posts/3?include=comments&include_per_page[comments]=1', 'reader');
    expect(response.statusCode, response.body).toBe(200);
    const { comments } = response.json().record;
    expect(comments.records).toHaveLength(1);
    expect(comments.records[0]).not.toHaveProperty('user');
    if (comments.count > 1) expect(comments.next).toMatch(/^\/api\/resources\/v1\/blog_posts\/3\/comments\?per_page=1&after=/);
    const more = await get('/blog_posts/2?include=comments&include_per_page[comments]=1', 'reader');
    expect(more.json().record.comments).toMatchObject({ count: 3, has_more: true });
    expect(more.json().record.comments.next).toMatch(/^\/api\/resources\/v1\/blog_posts\/2\/comments\?per_page=1&after=[\w-]+\.[\w-]+$/);
  });

  it('"On list, show, association traversal": a traversal embeds its records\' associations with the target\'s rules, an ungranted one is the unknown 400', async () => {
    const response = await get('/blog_posts/2/comments?include=blog_post&include_fields[blog_post]=id,title', 'reader');
    expect(response.statusCode, response.body).toBe(200);
    const { records } = response.json();
    expect(records.length).toBeGreaterThan(0);
    for (const comment of records) expect(comment.blog_post).toEqual({ id: 2, label: 'Post 02: Kitchens', record: { id: 2, title: 'Post 02: Kitchens' } });
    const refused = await get('/blog_posts/2/comments?include=user', 'reader');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('include: comments has no includable association "user" (includable: blog_post)');
  });
  it('"the answers of create and update": an association ungranted to a writing token is the unknown 400 on its create and update too, before anything is written', async () => {
    // The writer token creates and updates blog_posts, and reads neither users nor comments.
    const send = (method: 'POST' | 'PATCH', url: string) =>
      countQueries(demo().database, () => demo().app.inject({ method, url: `${V1}${url}`, headers: { ...bearer('writer'), 'content-type': 'application/json' }, payload: JSON.stringify({ blog_post: { title: 'Written by the writer' } }) }));
    const posts = async () => Number((await demo().database.db.selectFrom('blog_posts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await posts();
    for (const [method, url, unknownUrl, path, unknown] of [
      ['POST', '/blog_posts?include=author', '/blog_posts?include=no_such', 'author', 'no_such'],
      ['PATCH', '/blog_posts/1?include=comments', '/blog_posts/1?include=no_such', 'comments', 'no_such'],
    ] as const) {
      const [refused, missing] = [await send(method, url), await send(method, unknownUrl)];
      expect([refused.result.statusCode, missing.result.statusCode], refused.result.body).toEqual([400, 400]);
      expect(refused.result.json().error.replace(`"${path}"`, '"?"')).toBe(missing.result.json().error.replace(`"${unknown}"`, '"?"'));
      expect([...refused.statements, ...missing.statements].filter((statement) => /\b(insert|update)\b/i.test(statement) && !/"panel_api_/.test(statement))).toEqual([]);
    }
    expect(await posts()).toBe(before);
    // Without the ungranted path the same create writes: the 400 was the include's.
    expect((await send('POST', '/blog_posts')).result.statusCode).toBe(201);
  });
  it('"every included record serialized by the target\'s own serializer for this actor": a public target embedded under a gated parent is its show as this token gets it (no key of a gated association), and `include_fields` takes what that show has', async () => {
    const embedded = await get('/products/5?include=product_category', 'all');
    expect(embedded.statusCode, embedded.body).toBe(200);
    const category = embedded.json().record.product_category as { id: number; record: Record<string, unknown> };
    const direct = await get(`/product_categories/${category.id}`, 'all');
    expect(direct.statusCode).toBe(200);
    expect(Object.keys(category.record).sort()).toEqual(Object.keys(direct.json().record).sort());
    expect(category.record.products).toBeUndefined();
    expect(direct.json().record.products).toBeUndefined();
    // Asked by name, a gated association of the public target is not there: the unknown field's 400.
    const asked = await get('/products/5?include=product_category&include_fields[product_category]=products', 'all');
    expect(asked.statusCode).toBe(400);
  });

  it('"a public parent (`PublicResourcesController`) never opens a gated target": include from the public product categories to the gated products is the unknown 400, with or without a token, and reads no product', async () => {
    const anonymous = (url: string) => countQueries(demo().database, () => demo().app.inject({ method: 'GET', url: `${V1}${url}` }));
    expect((await demo().app.inject({ method: 'GET', url: `${V1}/products/1` })).statusCode, 'the target is gated').toBe(401);
    for (const url of ['/product_categories/1?include=products', '/product_categories?include=products', '/product_categories?include=products.product_category']) {
      for (const asked of [await anonymous(url), await census(url, 'reader'), await census(url, 'all')]) {
        expect(asked.result.statusCode, `${url}: ${asked.result.body}`).toBe(400);
        expect(asked.result.json().error).toBe('include: product_categories has no includable association "products" (includable: none)');
        expect(asked.statements.filter((statement) => /"products"/.test(statement))).toEqual([]);
      }
    }
    // The OpenAPI document says the same: the public parent's include lists no gated target.
    const document = (await demo().app.inject({ method: 'GET', url: `${V1}/openapi.json`, headers: bearer('all') })).json() as { paths: Record<string, Record<string, { parameters?: { name: string; schema: { enum?: string[]; items?: { enum?: string[] } } }[] }>> };
    const includeOf = (path: string) => document.paths[path]!.get!.parameters!.find((parameter) => parameter.name === 'include');
    const enumOf = (path: string) => includeOf(path)?.schema.items?.enum ?? includeOf(path)?.schema.enum ?? [];
    expect(enumOf(`${V1}/products/{id}`)).toContain('product_category');
    expect(enumOf(`${V1}/product_categories/{id}`).filter((path) => path.startsWith('products'))).toEqual([]);
    expect(enumOf(`${V1}/product_categories`).filter((path) => path.startsWith('products'))).toEqual([]);
    // The public parent itself still answers, and its traversal to the gated target asks for the target's credential.
    expect((await demo().app.inject({ method: 'GET', url: `${V1}/product_categories/1` })).statusCode).toBe(200);
    expect((await demo().app.inject({ method: 'GET', url: `${V1}/product_categories/1/products` })).statusCode).toBe(401);
  });
}, { edition: 'B' });
