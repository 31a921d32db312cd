import type { Dataset } from '../seed/dataset.js';

/** One request as the load generator and the checks send it. */
export interface BenchRequest {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly body?: string;
  /** The `Authorization` header; default `AUTHORIZATION` (the admin's key). */
  readonly authorization?: string;
  /** More request headers (the mix's `If-Match` and `Idempotency-Key` on writes). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The count strategy of the `api-estimate` server: the planner's estimate for lists of 10,000 rows and more. */
export const ESTIMATED_COUNT = { strategy: 'estimate', exactBelow: 10_000 } as const;

/**
 * What an endpoint's API figures are compared with: the hand-written baseline, the limit, or
 * `api-plain`: the same API server sent `plainRequest` instead (the same requests without a
 * feature's headers), in alternating rounds, so that the ratio is the headers' own cost.
 */
export type Reference = 'baseline' | 'limit' | 'api-plain';

/** One endpoint of the bench: how its n-th request looks, how answers are compared, and its target ratio. */
export interface Endpoint {
  readonly name: string;
  readonly title: string;
  /** The n-th request (n from 0); requests cycle so that both servers get the same sequence. */
  request(n: number): BenchRequest;
  /** `body`: byte-identical answers; `shape`: same status and the same keys and value types (ids and times differ); `mixed`: body for GET, shape for writes. */
  readonly compare: 'body' | 'shape' | 'mixed';
  /** The requests the checks compare before timing. */
  readonly checks: readonly number[];
  /** The lowest acceptable ratio API / reference of requests per second; null where the issue sets none. */
  readonly target: number | null;
  /** Whether the API's p99 must also be no worse than the reference's. */
  readonly p99NoWorse?: boolean;
  /** What the API is compared with: the hand-written baseline, the limit (the least work giving the same answers), or itself (`api-plain`). */
  readonly against: Reference;
  /** With `against: 'api-plain'`: the n-th request the API is compared with (the same request without the headers under test). */
  readonly plainRequest?: (n: number) => BenchRequest;
  /**
   * The API server that answers: the demo as it ships (exact counts), with the `estimate` count
   * strategy (`ESTIMATED_COUNT`), or the equal-work app (`api-scalar`: one scalar resource).
   */
  readonly api?: 'api' | 'api-estimate' | 'api-scalar';
  /** Connections for this endpoint instead of `--connections` (the equal-work rows name theirs). */
  readonly connections?: number;
  /**
   * Run before the checks and before every round of each server (puts the data back as the
   * requests expect it). `checks`: nothing else runs, and the two servers must give new rows the
   * same ids (`resetBenchWrites`' `restart`); `round`: a request of the last round may still be
   * in flight.
   */
  readonly prepare?: (stage: 'checks' | 'round') => Promise<void>;
  /** Whether it writes (run after every read, so that reads see the seeded data). */
  readonly writes: boolean;
  /** Whether the census (statements and round trips per request) is printed for it. */
  readonly census: boolean;
}

/** The authorization header of every request: the demo's admin key (user 1). */
export const AUTHORIZATION = 'ApiKey demo-admin-key';

/** The headers of a request: its key (the admin's by default) and, with a body, its content type. */
export function requestHeaders(request: BenchRequest): Record<string, string> {
  return { authorization: request.authorization ?? AUTHORIZATION, ...(request.body === undefined ? {} : { 'content-type': 'application/json' }), ...request.headers };
}

const POSTS = '/api/resources/v1/blog_posts';
/** Words of the seeded titles (`Post <i>: Gardens` …) that `q` searches for. */
const SEARCH_WORDS = ['gardens', 'Trains', 'rivers', 'KITCHENS', 'games'];

/** The n-th request of the `create` endpoint: a post by one of the users in turn. */
function createRequest(dataset: Dataset, n: number): BenchRequest {
  const body = { blog_post: { title: `Bench post ${n}`, body: 'Written by the bench.', published: true, published_on: '2026-03-01', view_count: n % 1000, rating: 4.5, author_id: 1 + (n % dataset.users) } };
  return { method: 'POST', path: POSTS, body: JSON.stringify(body) };
}

/** The n-th request of the `update` endpoint: a PATCH of one of the first `patchedPosts` posts in turn. */
function updateRequest(dataset: Dataset, n: number): BenchRequest {
  return { method: 'PATCH', path: `${POSTS}/${1 + (n % dataset.patchedPosts)}`, body: JSON.stringify({ blog_post: { title: `Patched ${n}`, view_count: n % 100_000 } }) };
}

/** The endpoints of the issue, on the blog posts resource of the data set. */
export function benchEndpoints(dataset: Dataset): Endpoint[] {
  const get = (path: string) => (): BenchRequest => ({ method: 'GET', path });
  // Shown posts cycle over ids with and without files (every tenth post has them).
  const showId = (n: number) => 1 + ((n * 7919) % dataset.posts);
  return [
    { name: 'index_page_1', title: 'index, page 1', request: get(POSTS), compare: 'body', checks: [0], target: 1.2, writes: false, census: true, against: 'baseline' },
    { name: 'index_page_2000', title: 'index, page 2000', request: get(`${POSTS}?page=2000`), compare: 'body', checks: [0], target: 2, writes: false, census: true, against: 'baseline' },
    { name: 'index_sorted', title: 'index, sort_by=view_count (no index)', request: get(`${POSTS}?sort_by=view_count&sort_direction=desc`), compare: 'body', checks: [0], target: null, writes: false, census: true, against: 'baseline' },
    // Querying (docs/querying.md): the same filters by hand in the baseline. `published_on` stands for
    // a date filter: `created_at` is not on the index view, so a list cannot filter it.
    { name: 'index_filtered', title: 'index, filter[published]=true&filter[author_id]', request: (n) => ({ method: 'GET', path: `${POSTS}?filter[published]=true&filter[author_id]=${1 + (n % dataset.users)}` }), compare: 'body', checks: [0, 1], target: 1.5, writes: false, census: true, against: 'baseline' },
    { name: 'index_search', title: 'index, q=<word>', request: (n) => ({ method: 'GET', path: `${POSTS}?q=${SEARCH_WORDS[n % SEARCH_WORDS.length]}` }), compare: 'body', checks: [0, 1], target: 1.5, writes: false, census: true, against: 'baseline' },
    { name: 'index_date_sorted', title: 'index, filter[published_on][gte]&sort_by=view_count', request: (n) => ({ method: 'GET', path: `${POSTS}?filter[published_on][gte]=2024-0${1 + (n % 9)}-01&sort_by=view_count` }), compare: 'body', checks: [0, 1], target: 1.5, writes: false, census: true, against: 'baseline' },
    { name: 'show', title: 'show', request: (n) => ({ method: 'GET', path: `${POSTS}/${showId(n)}` }), compare: 'body', checks: [0, 1, 2, 3, 9], target: 0.95, writes: false, census: true, against: 'baseline' },
    {
      name: 'create',
      title: 'create',
      request: (n) => createRequest(dataset, n),
      compare: 'shape',
      checks: [0],
      target: 1,
      writes: true,
      census: true,
      against: 'baseline',
    },
    {
      name: 'update',
      title: 'update (PATCH)',
      request: (n) => updateRequest(dataset, n),
      compare: 'shape',
      checks: [0],
      target: 1,
      writes: true,
      census: true,
      against: 'baseline',
    },
  ];
}

/**
 * The physical limit: show and index page 1 against a server that answers them with the least
 * work (one statement for show; the page and its count for index) and compiled serializers.
 */
export function limitEndpoints(dataset: Dataset): Endpoint[] {
  const showId = (n: number) => 1 + ((n * 7919) % dataset.posts);
  return [
    { name: 'limit_show', title: 'show, against the limit', request: (n) => ({ method: 'GET', path: `${POSTS}/${showId(n)}` }), compare: 'body', checks: [0, 1, 2, 3, 9], target: 0.85, writes: false, census: true, against: 'limit' },
    { name: 'limit_index_page_1', title: 'index page 1, against the limit', request: () => ({ method: 'GET', path: POSTS }), compare: 'body', checks: [0], target: 0.8, writes: false, census: true, against: 'limit' },
  ];
}

const SCALAR = '/api/resources/v1/bench_posts';

/**
 * Equal work (issue 29): a resource with scalar fields only on the same table
 * (`app/scalar/resources/bench-post.ts`, served by the `api-scalar` app), against the obvious
 * hand-written route (the same columns, Kysely, Fastify's response schema) and against the
 * limit (the same statements as text on `pg`); show at 50 connections, index page 1 at 1
 * connection (no concurrent request to share a count with) and at 50.
 */
export function equalWorkEndpoints(dataset: Dataset): Endpoint[] {
  const show = (n: number): BenchRequest => ({ method: 'GET', path: `${SCALAR}/${1 + ((n * 7919) % dataset.posts)}` });
  const index = (): BenchRequest => ({ method: 'GET', path: SCALAR });
  const common = { compare: 'body', writes: false, census: true, api: 'api-scalar' } as const;
  return [
    { ...common, name: 'equal_show', title: 'equal work: show, scalar fields, 50 connections, against the hand-written route', request: show, checks: [0, 1, 2], target: 1, against: 'baseline', connections: 50 },
    { ...common, name: 'equal_index_1', title: 'equal work: index page 1, scalar fields, 1 connection, against the hand-written route', request: index, checks: [0], target: 1, against: 'baseline', connections: 1 },
    { ...common, name: 'equal_index_50', title: 'equal work: index page 1, scalar fields, 50 connections, against the hand-written route', request: index, checks: [0], target: null, against: 'baseline', connections: 50 },
    { ...common, name: 'equal_show_limit', title: 'equal work: show, scalar fields, 50 connections, against the limit', request: show, checks: [0, 1, 2], target: 0.97, against: 'limit', connections: 50 },
    { ...common, name: 'equal_index_1_limit', title: 'equal work: index page 1, scalar fields, 1 connection, against the limit', request: index, checks: [0], target: null, against: 'limit', connections: 1 },
    { ...common, name: 'equal_index_50_limit', title: 'equal work: index page 1, scalar fields, 50 connections, against the limit', request: index, checks: [0], target: null, against: 'limit', connections: 50 },
  ];
}

/**
 * The writes alone with the headers of safe clients (docs/conditional-requests.md): create with
 * `Idempotency-Key`, PATCH with `If-Match: *` and `Idempotency-Key`. Each against the baseline,
 * which handles the same headers by hand (`baseline/keyed-writes.ts`: the same transaction, lock,
 * stored answer and purge), so that the ratio is comparable with `create`'s and `update`'s; and each against the same API sent the
 * same requests without the headers in alternating rounds (`*_vs_plain`: the headers' own cost,
 * free of the background noise that separates two endpoints measured one after the other).
 * Every request gets a key never sent before (a counter over the whole run, not the request's
 * place in its round): a key sent twice would be replayed, a cheaper answer than a write.
 */
export function conditionalWriteEndpoints(dataset: Dataset): Endpoint[] {
  const run = `${process.pid}-${Date.now()}`;
  let sent = 0;
  const keyed = (request: BenchRequest, ifMatch: boolean): BenchRequest => ({ ...request, headers: { 'idempotency-key': `bench-${run}-${sent++}`, ...(ifMatch ? { 'if-match': '*' } : {}) } });
  const common = { compare: 'shape', checks: [0], writes: true, census: true } as const;
  const create = (n: number) => keyed(createRequest(dataset, n), false);
  const update = (n: number) => keyed(updateRequest(dataset, n), true);
  return [
    { ...common, target: null, name: 'create_keyed', title: 'create with Idempotency-Key, both servers keyed (compare with create: target within 5 %)', request: create, against: 'baseline' },
    { ...common, target: null, name: 'update_conditional', title: 'update (PATCH) with If-Match: * and Idempotency-Key, both servers keyed (compare with update: target within 5 %)', request: update, against: 'baseline' },
    { ...common, target: null, name: 'create_keyed_vs_plain', title: 'create with Idempotency-Key / the same creates without it, same API server', request: create, plainRequest: (n) => createRequest(dataset, n), against: 'api-plain' },
    { ...common, target: null, name: 'update_conditional_vs_plain', title: 'PATCH with If-Match: * and Idempotency-Key / the same PATCHes without them, same API server', request: update, plainRequest: (n) => updateRequest(dataset, n), against: 'api-plain' },
  ];
}
