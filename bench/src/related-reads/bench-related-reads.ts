/**
 * What `include` and cursor pagination cost: `npm run bench:related-reads` (from the repository
 * root, with PostgreSQL at DATABASE_URL or 127.0.0.1:5432; `-- --help` for the options). In a
 * schema of its own (dropped at the end), on the demo app in process (`app.inject`, no network):
 *
 * 1. A page of 25 posts with `include=author,comments` through the API, against the hand-written
 *    route that does the same (the issue's measure: the demo's key check, then one statement
 *    answering the same JSON, checked equal before measuring), against a lesser hand route (one
 *    statement without the authentication, the total, the files and the authors' counts, kept
 *    for comparison with earlier figures), and against the N+1 client it replaces (the page,
 *    then each author and each post's comments, 51 requests). Target: API ≥ 1.0× the route
 *    that does the same.
 * 2. At `--rows` posts (default 1,000,000): cursor page 10,000 against cursor page 1 (target
 *    within 2×), next to `OFFSET` page 10,000, 25 rows a page, through `operations.keysetList`
 *    and `operations.list` (the statements the API runs, without HTTP), ordered by id and by
 *    `published_on` (with an index on `(published_on, id)`).
 *
 * Alternating rounds, so that a change of load weighs on both sides; the load average is
 * printed with the figures. Do not run it on a machine others are measuring on.
 */
import { availableParallelism, loadavg } from 'node:os';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { isDeepStrictEqual } from 'node:util';
import { operations, secretsEqual, type KeysetPosition, type PanelDatabase } from '@panel/core';
import { demoKeys } from '@panel/example-blog/src/demo-keys.js';
import { buildDemoApp } from '@panel/example-blog/src/build-app.js';
import { meanMicros, withPostgresSchema } from '../micro/micro-bench.js';
import { runOnNode } from '../cli/node-version.js';

const HELP = `npm run bench:related-reads -- [--rows N] [--rounds N] [--only include|cursor] [--node 22|24]

  --rows N     posts for the cursor part (default 1000000)
  --rounds N   alternating rounds per comparison (default 6)
  --only PART  run only the include part or only the cursor part
  --node N     the whole bench on Node N (22 or 24, installed on first use)
  --help       this text

PostgreSQL at DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).`;

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? fallback : (process.argv[at + 1] ?? fallback);
}

const ADMIN = { authorization: 'ApiKey demo-admin-key' };
const PER_PAGE = 25;

/** The hand-written route: the page of posts, each author and each post's first 5 comments, in one statement, as JSON. */
function handRoute(database: PanelDatabase) {
  const app = Fastify();
  app.get('/hand/posts', async () => {
    const { rows } = await sql<{ body: unknown }>`
      select json_build_object('records', coalesce(json_agg(json_build_object(
        'id', p.id, 'title', p.title, 'published', p.published, 'published_on', p.published_on,
        'author', case when u.id is null then null else json_build_object('id', u.id, 'label', u.name, 'record', json_build_object('id', u.id, 'name', u.name, 'email', u.email, 'admin', u.admin)) end,
        'comments', json_build_object('count', (select count(*) from comments k where k.blog_post_id = p.id), 'records', coalesce(c.records, '[]'::json))
      ) order by p.id desc), '[]'::json)) as body
      from (select * from blog_posts order by id desc limit ${PER_PAGE}) p
      left join users u on u.id = p.author_id
      left join lateral (select json_agg(json_build_object('id', k.id, 'body', k.body, 'blog_post', k.blog_post_id, 'user', k.user_id) order by k.id desc) as records
                         from (select * from comments k where k.blog_post_id = p.id order by k.id desc limit 5) k) c on true`.execute(database.db);
    return rows[0]!.body;
  });
  return app;
}

/** A file's JSON as the API answers it: its URL from the blob's key and the encoded filename. */
type StoredFile = { filename: string; content_type: string; byte_size: number; key: string };
const fileJson = ({ key, ...file }: StoredFile) => ({ ...file, url: `/panel/attachments/${key}/${encodeURIComponent(file.filename)}` });

/**
 * The hand-written route that does the same as the API (the measure): the demo's
 * authentication (the key compared in constant time, then the user read), then one statement
 * for the same answer, field for field: the page in the API's order, every column the list
 * answers, each author's record with its posts' count and its profile, each post's comment
 * count and first 5 comments with their labels, the tags' count, the cover and the attachments
 * (their URLs made here, as a route would), and the pagination with its total. The bench checks
 * that both answers are the same JSON before it measures. Not done here, and done by the API:
 * the ETag, the rate limit, the request id, the policy and field rules (an admin reads all).
 */
function equalWorkRoute(database: PanelDatabase) {
  const app = Fastify();
  const keys = demoKeys();
  app.get('/equal/posts', async (request, reply) => {
    const presented = /^ApiKey (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    const userId = presented === undefined ? undefined : [...keys].find(([key]) => secretsEqual(presented, key))?.[1];
    const user = userId === undefined ? undefined : await database.db.selectFrom('users').select(['id', 'name', 'admin']).where('id', '=', userId).executeTakeFirst();
    if (!user) return reply.code(401).send({ error: 'Unauthorized' });
    const { rows } = await sql<{ records: Record<string, unknown>[] | null; total: string }>`
      with page as (select * from blog_posts order by created_at desc, id desc limit ${PER_PAGE})
      select (select count(*) from blog_posts) as total, json_agg(json_build_object(
        'id', p.id, 'title', p.title, 'published', p.published, 'published_on', p.published_on, 'view_count', p.view_count, 'rating', p.rating,
        'author', case when u.id is null then null else json_build_object('id', u.id, 'label', u.name, 'record', json_build_object(
          'id', u.id, 'name', u.name, 'email', u.email, 'admin', u.admin, 'created_at', to_char(u.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'blog_posts', json_build_object('count', (select count(*) from blog_posts b where b.author_id = u.id)),
          'profile', (select json_build_object('id', f.id) from profiles f where f.user_id = u.id order by f.id limit 1))) end,
        'comments', json_build_object('count', cc.count, 'records', coalesce(c.records, '[]'::json), 'has_more', cc.count > 5, 'next', null),
        'tag_list', json_build_object('count', (select count(*) from blog_posts_tags j where j.blog_post_id = p.id)),
        'cover', (select json_build_object('filename', b.filename, 'content_type', b.content_type, 'byte_size', b.byte_size, 'key', b.key)
                  from panel_attachments a join panel_blobs b on b.id = a.blob_id where a.record_type = 'BlogPost' and a.name = 'cover' and a.record_id = p.id order by a.position desc limit 1),
        'attachments', (select coalesce(json_agg(json_build_object('filename', b.filename, 'content_type', b.content_type, 'byte_size', b.byte_size, 'key', b.key) order by a.position, a.id), '[]'::json)
                        from panel_attachments a join panel_blobs b on b.id = a.blob_id where a.record_type = 'BlogPost' and a.name = 'attachments' and a.record_id = p.id)
      ) order by p.created_at desc, p.id desc) as records
      from page p
      left join users u on u.id = p.author_id
      left join lateral (select count(*) as count from comments k where k.blog_post_id = p.id) cc on true
      left join lateral (select json_agg(json_build_object('id', k.id, 'body', k.body, 'blog_post', json_build_object('id', p.id, 'label', p.title), 'user', case when w.id is null then null else json_build_object('id', w.id, 'label', w.name) end) order by k.id desc) as records
                         from (select * from comments k where k.blog_post_id = p.id order by k.id desc limit 5) k left join users w on w.id = k.user_id) c on true`.execute(database.db);
    const total = Number(rows[0]!.total);
    const records = (rows[0]!.records ?? []).map((record) => ({
      ...record,
      cover: record.cover ? fileJson(record.cover as StoredFile) : null,
      attachments: (record.attachments as StoredFile[]).map(fileJson),
    }));
    const totalPages = Math.max(1, Math.ceil(total / PER_PAGE));
    return { records, pagination: { page: 1, per_page: PER_PAGE, total_pages: totalPages, total_count: total, has_next_page: totalPages > 1, has_prev_page: false } };
  });
  return app;
}

async function includePart(database: PanelDatabase, rounds: number): Promise<Record<string, string>[]> {
  const demo = await buildDemoApp({ database });
  const hand = handRoute(database);
  const equal = equalWorkRoute(database);
  try {
    const api = () => demo.app.inject({ method: 'GET', url: `/api/resources/v1/blog_posts?per_page=${PER_PAGE}&include=author,comments`, headers: ADMIN });
    const handwritten = () => hand.inject({ method: 'GET', url: '/hand/posts' });
    const sameWork = () => equal.inject({ method: 'GET', url: '/equal/posts', headers: ADMIN });
    const [byTheApi, byTheRoute] = [(await api()).json(), (await sameWork()).json()];
    if (!isDeepStrictEqual(byTheApi, byTheRoute)) throw new Error(`the equal-work route does not answer what the API answers:\n${JSON.stringify(byTheApi).slice(0, 2000)}\n${JSON.stringify(byTheRoute).slice(0, 2000)}`);
    const nPlusOne = async () => {
      const page = (await demo.app.inject({ method: 'GET', url: `/api/resources/v1/blog_posts?per_page=${PER_PAGE}`, headers: ADMIN })).json() as { records: { id: number; author: { id: number } | null }[] };
      await Promise.all(page.records.flatMap((post) => [
        ...(post.author ? [demo.app.inject({ method: 'GET', url: `/api/resources/v1/users/${post.author.id}`, headers: ADMIN })] : []),
        demo.app.inject({ method: 'GET', url: `/api/resources/v1/comments?filter[blog_post_id]=${post.id}&per_page=5`, headers: ADMIN }),
      ]));
    };
    if ((await api()).statusCode !== 200 || (await handwritten()).statusCode !== 200) throw new Error('an include request failed');
    let [byApi, byHand, byEqual, byClient] = [0, 0, 0, 0];
    for (let round = 0; round < rounds; round += 1) {
      byApi += (await meanMicros(50, api)) / rounds;
      byHand += (await meanMicros(50, handwritten)) / rounds;
      byEqual += (await meanMicros(50, sameWork)) / rounds;
      byClient += (await meanMicros(10, nPlusOne)) / rounds;
    }
    return [
      { part: 'include', request: `25 posts, include=author,comments (API)`, 'µs': byApi.toFixed(0), 'against': '', ratio: '', target: '' },
      { part: 'include', request: 'hand-written route doing the same (key + 1 statement)', 'µs': byEqual.toFixed(0), against: 'API', ratio: `${(byEqual / byApi).toFixed(2)}×`, target: '≥ 1.0×' },
      { part: 'include', request: 'hand-written route, less (no auth, count, files)', 'µs': byHand.toFixed(0), against: 'API', ratio: `${(byHand / byApi).toFixed(2)}×`, target: '' },
      { part: 'include', request: 'N+1 client (1 + 25 + 25 requests)', 'µs': byClient.toFixed(0), against: 'API', ratio: `${(byClient / byApi).toFixed(2)}×`, target: '' },
    ];
  } finally {
    await hand.close();
    await equal.close();
    await demo.app.close();
  }
}

async function cursorPart(database: PanelDatabase, rows: number, rounds: number): Promise<Record<string, string>[]> {
  const demo = await buildDemoApp({ database });
  try {
    await sql`insert into blog_posts (title, published, published_on, author_id)
              select 'Bench ' || i, true, date '2000-01-01' + (i % 9000), 1 + i % 3 from generate_series(1, ${rows}) as i`.execute(database.db);
    await sql`create index if not exists blog_posts_published_on_id on blog_posts (published_on, id)`.execute(database.db);
    await sql`analyze blog_posts`.execute(database.db);
    const panel = demo.panel;
    const base = { panel, resource: 'BlogPost', actor: { id: 1, name: 'Ada Admin', admin: true }, perPage: PER_PAGE };
    // Page 10,000, or the last full page of a smaller data set (`--rows` below 250,000, for a quick check).
    const deepPage = Math.max(2, Math.min(10_000, Math.floor((rows + 60) / PER_PAGE) - 1));
    const out: Record<string, string>[] = [];
    for (const column of ['id', 'published_on'] as const) {
      const sort = { column, direction: 'asc' as const };
      // The place of the last row of page 9,999: where page 10,000 starts.
      const { rows: [at] } = await sql<{ value: string | null; id: string }>`select ${sql.ref(column)}::text as value, id::text as id from blog_posts order by ${sql.ref(column)} asc, id asc offset ${(deepPage - 1) * PER_PAGE - 1} limit 1`.execute(database.db);
      const position: KeysetPosition = { value: at!.value, id: at!.id };
      const first = () => operations.keysetList({ ...base, sort });
      const deep = () => operations.keysetList({ ...base, sort, after: position });
      const offset = () => operations.list({ ...base, sort, page: deepPage });
      let [byFirst, byDeep, byOffset] = [0, 0, 0];
      for (let round = 0; round < rounds; round += 1) {
        byFirst += (await meanMicros(20, first)) / rounds;
        byDeep += (await meanMicros(20, deep)) / rounds;
        byOffset += (await meanMicros(5, offset)) / rounds;
      }
      out.push(
        { part: 'cursor', request: `sort ${column}: cursor page 1`, 'µs': byFirst.toFixed(0), against: '', ratio: '', target: '' },
        { part: 'cursor', request: `sort ${column}: cursor page ${deepPage}`, 'µs': byDeep.toFixed(0), against: 'page 1', ratio: `${(byDeep / byFirst).toFixed(2)}×`, target: '≤ 2×' },
        { part: 'cursor', request: `sort ${column}: OFFSET page ${deepPage} (with its count)`, 'µs': byOffset.toFixed(0), against: 'cursor page 1', ratio: `${(byOffset / byFirst).toFixed(2)}×`, target: '' },
      );
    }
    return out;
  } finally {
    await demo.app.close();
  }
}

if (process.argv.includes('--help')) {
  console.log(HELP);
  process.exit(0);
}
// `--node 24`: the whole bench again on that Node (cli/node-version.ts).
const onOtherNode = runOnNode(import.meta.url, process.argv.slice(2));
if (onOtherNode !== undefined) process.exit(onOtherNode);
const rows = Number(option('rows', '1000000'));
const rounds = Number(option('rounds', '6'));
const only = option('only', '');
const loadAtStart = loadavg();
const table = await withPostgresSchema('panel_related_reads_bench', async (database) => {
  try {
    return [...(only === 'cursor' ? [] : await includePart(database, rounds)), ...(only === 'include' ? [] : await cursorPart(database, rows, rounds))];
  } finally {
    await database.close();
  }
});
console.table(table);
console.log(`Node ${process.version}. Load average at start ${loadAtStart.map((n) => n.toFixed(2)).join(' ')}, at the end ${loadavg().map((n) => n.toFixed(2)).join(' ')} (${availableParallelism()} cores).`);
