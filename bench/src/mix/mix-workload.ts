/**
 * The realistic mix: 200 API keys for 200 users (one in twenty an admin, who sees every post;
 * the others readers, who see published posts and their own), each request drawn from a seeded
 * random sequence, so that both servers get the same requests in the same order:
 *
 * - 50 % index: page 1 (60 %), pages 2–10 (25 %), 11–100 (10 %) or 101–3,000 (5 %), in the
 *   default order (30 %) or by a random sortable field in a random direction (70 %);
 * - 40 % show of a random post the user may see;
 * - 10 % writes: create (4 %) a post of one's own, PATCH (4 %) one of one's own posts, and
 *   delete (2 %) by an admin of a post of their own (the demo's policy lets only admins delete).
 *
 * Posts to delete are put in place before every round (`prepareMixRound`), with the patches and
 * creations of the previous round undone, so that every round of either server starts from the
 * same data.
 */
import { sql } from 'kysely';
import { MIX_KEY_PREFIX, MIX_USERS, type Dataset } from '../seed/dataset.js';
import { openSeedDatabase, resetBenchWrites } from '../seed/bench-seed.js';
import type { BenchRequest, Endpoint } from '../load/endpoints.js';

const POSTS = '/api/resources/v1/blog_posts';

/** The sortable fields of the blog posts' index view (the API refuses any other `sort_by`). */
const SORTABLE = ['id', 'title', 'published', 'published_on', 'view_count', 'rating'] as const;

/**
 * What a reader sorts by: `view_count` has a visible rule (admins and the post's author), so a
 * reader's list may not be sorted by it (400, as for a field that is not on the view); a reader
 * who draws it sorts by `rating` instead, so the sequence draws the same random numbers.
 */
const SORTABLE_BY_READERS = ['id', 'title', 'published', 'published_on', 'rating', 'rating'] as const;

/**
 * The indexes a deployment that lets people sort by these fields would have, each with the id
 * that breaks ties, and the one its readers' scope filters on (`published or author_id = $1`,
 * counted by an index-only scan instead of reading the table); made for the mix only.
 */
const MIX_INDEXES: readonly (readonly string[])[] = [['title', 'id'], ['published', 'id'], ['published_on', 'id'], ['view_count', 'id'], ['rating', 'id'], ['published', 'author_id']];

/** Requests in the precomputed sequence; a round at a few thousand requests per second uses a fraction. */
const SEQUENCE_LENGTH = 60_000;

/** The ids of the posts the mix deletes start here, above every id the seed and the creations use. */
const DELETABLE_FROM = 900_001;

/** The highest post id a PATCH of the mix changes (each user patches five of its own seeded posts). */
export const MIX_PATCHED_UP_TO = 5_999;

const isAdmin = (user: number) => user % 20 === 1;

/** mulberry32: a small seeded generator, the same numbers on every machine. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** One request of the mix, with the key it is sent with and, for a delete, the post it removes. */
interface MixRequest extends BenchRequest {
  readonly deletes?: { readonly id: number; readonly author: number };
}

function indexPath(random: () => number, user: number): string {
  const draw = random();
  const page = draw < 0.6 ? 1 : draw < 0.85 ? 2 + Math.floor(random() * 9) : draw < 0.95 ? 11 + Math.floor(random() * 90) : 101 + Math.floor(random() * 2900);
  const query: string[] = page === 1 ? [] : [`page=${page}`];
  if (random() >= 0.3) {
    const sortable = isAdmin(user) ? SORTABLE : SORTABLE_BY_READERS;
    query.push(`sort_by=${sortable[Math.floor(random() * sortable.length)]}`, `sort_direction=${random() < 0.5 ? 'asc' : 'desc'}`);
  }
  return query.length === 0 ? POSTS : `${POSTS}?${query.join('&')}`;
}

/** The seeded author of a post: `1 + id % users` (see the seed). */
const authorOf = (id: number, dataset: Dataset) => 1 + (id % dataset.users);

/** A post the user may see: a random one, moved to the next id when it is someone else's unpublished post (every fifth). */
function visiblePost(random: () => number, user: number, dataset: Dataset): number {
  const id = 1 + Math.floor(random() * (dataset.posts - 1));
  return isAdmin(user) || id % 5 !== 0 || authorOf(id, dataset) === user ? id : id + 1;
}

/** The sequence of the mix: the same for both servers and every run. */
export function mixSequence(dataset: Dataset, length = SEQUENCE_LENGTH): MixRequest[] {
  const random = generator(16);
  const sequence: MixRequest[] = [];
  let deletes = 0;
  for (let n = 0; n < length; n += 1) {
    const draw = random();
    let user = 1 + Math.floor(random() * MIX_USERS);
    if (draw >= 0.98) user = 1 + 20 * Math.floor(random() * (MIX_USERS / 20));
    const authorization = `ApiKey ${MIX_KEY_PREFIX}${user}`;
    if (draw < 0.5) sequence.push({ method: 'GET', path: indexPath(random, user), authorization });
    else if (draw < 0.9) sequence.push({ method: 'GET', path: `${POSTS}/${visiblePost(random, user, dataset)}`, authorization });
    else if (draw < 0.94) {
      const body = { blog_post: { title: `Mix post ${n}`, body: 'Written by the mix.', published: true, published_on: '2026-03-01', view_count: n % 1000, rating: 3.5, author_id: user } };
      sequence.push({ method: 'POST', path: POSTS, body: JSON.stringify(body), authorization });
    } else if (draw < 0.98) {
      // User u wrote the seeded posts u - 1 + 1,000 k; it patches one of k = 1 … 5.
      const id = user - 1 + 1_000 * (1 + Math.floor(random() * 5));
      sequence.push({ method: 'PATCH', path: `${POSTS}/${id}`, body: JSON.stringify({ blog_post: { title: `Mix patch ${n}`, view_count: n % 100_000 } }), authorization });
    } else {
      const id = DELETABLE_FROM + deletes++;
      sequence.push({ method: 'DELETE', path: `${POSTS}/${id}`, authorization, deletes: { id, author: user } });
    }
  }
  return sequence;
}

/**
 * Before a round: the data as seeded (creations removed, patches undone, including those of
 * the mix), and the posts the sequence deletes in place, unpublished, each by its admin.
 */
export async function prepareMixRound(url: string, schema: string, dataset: Dataset, sequence: readonly MixRequest[], stage: 'checks' | 'round'): Promise<void> {
  await resetBenchWrites(url, schema, dataset, MIX_PATCHED_UP_TO, stage === 'checks' ? 'restart' : 'forward');
  const doomed = sequence.flatMap((request) => (request.deletes ? [request.deletes] : []));
  const database = await openSeedDatabase(url, schema);
  try {
    await sql`delete from blog_posts where id >= ${DELETABLE_FROM}`.execute(database.db);
    await sql`insert into blog_posts (id, title, body, published, view_count, author_id, created_at)
      select id, 'Doomed post ' || id, 'To be deleted by the mix.', false, 0, author, timestamptz '2019-01-01 00:00:00+00'
      from unnest(${doomed.map((d) => d.id)}::int[], ${doomed.map((d) => d.author)}::int[]) as d (id, author)`.execute(database.db);
  } finally {
    await database.close();
  }
}

/** The mix's indexes, made before the mix and dropped after it (the other endpoints measure the table without them). */
export async function sortIndexes(url: string, schema: string, action: 'create' | 'drop'): Promise<void> {
  const database = await openSeedDatabase(url, schema);
  try {
    for (const columns of MIX_INDEXES) {
      const name = sql.id(`bench_mix_${columns.join('_')}_index`);
      const list = sql.join(columns.map((column) => sql.id(column)));
      await (action === 'create' ? sql`create index if not exists ${name} on blog_posts (${list})` : sql`drop index if exists ${name}`).execute(database.db);
    }
    if (action === 'create') await sql`analyze blog_posts`.execute(database.db);
  } finally {
    await database.close();
  }
}

/**
 * The mix as endpoints of the bench: API against the baseline, target 1.5× with a p99 no
 * worse; and the same requests to the API with the opt-in `estimate` count strategy (no target:
 * its `total_count` is the planner's estimate, which the baseline does not do).
 */
export function mixEndpoints(dataset: Dataset, url: string, schema: string): Endpoint[] {
  const sequence = mixSequence(dataset);
  const mix = {
    name: 'mix',
    title: `realistic mix (${MIX_USERS} keys: 50 % index, 40 % show, 10 % writes)`,
    request: (n) => sequence[n % sequence.length]!,
    compare: 'mixed',
    // The first requests of the sequence, every kind among them (writes compared by status and shape).
    checks: Array.from({ length: 120 }, (_, n) => n),
    target: 1.5,
    p99NoWorse: true,
    writes: true,
    census: false,
    against: 'baseline',
    prepare: (stage) => prepareMixRound(url, schema, dataset, sequence, stage),
  } satisfies Endpoint;
  // Unique keys per round: a round replays the sequence from a prepared state, so last round's keys must not replay.
  // Unique from the start too: the answer checks build their requests before the first `prepare`, and a key of an
  // earlier run (the idempotency table outlives the run) would be replayed, its post not written again.
  let round = `${process.pid}-${Date.now()}`;
  const conditional = (request: MixRequest, n: number): MixRequest => {
    if (request.method === 'GET') return request;
    const key = { 'idempotency-key': `mix-${round}-${n}` };
    return { ...request, headers: request.method === 'POST' ? key : { ...key, 'if-match': '*' } };
  };
  return [
    mix,
    {
      // The same requests, the writes with `Idempotency-Key` and (PATCH, DELETE) `If-Match: *`: each such write runs in
      // one transaction with a row lock, the precondition's read and hash, and the stored answer; the baseline handles the
      // same headers by hand (baseline/keyed-writes.ts). Compare with `mix`.
      ...mix,
      name: 'mix_conditional',
      title: 'realistic mix, the writes with If-Match and Idempotency-Key (compare with mix: target within 5 %)',
      request: (n) => conditional(sequence[n % sequence.length]!, n),
      target: null,
      p99NoWorse: false,
      prepare: async (stage) => {
        round = `${process.pid}-${Date.now()}`;
        await prepareMixRound(url, schema, dataset, sequence, stage);
      },
    },
    {
      // The same, against the same API server sent the plain mix in alternating rounds: the headers' own cost, without
      // the background noise that separates `mix` and `mix_conditional` (measured one after the other) on a busy machine.
      ...mix,
      name: 'mix_conditional_vs_plain',
      title: 'realistic mix, the writes with If-Match and Idempotency-Key / the plain mix, same API server (target within 5 %)',
      request: (n) => conditional(sequence[n % sequence.length]!, n),
      plainRequest: (n) => sequence[n % sequence.length]!,
      target: 0.95,
      p99NoWorse: false,
      against: 'api-plain',
      prepare: async (stage) => {
        round = `${process.pid}-${Date.now()}`;
        await prepareMixRound(url, schema, dataset, sequence, stage);
      },
    },
    {
      // The same requests against the limit: the same scoped statements from the least Node code (`limit/limit-writes.ts`).
      ...mix,
      name: 'mix_limit',
      title: 'realistic mix, against its limit (the same scoped statements from the least Node code)',
      target: 0.9,
      p99NoWorse: false,
      against: 'limit',
    },
    {
      ...mix,
      name: 'mix_estimate',
      title: 'realistic mix, the API with the estimate count strategy (exactBelow 10,000)',
      // Bodies differ from the baseline's by the totals only where the estimate is used: compared by shape.
      compare: 'shape',
      target: null,
      p99NoWorse: false,
      api: 'api-estimate',
    },
  ];
}
