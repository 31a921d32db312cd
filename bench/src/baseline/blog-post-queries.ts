import type { Kysely, Selectable } from 'kysely';
import type { BaselineTables } from './baseline-database.js';
import type { BenchUser } from '../auth/bench-keys.js';

/** A blog post row on the index (no body, no created_at). */
export type PostRow = Pick<Selectable<BaselineTables['blog_posts']>, 'id' | 'title' | 'published' | 'published_on' | 'view_count' | 'rating' | 'author_id'>;
/** A full blog post row, for show and the write answers. */
export type FullPostRow = Selectable<BaselineTables['blog_posts']>;
/** One attached file of a post. */
export interface FileRow {
  record_id: number;
  name: string;
  position: number;
  key: string;
  filename: string;
  content_type: string;
  byte_size: number;
}

/** What the posts of a page or a record need beside their columns: author names, comment and tag counts, and files. */
export interface PostExtras {
  readonly authorNames: ReadonlyMap<number, string>;
  readonly commentCounts: ReadonlyMap<number, number>;
  readonly tagCounts: ReadonlyMap<number, number>;
  readonly files: readonly FileRow[];
}

/** The user a request acts for: admins see every post, others published posts and their own. */
export type BaselineUser = BenchUser;

const INDEX_COLUMNS = ['id', 'title', 'published', 'published_on', 'view_count', 'rating', 'author_id'] as const;

/** Columns an index may be sorted by (the sortable fields of the index view). */
export const SORTABLE = new Set(['id', 'title', 'published', 'published_on', 'view_count', 'rating']);

function visibleTo<Q extends { where: (...args: any[]) => Q }>(query: Q, user: BaselineUser): Q {
  if (user.admin) return query;
  return query.where((eb: any) => eb.or([eb('published', '=', true), eb('author_id', '=', user.id)]));
}

/** The filters the bench's filtered endpoints send, parsed by hand: `filter[published]`, `filter[author_id]`, `filter[published_on][gte]`, `q`. */
export interface PostFilters {
  readonly published?: boolean;
  readonly authorId?: number;
  readonly publishedOnFrom?: string;
  /** The words of `q`: each in the title or the body, case-insensitively. */
  readonly words?: readonly string[];
}

const escapeLike = (word: string) => word.replace(/[\\%_]/g, (character) => `\\${character}`);

function filtered<Q extends { where: (...args: any[]) => Q }>(query: Q, filters: PostFilters | undefined): Q {
  if (!filters) return query;
  let narrowed = query;
  if (filters.published !== undefined) narrowed = narrowed.where('published', '=', filters.published);
  if (filters.authorId !== undefined) narrowed = narrowed.where('author_id', '=', filters.authorId);
  if (filters.publishedOnFrom !== undefined) narrowed = narrowed.where('published_on', '>=', filters.publishedOnFrom);
  for (const word of filters.words ?? []) {
    const pattern = `%${escapeLike(word)}%`;
    narrowed = narrowed.where((eb: any) => eb.or([eb('title', 'ilike', pattern), eb('body', 'ilike', pattern)]));
  }
  return narrowed;
}

/**
 * One page and the total, then the page's author names, comment counts and files: the page
 * query and the count in parallel, then the three batched look-ups in parallel (two round trips).
 */
export async function listPosts(
  db: Kysely<BaselineTables>,
  input: { user: BaselineUser; page: number; perPage: number; sortBy: string; direction: 'asc' | 'desc'; filters?: PostFilters },
): Promise<{ rows: PostRow[]; total: number; extras: PostExtras }> {
  const { user, page, perPage, sortBy, direction, filters } = input;
  let pageQuery = filtered(visibleTo(db.selectFrom('blog_posts').select(INDEX_COLUMNS), user), filters).orderBy(sortBy as 'id', direction);
  if (sortBy !== 'id') pageQuery = pageQuery.orderBy('id', direction);
  const countQuery = filtered(visibleTo(db.selectFrom('blog_posts').select((eb) => eb.fn.countAll<number>().as('count')), user), filters);
  const [rows, count] = await Promise.all([pageQuery.limit(perPage).offset((page - 1) * perPage).execute(), countQuery.executeTakeFirstOrThrow()]);
  return { rows, total: Number(count.count), extras: await loadExtras(db, rows) };
}

/** The author names, comment and tag counts and files of some posts, in four queries run in parallel. */
export async function loadExtras(db: Kysely<BaselineTables>, rows: readonly PostRow[]): Promise<PostExtras> {
  const ids = rows.map((row) => row.id);
  const authorIds = [...new Set(rows.map((row) => row.author_id).filter((id): id is number => id !== null))];
  if (ids.length === 0) return { authorNames: new Map(), commentCounts: new Map(), tagCounts: new Map(), files: [] };
  const [authors, counts, tags, files] = await Promise.all([
    authorIds.length === 0 ? [] : db.selectFrom('users').select(['id', 'name']).where('id', 'in', authorIds).execute(),
    db
      .selectFrom('comments')
      .select((eb) => ['blog_post_id', eb.fn.countAll<number>().as('count')])
      .where('blog_post_id', 'in', ids)
      .groupBy('blog_post_id')
      .execute(),
    db
      .selectFrom('blog_posts_tags')
      .select((eb) => ['blog_post_id', eb.fn.countAll<number>().as('count')])
      .where('blog_post_id', 'in', ids)
      .groupBy('blog_post_id')
      .execute(),
    db
      .selectFrom('panel_attachments as a')
      .innerJoin('panel_blobs as b', 'b.id', 'a.blob_id')
      .select(['a.record_id', 'a.name', 'a.position', 'b.key', 'b.filename', 'b.content_type', 'b.byte_size'])
      .where('a.record_type', '=', 'BlogPost')
      .where('a.name', 'in', ['cover', 'attachments'])
      .where('a.record_id', 'in', ids)
      .orderBy('a.position')
      .orderBy('a.id')
      .execute(),
  ]);
  return {
    authorNames: new Map(authors.map((author) => [author.id, author.name])),
    commentCounts: new Map(counts.map((count) => [count.blog_post_id, Number(count.count)])),
    tagCounts: new Map(tags.map((count) => [count.blog_post_id, Number(count.count)])),
    files,
  };
}

/** The post with that id if the user may see it; `forUpdate` locks its row until the transaction ends. */
export function findPost(db: Kysely<BaselineTables>, user: BaselineUser, id: number, forUpdate = false): Promise<FullPostRow | undefined> {
  const query = visibleTo(db.selectFrom('blog_posts').selectAll(), user).where('id', '=', id);
  return (forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

/** Whether a user with that id exists. */
export async function userExists(db: Kysely<BaselineTables>, id: number): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** Inserts a post and returns the stored row. */
export function insertPost(db: Kysely<BaselineTables>, values: Partial<FullPostRow>): Promise<FullPostRow> {
  return db.insertInto('blog_posts').values(values as FullPostRow).returningAll().executeTakeFirstOrThrow();
}

/** Updates a post and returns the stored row. */
export function updatePost(db: Kysely<BaselineTables>, id: number, values: Partial<FullPostRow>): Promise<FullPostRow> {
  return db.updateTable('blog_posts').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/**
 * Deletes a post with its attachments and the blobs no other record uses, in one transaction
 * (comments and tags go with the post by their foreign keys): the caller's, when it has one.
 */
export function deletePost(db: Kysely<BaselineTables>, id: number): Promise<void> {
  const remove = async (trx: Kysely<BaselineTables>) => {
    const removed = await trx.deleteFrom('panel_attachments').where('record_type', '=', 'BlogPost').where('record_id', '=', id).returning('blob_id').execute();
    if (removed.length > 0) await trx.deleteFrom('panel_blobs').where('id', 'in', removed.map((row) => row.blob_id)).execute();
    await trx.deleteFrom('blog_posts').where('id', '=', id).execute();
  };
  return db.isTransaction ? remove(db) : db.transaction().execute(remove);
}
