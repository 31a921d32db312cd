import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { validate } from '@scalar/openapi-parser';
import { openApiResponseChecker } from '@panel/test-support';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

/** The demo's document, committed and reviewed in diffs; `UPDATE_GOLDEN=1 npx vitest run test/openapi-document.test.ts` rewrites it. */
const GOLDEN = fileURLToPath(new URL('../openapi/v1.json', import.meta.url));
const DOCUMENT = '/api/resources/v1/openapi.json';

describeOnEachDatabase('the OpenAPI document, Edition A ("a valid OpenAPI 3.1 document, from the field definitions")', (demo) => {
  it('validates as OpenAPI 3.1.0 with @scalar/openapi-parser, and says nothing of `nullable`', async () => {
    const response = await demo().app.inject({ url: DOCUMENT });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const result = await validate(response.body);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(response.json().openapi).toBe('3.1.0');
    expect(response.body).not.toContain('"nullable"');
  });

  it('is the committed openapi/v1.json (golden file: UPDATE_GOLDEN=1 rewrites it)', async () => {
    const served = `${(await demo().app.inject({ url: DOCUMENT })).body}\n`;
    if (process.env.UPDATE_GOLDEN === '1') await writeFile(GOLDEN, served);
    expect(served).toBe(await readFile(GOLDEN, 'utf8'));
  });

  it('answers with an ETag, and 304 with no body to a request that presents it', async () => {
    const first = await demo().app.inject({ url: DOCUMENT });
    expect(first.headers.etag).toMatch(/^"[\w-]{27}"$/);
    const again = await demo().app.inject({ url: DOCUMENT, headers: { 'if-none-match': first.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await demo().app.inject({ url: DOCUMENT, headers: { 'if-none-match': '"other"' } })).statusCode).toBe(200);
  });

  it('is public by default (no credentials), and draws only routes that exist, with readable operationIds', async () => {
    const document = (await demo().app.inject({ url: DOCUMENT })).json();
    const ids = Object.values<Record<string, { operationId: string }>>(document.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    expect(ids).toEqual(expect.arrayContaining(['listBlogPosts', 'showBlogPost', 'createBlogPost', 'updateBlogPost', 'replaceBlogPost', 'deleteBlogPost', 'listProductCategories', 'checkReadiness']));
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(document.paths).every((path) => path.startsWith('/api/'))).toBe(true);
    expect(Object.keys(document.paths).some((path) => path.endsWith('/{id}/comments'))).toBe(false);
    const create = document.paths['/api/resources/v1/blog_posts'].post;
    expect(create.requestBody.content['application/json'].schema).toEqual({ type: 'object', properties: { blog_post: { $ref: '#/components/schemas/BlogPostCreate' } }, required: ['blog_post'] });
    // 409 (an Idempotency-Key still running) and 429 (the rate limit): the issue "Safe clients".
    expect(Object.keys(create.responses)).toEqual(['201', '302', '400', '401', '409', '413', '415', '422', '429', '503']);
    expect(create.security).toEqual([{ apiKey: [] }, { session: [] }]);
    expect(document.paths['/api/health'].get.security).toEqual([]);
    expect(document.components.schemas.BlogPostCreate.properties.author_id).toEqual({ type: ['integer', 'null'], format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
    expect(document.components.schemas.BlogPostCreate.properties.published_on.format).toBe('date');
  });

  it('serves the interactive reference at /api/resources/v1/docs, an HTML page that loads the document', async () => {
    const redirect = await demo().app.inject({ url: '/api/resources/v1/docs' });
    const page = redirect.statusCode === 200 ? redirect : await demo().app.inject({ url: redirect.headers.location as string });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain(DOCUMENT);
    // The reference is made at its first request and its own files are served through the mount.
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    const pageUrl = redirect.statusCode === 200 ? '/api/resources/v1/docs' : (redirect.headers.location as string);
    const asset = await demo().app.inject({ url: new URL(script!, `http://localhost${pageUrl}`).pathname });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
  });

  it('fails a test whose response the document does not describe: an undocumented status, or a body of another shape', async () => {
    const document = (await demo().app.inject({ url: DOCUMENT })).json();
    const check = openApiResponseChecker(document);
    const shown = await demo().app.inject({ url: '/api/resources/v1/blog_posts/1', headers: ADMIN });
    expect(check({ method: 'GET', url: '/api/resources/v1/blog_posts/1', statusCode: 200, headers: shown.headers, body: shown.body })).toEqual([]);
    expect(check({ method: 'GET', url: '/api/resources/v1/blog_posts/1', statusCode: 418, headers: {}, body: '{}' })![0]).toMatch(/answered 418, which the document does not list/);
    // With the answer's own headers: a 200 without its required ETag and RateLimit headers is a problem of its own.
    expect(check({ method: 'GET', url: '/api/resources/v1/blog_posts/1', statusCode: 200, headers: shown.headers, body: '{"record":{"id":"one"}}' })![0]).toMatch(/does not match the documented schema/);
    expect(check({ method: 'GET', url: '/api/health/ready', statusCode: 503, headers: {}, body: '{"error":"Service Unavailable"}' })![0]).toMatch(/lacks the documented header Retry-After/);
    expect(check({ method: 'GET', url: '/panel/sign_in', statusCode: 200, headers: {}, body: '<html>' })).toBeUndefined();
  });

  it('documents Panel-Total-Count on index answers as optional: absent under the default exact count, "estimate" or "cached" under an opt-in', async () => {
    const document = (await demo().app.inject({ url: DOCUMENT })).json();
    const listed = document.paths['/api/resources/v1/blog_posts'].get.responses['200'].headers['Panel-Total-Count'];
    expect(listed).toEqual({ $ref: '#/components/headers/PanelTotalCount' });
    expect(document.components.headers.PanelTotalCount.schema).toEqual({ type: 'string', enum: ['estimate', 'cached'] });
    expect(document.components.headers.PanelTotalCount.required).toBeUndefined();
    const index = await demo().app.inject({ url: '/api/resources/v1/blog_posts', headers: ADMIN });
    expect(index.headers['panel-total-count']).toBeUndefined();
    expect(openApiResponseChecker(document)({ method: 'GET', url: '/api/resources/v1/blog_posts', statusCode: 200, headers: index.headers, body: index.body })).toEqual([]);
  });
});

describeOnEachDatabase(
  'the OpenAPI document, Edition A with a custom route declared with a schema',
  (demo) => {
    it('documents the custom route (nullable turned into a type list), and a response it does not describe fails the test that got it', async () => {
      const document = (await demo().app.inject({ url: DOCUMENT })).json();
      expect(document.paths['/api/stats'].get.responses['200'].content['application/json'].schema.properties.latest).toEqual({ type: ['string', 'null'] });
      expect((await validate(JSON.stringify(document))).valid).toBe(true);
      expect((await demo().app.inject({ url: '/api/stats' })).statusCode).toBe(200);
      await expect(demo().app.inject({ url: '/api/stats?teapot=1' })).rejects.toThrow(/GET \/api\/stats answered 418, which the document does not list/);
    });
  },
  {
    api: {
      routes: (api) => {
        api.get('/stats', { schema: { operationId: 'showStats', response: { 200: { type: 'object', properties: { latest: { type: 'string', nullable: true } } } } } }, async (request) => {
          // A status the schema does not list: the error handler keeps a 4xx error's status.
          if ((request.query as { teapot?: string }).teapot) throw Object.assign(new Error('teapot'), { statusCode: 418 });
          return { latest: null };
        });
      },
    },
  },
);

describeOnEachDatabase(
  'the OpenAPI document, Edition B',
  (demo) => {
    it('validates, declares the bearer scheme itself, and documents every resource with its related routes and 403', async () => {
      const response = await demo().app.inject({ url: DOCUMENT });
      expect((await validate(response.body)).errors).toEqual([]);
      const document = response.json();
      expect(document.components.securitySchemes.panelApiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
      const related = document.paths['/api/resources/v1/blog_posts/{id}/comments'].get;
      expect(related.operationId).toBe('listBlogPostComments');
      expect(Object.keys(related.responses)).toContain('403');
      expect(document.paths['/api/resources/v1/product_categories'].get.security).toEqual([]);
    });
  },
  { edition: 'B' },
);
