import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { BaselineTables } from './baseline-database.js';
import { SORTABLE, deletePost, findPost, insertPost, listPosts, loadExtras, updatePost, userExists, type FullPostRow, type PostFilters } from './blog-post-queries.js';
import { apiKeyOf, keyDigest, type BenchUser } from '../auth/bench-keys.js';
import { indexJson, paginationJson, showJson } from './blog-post-json.js';
import { parsePostInput } from './blog-post-input.js';
import { registerScalarRoutes } from '../scalar/scalar-routes.js';
import { keyedWrite } from './keyed-writes.js';

declare module 'fastify' {
  interface FastifyRequest {
    benchUser?: BenchUser;
  }
}

const PATH = '/api/resources/v1/blog_posts';
const PER_PAGE = 24;
const MAX_PER_PAGE = 100;

function positiveInteger(raw: unknown, fallback: number): number | undefined {
  if (raw === undefined) return fallback;
  return typeof raw === 'string' && /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 1_000_000_000 ? Number(raw) : undefined;
}

/** The bench's filters, parsed by hand as a developer would for these endpoints; undefined when one is malformed. */
function postFilters(query: Record<string, unknown>): PostFilters | undefined {
  const published = query['filter[published]'];
  const author = query['filter[author_id]'];
  const from = query['filter[published_on][gte]'];
  const q = query.q;
  if (published !== undefined && published !== 'true' && published !== 'false') return undefined;
  if (author !== undefined && (typeof author !== 'string' || !/^[1-9]\d{0,9}$/.test(author))) return undefined;
  if (from !== undefined && (typeof from !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(from))) return undefined;
  if (q !== undefined && (typeof q !== 'string' || q.length > 200)) return undefined;
  return {
    ...(published === undefined ? {} : { published: published === 'true' }),
    ...(author === undefined ? {} : { authorId: Number(author) }),
    ...(from === undefined ? {} : { publishedOnFrom: from as string }),
    ...(q === undefined ? {} : { words: (q as string).split(/\s+/).filter(Boolean) }),
  };
}

const recordId = (raw: string): number | undefined => (/^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : undefined);

/** The post a PATCH or DELETE names, locked under `If-Match: *`; undefined when there is none the user may see. */
function namedPost(db: Kysely<BaselineTables>, request: FastifyRequest, lock: boolean): Promise<FullPostRow | undefined> {
  const id = recordId((request.params as { id: string }).id);
  return id === undefined ? Promise.resolve(undefined) : findPost(db, request.benchUser!, id, lock);
}

async function showBody(db: Kysely<BaselineTables>, row: FullPostRow, user: BenchUser) {
  return { record: showJson(row, await loadExtras(db, [row]), user) };
}

/**
 * The baseline: the blog posts endpoints written by hand with Fastify and Kysely, answering
 * the same requests as the demo's API with the same JSON. This is what a good developer
 * writes first: the API key looked up among the keys read at start (as the bench's API
 * controllers do), the page and its count in parallel, then the authors, comment counts and
 * files of the page in parallel.
 */
export function baselineApp(db: Kysely<BaselineTables>, keys: ReadonlyMap<string, BenchUser>): FastifyInstance {
  const app = Fastify({ logger: false });

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const key = apiKeyOf(request.headers.authorization);
    const user = key === undefined ? undefined : keys.get(keyDigest(key));
    if (!user) return reply.code(401).send({ error: 'Unauthorized' });
    request.benchUser = user;
  });

  app.get(PATH, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const page = positiveInteger(query.page, 1);
    const perPage = positiveInteger(query.per_page, PER_PAGE);
    const sortBy = query.sort_by ?? 'created_at';
    const direction = query.sort_direction ?? (query.sort_by === undefined ? 'desc' : 'asc');
    if (page === undefined || perPage === undefined) return reply.code(400).send({ error: 'page and per_page must be positive integers' });
    // A reader may not sort by view_count: its visible rule hides it on other authors' posts.
    const sortable = sortBy === 'created_at' || (SORTABLE.has(sortBy as string) && (sortBy !== 'view_count' || request.benchUser!.admin));
    if (!sortable || (direction !== 'asc' && direction !== 'desc')) {
      return reply.code(400).send({ error: 'bad sort' });
    }
    const filters = postFilters(query);
    if (filters === undefined) return reply.code(400).send({ error: 'bad filter' });
    const { rows, total, extras } = await listPosts(db, {
      filters,
      user: request.benchUser!,
      page,
      perPage: Math.min(perPage, MAX_PER_PAGE),
      sortBy: sortBy as string,
      direction,
    });
    return { records: rows.map((row) => indexJson(row, extras, request.benchUser!)), pagination: paginationJson(page, Math.min(perPage, MAX_PER_PAGE), total) };
  });

  app.get(`${PATH}/:id`, async (request, reply) => {
    const id = recordId((request.params as { id: string }).id);
    const row = id === undefined ? undefined : await findPost(db, request.benchUser!, id);
    if (!row) return reply.code(404).send({ error: 'Not Found' });
    return showBody(db, row, request.benchUser!);
  });

  // With `Idempotency-Key` (and `If-Match: *`), each write runs as a careful developer makes it safe to retry: keyed-writes.ts.
  app.post(PATH, (request, reply) =>
    keyedWrite(db, request, reply, async (db) => {
      const attributes = (request.body as { blog_post?: Record<string, unknown> } | undefined)?.blog_post;
      if (typeof attributes !== 'object' || attributes === null) return { status: 400, body: { error: 'blog_post is missing' } };
      // view_count's visible rule (admins and the post's author) hides it from a non-admin's new post, so its value is ignored.
      const { view_count, ...others } = attributes;
      const { values, errors } = parsePostInput(request.benchUser!.admin ? attributes : others, true);
      if (values.published === true && !values.published_on) errors.published_on = [...(errors.published_on ?? []), "can't be blank when the post is published"];
      if (typeof values.author_id === 'number' && !(await userExists(db, values.author_id))) errors.author = [...(errors.author ?? []), 'must exist'];
      if (Object.keys(errors).length > 0) return { status: 422, body: { errors, message: 'Failed to create Blog post' } };
      return { status: 201, body: await showBody(db, await insertPost(db, values), request.benchUser!) };
    }),
  );

  app.patch(`${PATH}/:id`, (request, reply) =>
    keyedWrite(db, request, reply, async (db, lockRecord) => {
      const user = request.benchUser!;
      const existing = await namedPost(db, request, lockRecord);
      if (!existing) return { status: 404, body: { error: 'Not Found' } };
      if (!user.admin && existing.author_id !== user.id) return { status: 403, body: { error: 'Forbidden' } };
      const attributes = (request.body as { blog_post?: Record<string, unknown> } | undefined)?.blog_post;
      if (typeof attributes !== 'object' || attributes === null) return { status: 400, body: { error: 'blog_post is missing' } };
      const { values, errors } = parsePostInput(attributes, false);
      const merged = { ...existing, ...values };
      if (merged.published === true && !merged.published_on) errors.published_on = [...(errors.published_on ?? []), "can't be blank when the post is published"];
      if (typeof values.author_id === 'number' && !(await userExists(db, values.author_id))) errors.author = [...(errors.author ?? []), 'must exist'];
      if (Object.keys(errors).length > 0) return { status: 422, body: { errors, message: 'Failed to update Blog post' } };
      const row = Object.keys(values).length === 0 ? existing : await updatePost(db, existing.id, values);
      return { status: 200, body: await showBody(db, row, user) };
    }),
  );

  app.delete(`${PATH}/:id`, (request, reply) =>
    keyedWrite(db, request, reply, async (db, lockRecord) => {
      const user = request.benchUser!;
      const existing = await namedPost(db, request, lockRecord);
      if (!existing) return { status: 404, body: { error: 'Not Found' } };
      if (!user.admin) return { status: 403, body: { error: 'Forbidden' } };
      await deletePost(db, existing.id);
      return { status: 200, body: { message: 'Blog post successfully deleted' } };
    }),
  );

  registerScalarRoutes(app, db);
  return app;
}
