// Issue 42, item 14: "a document per actor: `GET …/openapi.json` with credentials answers the
// document as that actor sees it (fields, grants, statuses), so a token's generated client is
// exact; the anonymous document stays as today."
import { expect, it } from 'vitest';
import { validate } from '@scalar/openapi-parser';
import { countQueries } from '@panel/test-support';
import type { FastifyInstance } from 'fastify';
import { ADMIN, READER, describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';
const DOCUMENT = `${V1}/openapi.json`;

type Schema = { properties: Record<string, { description?: string }>; required?: string[] };
type Document = { paths: Record<string, Record<string, { operationId: string; parameters?: { name: string; schema: { items?: { enum?: string[] }; enum?: string[] } }[] }>>; components: { schemas: Record<string, Schema> } };

/** The document asked with a credential the API refuses answers exactly the API's 401: the same body and `WWW-Authenticate`. */
async function expectTheApisRefusal(app: FastifyInstance, bad: Record<string, string>): Promise<void> {
  const document = await app.inject({ url: DOCUMENT, headers: bad });
  const api = await app.inject({ url: `${V1}/blog_posts`, headers: bad });
  expect(api.statusCode).toBe(401);
  expect(document.statusCode).toBe(401);
  expect(document.json()).toEqual(api.json());
  expect(document.headers['www-authenticate']).toBe(api.headers['www-authenticate']);
}

const operationIds = (document: Document) => Object.values(document.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId)).sort();
const sortable = (document: Document, path: string) => {
  const sortBy = document.paths[path]!.get!.parameters!.find((parameter) => parameter.name === 'sort_by')!;
  return sortBy.schema.enum ?? sortBy.schema.items?.enum ?? [];
};

/** A one-file multipart upload to `POST /api/uploads`, as a credential sends it. */
const UPLOAD_BOUNDARY = 'panel-openapi-upload';
const uploadRequest = (headers: Record<string, string>) => ({
  method: 'POST' as const,
  url: '/api/uploads',
  headers: { ...headers, 'content-type': `multipart/form-data; boundary=${UPLOAD_BOUNDARY}` },
  payload: Buffer.from(`--${UPLOAD_BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${UPLOAD_BOUNDARY}--\r\n`),
});
const listsUpload = (document: Document) => document.paths['/api/uploads']?.post !== undefined;

/**
 * Each `include_fields[<path>]` and `include_sort_by[<path>]` enum of a list operation, beside
 * what the server names as accepted when it refuses a name (its 400 lists them).
 */
async function includeEnumsAndServer(app: FastifyInstance, document: Document, path: string, headers: Record<string, string>) {
  const parameters = document.paths[path]!.get!.parameters!;
  const compared: { parameter: string; documented: string[]; accepted: string[] }[] = [];
  for (const parameter of parameters) {
    const match = /^include_(fields|sort_by)\[(.+)\]$/.exec(parameter.name);
    if (!match) continue;
    const documented = [...(parameter.schema.items?.enum ?? parameter.schema.enum ?? [])].sort();
    const answer = await app.inject({ url: `${path}?include=${match[2]}&${encodeURIComponent(parameter.name)}=not_a_field`, headers });
    expect(answer.statusCode, answer.body).toBe(400);
    const message = answer.body;
    const listed = match[1] === 'fields' ? /\(fields: ([^)]*)\)/.exec(message)?.[1] : /must be one of ([^"]*?), instead got/.exec(message)?.[1];
    expect(listed, message).toBeDefined();
    compared.push({ parameter: parameter.name, documented, accepted: listed!.split(', ').filter((name) => name !== '').sort() });
  }
  return compared;
}

describeOnEachDatabase('the OpenAPI document as one actor sees it, Edition A (API keys, field rules)', (demo) => {
  const documentFor = async (headers: Record<string, string> = {}) => {
    const response = await demo().app.inject({ url: DOCUMENT, headers });
    expect(response.statusCode).toBe(200);
    return { response, document: response.json() as Document };
  };

  it('anonymous: the one document, for every actor; with a credential: its own, private to it', async () => {
    const anonymous = await documentFor();
    expect(anonymous.response.headers['cache-control']).toBe('no-cache');
    const admin = await documentFor(ADMIN);
    expect(admin.response.headers['cache-control']).toBe('private, no-cache');
    expect(admin.response.headers.vary).toMatch(/Authorization/);
    expect(anonymous.response.headers.vary).toMatch(/Authorization/);
    expect(admin.response.headers.etag).not.toBe(anonymous.response.headers.etag);
    // Its own ETag answers 304 to the same actor.
    const again = await demo().app.inject({ url: DOCUMENT, headers: { ...ADMIN, 'if-none-match': admin.response.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    const result = await validate(admin.response.body);
    expect(result.errors).toEqual([]);
  });

  it('"fields": a field a `visible` rule hides from the actor is not in its records; one it always reads is required', async () => {
    const anonymous = (await documentFor()).document.components.schemas;
    const reader = (await documentFor(READER)).document.components.schemas;
    const admin = (await documentFor(ADMIN)).document.components.schemas;
    // users.created_at is `visible: adminsOnly`.
    expect(anonymous.User_show!.properties.created_at).toBeDefined();
    expect(anonymous.User_show!.required).not.toContain('created_at');
    expect(reader.User_show!.properties.created_at).toBeUndefined();
    expect(admin.User_show!.properties.created_at).toBeDefined();
    expect(admin.User_show!.required).toContain('created_at');
    // A post's view_count is shown to admins and the post's author: for a reader it may be omitted, for an admin it is always there.
    expect(reader.BlogPost_show!.required).not.toContain('view_count');
    expect(reader.BlogPost_show!.properties.view_count!.description).toMatch(/May be omitted/);
    expect(admin.BlogPost_show!.required).toContain('view_count');
  });

  it('the document\'s record schema is the record the actor reads: the same keys', async () => {
    const reader = (await documentFor(READER)).document.components.schemas;
    const record = (await demo().app.inject({ url: `${V1}/users/2`, headers: READER })).json().record as Record<string, unknown>;
    expect(Object.keys(record).sort()).toEqual(Object.keys(reader.User_show!.properties).sort());
    expect(reader.User_show!.required!.every((name) => name in record)).toBe(true);
  });

  it('"fields": a write body lists what the actor may write, no key the API would refuse or ignore', async () => {
    const reader = (await documentFor(READER)).document.components.schemas;
    const admin = (await documentFor(ADMIN)).document.components.schemas;
    const anonymous = (await documentFor()).document.components.schemas;
    // email and admin are `readonly: unlessAdmin`; password is `confirm: true`: no API key writes it.
    expect(Object.keys(anonymous.UserCreate!.properties)).toEqual(expect.arrayContaining(['email', 'admin', 'password']));
    expect(Object.keys(admin.UserCreate!.properties)).toEqual(expect.arrayContaining(['name', 'email', 'admin']));
    expect(admin.UserCreate!.properties.password).toBeUndefined();
    expect(Object.keys(reader.UserUpdate!.properties)).toEqual(['name']);
    // A post's author is readonly unless admin.
    expect(reader.BlogPostUpdate!.properties.author_id).toBeUndefined();
    expect(admin.BlogPostUpdate!.properties.author_id).toBeDefined();
    // What the reader's document offers, the API takes: the write is not refused, the value is kept.
    const written = await demo().app.inject({ method: 'PATCH', url: `${V1}/users/2`, headers: { ...READER, 'content-type': 'application/json' }, payload: { user: { name: 'Grace H.' } } });
    expect(written.statusCode).toBe(200);
    expect(written.json().record.name).toBe('Grace H.');
  });

  it('the panel session is a credential too: the signed-in person\'s document, where her own password is writable (a person, not a key)', async () => {
    const signIn = await demo().app.inject({ method: 'POST', url: '/panel/login', remoteAddress: '10.0.0.7', payload: new URLSearchParams({ email: 'rita@example.com', password: 'demo-password' }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const session = signIn.cookies.find((cookie) => cookie.name === 'panel_session');
    expect(session?.value).toBeTruthy();
    const { response, document } = await documentFor({ cookie: `panel_session=${session!.value}` });
    expect(response.headers['cache-control']).toBe('private, no-cache');
    const schemas = document.components.schemas;
    expect(schemas.User_show!.properties.created_at).toBeUndefined();
    // `password` is `confirm: true` and `readonly` unless one's own account: a person may write it (on her own record), an API key never.
    expect(schemas.UserUpdate!.properties.password).toBeDefined();
    expect((await documentFor(READER)).document.components.schemas.UserUpdate!.properties.password).toBeUndefined();
  });

  it('sort_by offers only the fields the actor reads on every record', async () => {
    const reader = (await documentFor(READER)).document;
    const admin = (await documentFor(ADMIN)).document;
    expect(sortable(admin, `${V1}/blog_posts`)).toContain('view_count');
    expect(sortable(reader, `${V1}/blog_posts`)).not.toContain('view_count');
    expect(sortable(reader, `${V1}/blog_posts`)).toContain('title');
  });

  it('"statuses": an operation the policy refuses the actor whatever the record is not in its document; one that depends on the record is', async () => {
    const reader = operationIds((await documentFor(READER)).document);
    const admin = operationIds((await documentFor(ADMIN)).document);
    // UserPolicy: create and destroy by admins; update by an admin or the user themself (it reads the record).
    expect(admin).toEqual(expect.arrayContaining(['createUser', 'deleteUser', 'updateUser', 'listUsers']));
    expect(reader).toEqual(expect.arrayContaining(['updateUser', 'listUsers', 'showUser']));
    expect(reader).not.toContain('createUser');
    expect(reader).not.toContain('deleteUser');
    // What the document leaves out, the API refuses.
    const refused = await demo().app.inject({ method: 'DELETE', url: `${V1}/users/2`, headers: READER });
    expect(refused.statusCode).toBe(302);
  });

  it('asks each controller\'s authentication once, not once per route: its statements do not grow with the routes', async () => {
    const { result, statements } = await countQueries(demo().database, () => demo().app.inject({ url: DOCUMENT, headers: ADMIN }));
    expect(result.statusCode).toBe(200);
    const routes = Object.values((result.json() as Document).paths).flatMap((item) => Object.keys(item)).length;
    const controllers = new Set(Object.keys((result.json() as Document).paths).map((path) => path.split('/')[4])).size;
    // The demo's setupAuthentication reads the key's user: one statement per controller that authenticates.
    expect(statements.length).toBeLessThanOrEqual(controllers);
    expect(routes).toBeGreaterThan(3 * controllers);
  });

  it('"The upload route is in every version\'s OpenAPI document": an actor who may write a file field sees `POST /api/uploads`, and the server takes its upload', async () => {
    for (const headers of [ADMIN, READER]) {
      const { document } = await documentFor(headers);
      const answer = await demo().app.inject(uploadRequest(headers));
      expect(answer.statusCode === 201, answer.body).toBe(listsUpload(document));
    }
    expect(listsUpload((await documentFor(ADMIN)).document)).toBe(true);
  });

  it('"`sort_by`, `filter[...]`, `fields`, `include`: the fields this actor may use": each `include_fields[…]` and `include_sort_by[…]` enum is exactly what the server accepts from this actor', async () => {
    for (const headers of [READER, ADMIN]) {
      const { document } = await documentFor(headers);
      const compared = await includeEnumsAndServer(demo().app, document, `${V1}/blog_posts`, headers);
      expect(compared.map((entry) => entry.parameter)).toEqual(expect.arrayContaining(['include_fields[author]', 'include_sort_by[author.blog_posts]']));
      for (const entry of compared) expect(entry.documented, entry.parameter).toEqual(entry.accepted);
    }
  });

  it('a credential the API refuses answers the API\'s 401, not a document', async () => {
    await expectTheApisRefusal(demo().app, { authorization: 'ApiKey not-a-key' });
  });
});

describeOnEachDatabase(
  'the OpenAPI document as one actor sees it, Edition B (a token\'s grants)',
  (demo) => {
    const bearer = (name: string) => ({ authorization: `Bearer ${demo().tokenSecrets!.get(name)!}` });
    const documentFor = async (headers: Record<string, string>) => {
      const response = await demo().app.inject({ url: DOCUMENT, headers });
      expect(response.statusCode).toBe(200);
      return response.json() as Document;
    };

    it('"grants": a token\'s document has the operations its grants allow, and no other', async () => {
      // reader: blog_posts and comments, index and show.
      // The product categories' controller is public on purpose (`PublicResourcesController`): every document has them.
      const gated = (ids: string[]) => ids.filter((id) => !id.includes('ProductCategor'));
      const reader = gated(operationIds(await documentFor(bearer('reader'))));
      expect(reader).toEqual(expect.arrayContaining(['listBlogPosts', 'showBlogPost', 'listComments', 'showComment', 'listBlogPostComments']));
      expect(reader.filter((id) => /^(create|update|replace|delete|batch)/.test(id))).toEqual([]);
      expect(reader.some((id) => /Users?$|Product/.test(id))).toBe(false);
      // writer: blog_posts index, show, create, update; no delete, nothing of comments.
      const writer = gated(operationIds(await documentFor(bearer('writer'))));
      expect(writer).toEqual(expect.arrayContaining(['listBlogPosts', 'showBlogPost', 'createBlogPost', 'updateBlogPost']));
      expect(writer).not.toContain('deleteBlogPost');
      expect(writer.some((id) => id.includes('Comment'))).toBe(false);
      // no grant: nothing but the health checks and the public product categories.
      const none = operationIds(await documentFor(bearer('nogrants')));
      expect(none).toContain('listProductCategories');
      expect(gated(none).filter((id) => !id.startsWith('check'))).toEqual([]);
    });

    it('"fields": an association whose target the token may not read is not in its records', async () => {
      const writer = (await documentFor(bearer('writer'))).components.schemas;
      const reader = (await documentFor(bearer('reader'))).components.schemas;
      // The writer reads no users and no comments: the post's author and comments keys are left out, as the API leaves them out.
      expect(writer.BlogPost_show!.properties.author).toBeUndefined();
      expect(writer.BlogPost_show!.properties.comments).toBeUndefined();
      expect(reader.BlogPost_show!.properties.comments).toBeDefined();
      const record = (await demo().app.inject({ url: `${V1}/blog_posts/6`, headers: bearer('writer') })).json().record as Record<string, unknown>;
      expect(Object.keys(record).sort()).toEqual(Object.keys(writer.BlogPost_show!.properties).sort());
    });

    it('"The upload route is in every version\'s OpenAPI document" for a token that may write a file field; a token that may write none gets 403 from the server and no upload route', async () => {
      for (const name of ['all', 'writer', 'reader', 'nogrants']) {
        const document = await documentFor(bearer(name));
        const answer = await demo().app.inject(uploadRequest(bearer(name)));
        expect([201, 403]).toContain(answer.statusCode);
        expect(listsUpload(document), name).toBe(answer.statusCode === 201);
      }
      expect(listsUpload(await documentFor(bearer('writer')))).toBe(true);
      expect(listsUpload(await documentFor(bearer('reader')))).toBe(false);
    });

    it('"`include`: the fields this actor may use": a token\'s `include_fields[…]` and `include_sort_by[…]` enums are exactly what the server accepts from it', async () => {
      for (const name of ['reader', 'all']) {
        const document = await documentFor(bearer(name));
        const compared = await includeEnumsAndServer(demo().app, document, `${V1}/blog_posts`, bearer(name));
        expect(compared.length, name).toBeGreaterThan(0);
        for (const entry of compared) expect(entry.documented, `${name} ${entry.parameter}`).toEqual(entry.accepted);
      }
    });

    it('"every included record serialized by the target\'s own serializer for this actor": under a gated parent, a public target\'s include enums are what its show has for the token (no gated association), as the server accepts them', async () => {
      const document = await documentFor(bearer('all'));
      const compared = await includeEnumsAndServer(demo().app, document, `${V1}/products`, bearer('all'));
      const fields = compared.find((entry) => entry.parameter === 'include_fields[product_category]');
      expect(fields?.documented).toEqual(['id', 'name']);
      for (const entry of compared) expect(entry.documented, entry.parameter).toEqual(entry.accepted);
      const include = document.paths[`${V1}/products`]!.get!.parameters!.find((parameter) => parameter.name === 'include')!;
      expect(include.schema.items?.enum).not.toContain('product_category.products');
      expect((await demo().app.inject({ url: `${V1}/products?include=product_category.products`, headers: bearer('all') })).statusCode).toBe(400);
    });

    it('a token the API refuses answers the API\'s 401', async () => {
      await expectTheApisRefusal(demo().app, { authorization: 'Bearer pnl_not-a-token' });
    });
  },
  { edition: 'B' },
);
