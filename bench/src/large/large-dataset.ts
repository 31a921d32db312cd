import type { Dataset } from '../seed/dataset.js';

/** The schema of the 10-million-row data set, apart from the main bench's `panel_bench`. */
export const LARGE_SCHEMA = 'panel_bench_10m';

/**
 * The data set of `npm run bench -- --large`: 10,000,000 posts, seeded by the main bench's
 * set-based seed (same rows, same shapes), with small neighbours: 1,000 users, 100,000
 * comments (a hundredth of the posts have comments, so an index page's `has_many` counts stay
 * cheap as they are at 100,000 posts) and files on every 10,000th post. Only the posts table is
 * large: it is the table the measured pages read and count.
 */
export const LARGE_DATASET: Dataset = Object.freeze({ users: 1_000, posts: 10_000_000, comments: 100_000, filesEvery: 10_000, patchedPosts: 1_000 });
