import type { Dataset } from '../seed/dataset.js';

/** One request as the load generator and the checks send it. */
export interface BenchRequest {
  readonly method: 'GET' | 'POST' | 'PATCH';
  readonly path: string;
  readonly body?: string;
}

/** One endpoint of the bench: how its n-th request looks, how answers are compared, and its target ratio. */
export interface Endpoint {
  readonly name: string;
  readonly title: string;
  /** The n-th request (n from 0); requests cycle so that both servers get the same sequence. */
  request(n: number): BenchRequest;
  /** `body`: byte-identical answers; `shape`: same status and the same keys and value types (ids and times differ). */
  readonly compare: 'body' | 'shape';
  /** The requests the checks compare before timing. */
  readonly checks: readonly number[];
  /** The lowest acceptable ratio API / baseline of requests per second; null where the issue sets none. */
  readonly target: number | null;
  /** Whether it writes (run after every read, so that reads see the seeded data). */
  readonly writes: boolean;
  /** Whether the census (statements and round trips per request) is printed for it. */
  readonly census: boolean;
}

/** The authorization header of every request: the demo's admin key (user 1). */
export const AUTHORIZATION = 'ApiKey demo-admin-key';

const POSTS = '/api/resources/v1/blog_posts';

/** The endpoints of the issue, on the blog posts resource of the data set. */
export function benchEndpoints(dataset: Dataset): Endpoint[] {
  const get = (path: string) => (): BenchRequest => ({ method: 'GET', path });
  // Shown posts cycle over ids with and without files (every tenth post has them).
  const showId = (n: number) => 1 + ((n * 7919) % dataset.posts);
  return [
    { name: 'index_page_1', title: 'index, page 1', request: get(POSTS), compare: 'body', checks: [0], target: 1.2, writes: false, census: true },
    { name: 'index_page_2000', title: 'index, page 2000', request: get(`${POSTS}?page=2000`), compare: 'body', checks: [0], target: 2, writes: false, census: true },
    { name: 'index_sorted', title: 'index, sort_by=view_count (no index)', request: get(`${POSTS}?sort_by=view_count&sort_direction=desc`), compare: 'body', checks: [0], target: null, writes: false, census: true },
    { name: 'show', title: 'show', request: (n) => ({ method: 'GET', path: `${POSTS}/${showId(n)}` }), compare: 'body', checks: [0, 1, 2, 3, 9], target: 0.95, writes: false, census: true },
    {
      name: 'create',
      title: 'create',
      request: (n) => ({
        method: 'POST',
        path: POSTS,
        body: JSON.stringify({ blog_post: { title: `Bench post ${n}`, body: 'Written by the bench.', published: true, published_on: '2026-03-01', view_count: n % 1000, rating: 4.5, author_id: 1 + (n % dataset.users) } }),
      }),
      compare: 'shape',
      checks: [0],
      target: 0.9,
      writes: true,
      census: true,
    },
    {
      name: 'update',
      title: 'update (PATCH)',
      request: (n) => ({
        method: 'PATCH',
        path: `${POSTS}/${1 + (n % dataset.patchedPosts)}`,
        body: JSON.stringify({ blog_post: { title: `Patched ${n}`, view_count: n % 100_000 } }),
      }),
      compare: 'shape',
      checks: [0],
      target: 0.9,
      writes: true,
      census: true,
    },
  ];
}
