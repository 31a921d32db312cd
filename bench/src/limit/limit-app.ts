/**
 * The limit: the least work that answers the blog posts' endpoints with the same bytes as the
 * API (reads) and the same status and shape (writes), against which the API's overhead is
 * measured. Fastify, `pg` without a query builder, its statements named (prepared) as the API's are, the API key looked up in memory like the
 * other servers, one hand-written statement for show (the record with its author's name, counts
 * and files, by primary key) and two for index (the page through a deferred join, and the
 * count, in parallel), serialized by Fastify's compiled serializers. The writes the mix sends
 * (`limit-writes.ts`) send the API's statements. No validation beyond a body schema and what
 * keeps the statements safe, the reader's scope and the demo's field rules written out (a
 * post's `view_count` for admins and its author, an author's name for admins and oneself), no
 * hooks: what a request cannot do with less.
 */
import Fastify, { type FastifyInstance, type FastifySchema } from 'fastify';
import pg from 'pg';
import { apiKeyOf, keyDigest, loadBenchKeys, type BenchUser } from '../auth/bench-keys.js';
import { openBaselineDatabase } from '../baseline/baseline-database.js';
import { NamedStatementsClient } from '../baseline/named-statements-client.js';
import type { TimedStatement } from '../census/round-trips.js';
import type { BenchServer, ServerSettings } from '../servers/server-types.js';
import { registerScalarLimitRoutes } from '../scalar/scalar-routes.js';
import { registerLimitWrites } from './limit-writes.js';
import { associationsSql } from './limit-sql.js';

const PATH = '/api/resources/v1/blog_posts';
const PER_PAGE = 24;

/** A stored file as the statements build it. */
interface Blob {
  key: string;
  filename: string;
  content_type: string;
  byte_size: number;
}

const fileJson = (blob: Blob | null) =>
  blob === null ? null : { filename: blob.filename, content_type: blob.content_type, byte_size: blob.byte_size, url: `/panel/attachments/${blob.key}/${encodeURIComponent(blob.filename)}` };

/** The association columns of both statements, for the row aliased `r`. */
const ASSOCIATIONS = associationsSql('$2', '$3');

/** `$2` is true for an admin (every post), otherwise the reader sees published posts and the posts of user `$3`. */
const VISIBLE = `($2::boolean or r.published or r.author_id = $3)`;

const SHOW_SQL = `select r.*, ${ASSOCIATIONS} from blog_posts r where r.id = $1 and ${VISIBLE}`;
/** The sortable fields of the index view; `view_count` only for admins (its visible rule). */
const SORTABLE = ['id', 'title', 'published', 'published_on', 'view_count', 'rating'];
const pageSql = (order: string) => `select r.id, r.title, r.published, r.published_on, r.view_count, r.rating, r.author_id, ${ASSOCIATIONS}
  from unnest(array(select r.id from blog_posts r where ${VISIBLE} order by ${order} limit $4 offset $1)) with ordinality as p (id, position)
  join blog_posts r on r.id = p.id order by p.position`;
/** Every page statement, by `sort_by` and `sort_direction` (the default order under the key `'|'`), made once. */
const PAGE_SQL = new Map<string, string>([['|', pageSql('r.created_at desc, r.id desc')]]);
for (const field of SORTABLE) {
  for (const direction of ['asc', 'desc']) PAGE_SQL.set(`${field}|${direction}`, pageSql(field === 'id' ? `r.id ${direction}` : `r.${field} ${direction}, r.id ${direction}`));
}
const COUNT_SQL = `select count(*)::int as count from blog_posts r where ($1::boolean or r.published or r.author_id = $2)`;

const nullable = (type: string) => ({ type: [type, 'null'] });
const FILE = { type: ['object', 'null'], properties: { filename: { type: 'string' }, content_type: { type: 'string' }, byte_size: { type: 'integer' }, url: { type: 'string' } } };
const INDEX_RECORD = {
  id: { type: 'integer' },
  title: { type: 'string' },
  published: { type: 'boolean' },
  published_on: nullable('string'),
  view_count: { type: 'integer' },
  rating: nullable('number'),
  author: { type: ['object', 'null'], properties: { id: { type: 'integer' }, label: nullable('string') } },
  comments: { type: 'object', properties: { count: { type: 'integer' } } },
  tag_list: { type: 'object', properties: { count: { type: 'integer' } } },
  cover: FILE,
  attachments: { type: 'array', items: FILE },
};
const { id, title, published, published_on, view_count, rating, ...associations } = INDEX_RECORD;
const SHOW_RECORD = {
  id,
  title,
  summary: nullable('string'),
  body: nullable('string'),
  published,
  published_on,
  view_count,
  rating,
  ...associations,
  created_at: { type: 'string' },
};
const PAGINATION = {
  type: 'object',
  properties: { page: { type: 'integer' }, per_page: { type: 'integer' }, total_pages: { type: 'integer' }, total_count: { type: 'integer' }, has_next_page: { type: 'boolean' }, has_prev_page: { type: 'boolean' } },
};

type Row = Record<string, any>;

/** Whether the user reads the post's `view_count` (the demo's visible rule: admins and the author). */
export const seesViewCount = (user: BenchUser, row: Row): boolean => user.admin || row.author_id === user.id;

function associationsJson(row: Row) {
  return {
    author: row.author_id === null ? null : { id: row.author_id, label: row.author_name },
    comments: { count: row.comments_count },
    tag_list: { count: row.tags_count },
    cover: fileJson(row.cover),
    attachments: (row.attachments as Blob[]).map(fileJson),
  };
}

/** A post as show and the writes answer it, for that user (the schema's serializer orders and drops keys). */
function showRecord(row: Row, user: BenchUser): Record<string, unknown> {
  return { ...row, view_count: seesViewCount(user, row) ? row.view_count : undefined, ...associationsJson(row), created_at: (row.created_at as Date).toISOString() };
}

/** The limit's Fastify app over a `pg` pool (the same pool settings and type parsers as the baseline). */
export function limitApp(pool: pg.Pool, keys: ReadonlyMap<string, BenchUser>): FastifyInstance {
  const app = Fastify({ logger: false });
  const userOf = (authorization: string | undefined) => {
    const key = apiKeyOf(authorization);
    return key === undefined ? undefined : keys.get(keyDigest(key));
  };

  const showSchema: FastifySchema = { response: { 200: { type: 'object', properties: { record: { type: 'object', properties: SHOW_RECORD } } } } };
  const indexSchema: FastifySchema = { response: { 200: { type: 'object', properties: { records: { type: 'array', items: { type: 'object', properties: INDEX_RECORD } }, pagination: PAGINATION } } } };

  app.get(`${PATH}/:id`, { schema: showSchema }, async (request, reply) => {
    const user = userOf(request.headers.authorization);
    if (!user) return reply.code(401).send({ error: 'Unauthorized' });
    const raw = (request.params as { id: string }).id;
    if (!/^[1-9]\d{0,9}$/.test(raw) || Number(raw) > 2_147_483_647) return reply.code(404).send({ error: 'Not Found' });
    const { rows } = await pool.query(SHOW_SQL, [Number(raw), user.admin, user.id]);
    const row = rows[0];
    if (!row) return reply.code(404).send({ error: 'Not Found' });
    return { record: showRecord(row, user) };
  });

  app.get(PATH, { schema: indexSchema }, async (request, reply) => {
    const user = userOf(request.headers.authorization);
    if (!user) return reply.code(401).send({ error: 'Unauthorized' });
    const query = request.query as { page?: string; sort_by?: string; sort_direction?: string };
    const raw = query.page ?? '1';
    if (!/^[1-9]\d{0,8}$/.test(raw)) return reply.code(400).send({ error: 'page must be a positive integer' });
    const page = Number(raw);
    const pageStatement = PAGE_SQL.get(query.sort_by === undefined ? '|' : `${query.sort_by}|${query.sort_direction ?? 'asc'}`);
    if (pageStatement === undefined || (query.sort_by === 'view_count' && !user.admin)) return reply.code(400).send({ error: 'bad sort' });
    const [{ rows }, count] = await Promise.all([pool.query(pageStatement, [(page - 1) * PER_PAGE, user.admin, user.id, PER_PAGE]), pool.query(COUNT_SQL, [user.admin, user.id])]);
    const total: number = count.rows[0].count;
    const totalPages = Math.max(1, Math.ceil(total / PER_PAGE));
    return {
      records: rows.map((row) => ({ ...row, view_count: seesViewCount(user, row) ? row.view_count : undefined, ...associationsJson(row) })),
      pagination: { page, per_page: PER_PAGE, total_pages: totalPages, total_count: total, has_next_page: page < totalPages, has_prev_page: page > 1 },
    };
  });
  registerLimitWrites(app, pool, userOf, showRecord, { type: 'object', properties: { record: { type: 'object', properties: SHOW_RECORD } } });
  registerScalarLimitRoutes(app, pool, userOf);
  return app;
}

/** Builds the limit for a bench child process, with a statement listener for the census. */
export async function limitServer(settings: ServerSettings): Promise<BenchServer> {
  // The baseline's pool settings, type parsers and named statements; Kysely only to read the keys once.
  const database = openBaselineDatabase(settings.url, settings.schema);
  const keys = await loadBenchKeys(database.db);
  await database.db.destroy();
  const pool = new pg.Pool({ Client: NamedStatementsClient, connectionString: settings.url, max: 10, options: `-c search_path=${settings.schema}`, types: database.types });
  const listeners = new Set<(statement: TimedStatement) => void>();
  const query = pool.query.bind(pool) as (text: string, values: unknown[]) => Promise<pg.QueryResult>;
  (pool as { query: unknown }).query = async (text: string, values: unknown[]) => {
    if (listeners.size === 0) return query(text, values);
    const start = performance.now();
    const result = await query(text, values);
    const end = performance.now();
    for (const listener of listeners) listener({ sql: text, parameters: values, start, end });
    return result;
  };
  const app = limitApp(pool, keys);
  app.addHook('onClose', () => pool.end());
  return {
    app,
    onStatement(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close: () => app.close(),
  };
}
