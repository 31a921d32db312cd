/**
 * The limit's writes, for the realistic mix: create, PATCH and delete of a blog post with the
 * statements the API sends for them (the checks, then the write gated on them with the record
 * read back; the record through the scope, then the update with the scope applied again; the
 * delete's look-up, then a transaction removing the attachments and the post), as text on
 * `pg`, with a body schema for the input and the demo's rules written out: the author must
 * exist, a published post has a date, only an admin sets another author or deletes, a reader's
 * new post takes no `view_count` (its visible rule), an update is the author's or an admin's.
 */
import type { FastifyInstance, FastifySchema } from 'fastify';
import type pg from 'pg';
import type { BenchUser } from '../auth/bench-keys.js';
import { associationsSql } from './limit-sql.js';

const PATH = '/api/resources/v1/blog_posts';

type Row = Record<string, any>;

/** `$2` admin, `$3` the user: the reader's scope on posts. */
const VISIBLE = '($2::boolean or r.published or r.author_id = $3)';
const AUTHOR_EXISTS = 'select exists (select r.id from users r where r.id = $1 and ($2::boolean or r.id = $3)) as ok';
const INSERT_SQL = `with checks as (${AUTHOR_EXISTS}),
  written as (insert into blog_posts (title, body, published, published_on, view_count, rating, author_id)
    select $4, $5, $6, $7::date, coalesce($8::integer, 0), $9::numeric, $1 where (select ok from checks) returning *)
  select checks.ok, r.*, ${associationsSql('$2', '$3')} from checks left join written r on true`;
const FIND_FOR_UPDATE_SQL = `select r.*, (select u.name from users u where u.id = r.author_id and ($2::boolean or u.id = $3)) as author_name from blog_posts r where r.id = $1 and ${VISIBLE}`;
const FIND_SQL = `select r.*, ${associationsSql('$2', '$3')} from blog_posts r where r.id = $1 and ${VISIBLE}`;

/** The columns a PATCH may set, in the order they are written. */
const UPDATABLE = ['title', 'body', 'published', 'published_on', 'view_count', 'rating', 'author_id'] as const;

const nullable = (type: string) => ({ type: [type, 'null'] });
const BODY = {
  type: 'object',
  required: ['blog_post'],
  properties: {
    blog_post: {
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 1, maxLength: 200 },
        body: nullable('string'),
        published: { type: 'boolean' },
        published_on: { type: ['string', 'null'], format: 'date' },
        view_count: { type: 'integer', minimum: 0 },
        rating: { type: ['number', 'null'], minimum: 0, maximum: 5 },
        author_id: { type: 'integer', minimum: 1 },
      },
    },
  },
} as const;

const recordId = (raw: string): number | undefined => (/^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : undefined);
const unprocessable = (field: string, message: string, action: string) => ({ errors: { [field]: [message] }, message: `Failed to ${action} Blog post` });

/** Registers POST, PATCH and DELETE of blog posts on the limit's app. */
export function registerLimitWrites(
  app: FastifyInstance,
  pool: pg.Pool,
  userOf: (authorization: string | undefined) => BenchUser | undefined,
  showRecord: (row: Row, user: BenchUser) => Record<string, unknown>,
  recordSchema: object,
): void {
  app.post(PATH, { schema: { body: BODY, response: { 201: recordSchema } } as FastifySchema }, async (request, reply) => {
    const user = userOf(request.headers.authorization);
    if (!user) return reply.code(401).send({ error: 'Unauthorized' });
    const input = (request.body as { blog_post: Row }).blog_post;
    if (input.title === undefined) return reply.code(422).send(unprocessable('title', "can't be blank", 'create'));
    if (input.published === true && !input.published_on) return reply.code(422).send(unprocessable('published_on', "can't be blank when the post is published", 'create'));
    const author = user.admin ? (input.author_id ?? user.id) : user.id;
    const checks = [author, user.admin, user.id];
    // The API sends its checks first (the resource's validate hook reads their messages), then the write gated on them.
    const exists = (await pool.query(AUTHOR_EXISTS, checks)).rows[0].ok as boolean;
    if (!exists) return reply.code(422).send(unprocessable('author', 'must exist', 'create'));
    const values = [...checks, input.title, input.body ?? null, input.published ?? false, input.published_on ?? null, user.admin ? (input.view_count ?? null) : null, input.rating ?? null];
    const row = (await pool.query(INSERT_SQL, values)).rows[0];
    if (!row.ok) return reply.code(422).send(unprocessable('author', 'must exist', 'create'));
    return reply.code(201).send({ record: showRecord(row, user) });
  });

  app.patch(`${PATH}/:id`, { schema: { body: BODY, response: { 200: recordSchema } } as FastifySchema }, async (request, reply) => {
    const user = userOf(request.headers.authorization);
    if (!user) return reply.code(401).send({ error: 'Unauthorized' });
    const id = recordId((request.params as { id: string }).id);
    const scope = [id, user.admin, user.id];
    const existing = id === undefined ? undefined : (await pool.query(FIND_FOR_UPDATE_SQL, scope)).rows[0];
    if (!existing) return reply.code(404).send({ error: 'Not Found' });
    if (!user.admin && existing.author_id !== user.id) return reply.code(403).send({ error: 'Forbidden' });
    const input = (request.body as { blog_post: Row }).blog_post;
    const columns = UPDATABLE.filter((column) => input[column] !== undefined && (column !== 'author_id' || user.admin));
    const published = input.published ?? existing.published;
    if (published === true && !(input.published_on !== undefined ? input.published_on : existing.published_on)) {
      return reply.code(422).send(unprocessable('published_on', "can't be blank when the post is published", 'update'));
    }
    if (columns.length === 0) return { record: showRecord(existing, user) };
    const set = columns.map((column, i) => `${column} = $${4 + i}`).join(', ');
    const sql = `with written as (update blog_posts set ${set} where id = $1 and id in (select r.id from blog_posts r where r.id = $1 and ${VISIBLE}) returning *)
      select r.*, ${associationsSql('$2', '$3')} from written r`;
    const row = (await pool.query(sql, [...scope, ...columns.map((column) => input[column])])).rows[0];
    if (!row) return reply.code(404).send({ error: 'Not Found' });
    return { record: showRecord(row, user) };
  });

  app.delete(`${PATH}/:id`, async (request, reply) => {
    const user = userOf(request.headers.authorization);
    if (!user) return reply.code(401).send({ error: 'Unauthorized' });
    const id = recordId((request.params as { id: string }).id);
    const scope = [id, user.admin, user.id];
    const existing = id === undefined ? undefined : (await pool.query(FIND_SQL, scope)).rows[0];
    if (!existing) return reply.code(404).send({ error: 'Not Found' });
    if (!user.admin) return reply.code(403).send({ error: 'Forbidden' });
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(FIND_SQL, scope);
      const removed = await client.query("delete from panel_attachments where record_type = 'BlogPost' and record_id = $1 returning blob_id", [id]);
      if (removed.rows.length > 0) await client.query('delete from panel_blobs where id = any($1)', [removed.rows.map((r) => r.blob_id)]);
      await client.query('delete from blog_posts where id = $1', [id]);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    return { message: 'Blog post successfully deleted' };
  });
}
