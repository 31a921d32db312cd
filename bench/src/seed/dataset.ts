/** The size of the bench's data set. */
export interface Dataset {
  readonly users: number;
  readonly posts: number;
  readonly comments: number;
  /** Every n-th post has a cover and two attachments. */
  readonly filesEvery: number;
  /** The PATCH requests cycle over posts 1 … patchedPosts. */
  readonly patchedPosts: number;
}

/** The data set of the issue: 1,000 users, 100,000 posts, 1,000,000 comments, files on a tenth of the posts. */
export const DATASET: Dataset = Object.freeze({ users: 1_000, posts: 100_000, comments: 1_000_000, filesEvery: 10, patchedPosts: 1_000 });

/** The mix's users: ids 1 … 200, each with the API key `bench-key-<id>`; ids 1, 21, 41 … are admins, the others readers. */
export const MIX_USERS = 200;

/** The mix's API keys are this prefix followed by the user's id. */
export const MIX_KEY_PREFIX = 'bench-key-';
