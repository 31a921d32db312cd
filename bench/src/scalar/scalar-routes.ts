/**
 * The equal-work endpoints written by hand (`/api/resources/v1/bench_posts`): the same columns
 * as the API's scalar resource (`app/scalar/resources/bench-post.ts`), on the same table, with
 * Fastify's response schema, in two versions:
 *
 * - the **hand-written route**, what a developer writes first: Kysely for the statement, the
 *   page and its count in parallel, the key checked by the app's `preHandler` hook;
 * - the **limit**: the same statements as text on `pg`, the key checked in the handler, nothing else.
 *
 * Both send their statements with parameters named (prepared), as the API does on a direct
 * connection (`baseline/named-statements-client.ts`).
 */
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { BaselineTables } from '../baseline/baseline-database.js';
import { paginationJson } from '../baseline/blog-post-json.js';
import type { BenchUser } from '../auth/bench-keys.js';

/** The equal-work resource's path. */
export const SCALAR_PATH = '/api/resources/v1/bench_posts';
const PER_PAGE = 24;
const COLUMNS = ['id', 'title', 'published', 'published_on', 'view_count', 'rating', 'created_at'] as const;

const nullable = (type: string) => ({ type: [type, 'null'] });
const RECORD = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    published: { type: 'boolean' },
    published_on: nullable('string'),
    view_count: { type: 'integer' },
    rating: nullable('number'),
    created_at: { type: 'string', format: 'date-time' },
  },
} as const;
const PAGINATION = {
  type: 'object',
  properties: { page: { type: 'integer' }, per_page: { type: 'integer' }, total_pages: { type: 'integer' }, total_count: { type: 'integer' }, has_next_page: { type: 'boolean' }, has_prev_page: { type: 'boolean' } },
} as const;
const SHOW_SCHEMA: FastifySchema = { response: { 200: { type: 'object', properties: { record: RECORD } } } };
const INDEX_SCHEMA: FastifySchema = { response: { 200: { type: 'object', properties: { records: { type: 'array', items: RECORD }, pagination: PAGINATION } } } };

const recordId = (raw: string): number | undefined => (/^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : undefined);
const pageOf = (raw: unknown): number | undefined => (raw === undefined ? 1 : typeof raw === 'string' && /^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : undefined);

/** The hand-written route: Kysely, the page and its count in parallel, Fastify's response schema (the key is checked by the app's hook). */
export function registerScalarRoutes(app: FastifyInstance, db: Kysely<BaselineTables>): void {
  app.get(`${SCALAR_PATH}/:id`, { schema: SHOW_SCHEMA }, async (request, reply) => {
    const id = recordId((request.params as { id: string }).id);
    const record = id === undefined ? undefined : await db.selectFrom('blog_posts').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    if (!record) return reply.code(404).send({ error: 'Not Found' });
    return { record };
  });
  app.get(SCALAR_PATH, { schema: INDEX_SCHEMA }, async (request, reply) => {
    const page = pageOf((request.query as { page?: unknown }).page);
    if (page === undefined) return reply.code(400).send({ error: 'page must be a positive integer' });
    const [records, count] = await Promise.all([
      db.selectFrom('blog_posts').select(COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(PER_PAGE).offset((page - 1) * PER_PAGE).execute(),
      db.selectFrom('blog_posts').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
    ]);
    return { records, pagination: paginationJson(page, PER_PAGE, Number(count.count)) };
  });
}

const SHOW_SQL = `select ${COLUMNS.join(', ')} from blog_posts where id = $1`;
const PAGE_SQL = `select ${COLUMNS.join(', ')} from blog_posts order by created_at desc, id desc limit ${PER_PAGE} offset $1`;
const COUNT_SQL = 'select count(*)::int as count from blog_posts';

/** The limit: the same statements as text on `pg`, the key checked in the handler. */
export function registerScalarLimitRoutes(app: FastifyInstance, pool: pg.Pool, userOf: (authorization: string | undefined) => BenchUser | undefined): void {
  app.get(`${SCALAR_PATH}/:id`, { schema: SHOW_SCHEMA }, async (request, reply) => {
    if (!userOf(request.headers.authorization)) return reply.code(401).send({ error: 'Unauthorized' });
    const id = recordId((request.params as { id: string }).id);
    const record = id === undefined ? undefined : (await pool.query(SHOW_SQL, [id])).rows[0];
    if (!record) return reply.code(404).send({ error: 'Not Found' });
    return { record };
  });
  app.get(SCALAR_PATH, { schema: INDEX_SCHEMA }, async (request, reply) => {
    if (!userOf(request.headers.authorization)) return reply.code(401).send({ error: 'Unauthorized' });
    const page = pageOf((request.query as { page?: unknown }).page);
    if (page === undefined) return reply.code(400).send({ error: 'page must be a positive integer' });
    const [{ rows }, count] = await Promise.all([pool.query(PAGE_SQL, [(page - 1) * PER_PAGE]), pool.query(COUNT_SQL)]);
    return { records: rows, pagination: paginationJson(page, PER_PAGE, count.rows[0].count as number) };
  });
}
