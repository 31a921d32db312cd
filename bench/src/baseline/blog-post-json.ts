import type { BaselineUser, FileRow, FullPostRow, PostExtras, PostRow } from './blog-post-queries.js';

/** A file as the API shows it. */
interface FileJson {
  filename: string;
  content_type: string;
  byte_size: number;
  url: string;
}

const fileJson = (file: FileRow): FileJson => ({
  filename: file.filename,
  content_type: file.content_type,
  byte_size: Number(file.byte_size),
  url: `/panel/attachments/${file.key}/${encodeURIComponent(file.filename)}`,
});

/** The cover (the file at the highest position) and the attachments (by position) of one post. */
function filesOf(extras: PostExtras, id: number): { cover: FileJson | null; attachments: FileJson[] } {
  let cover: FileRow | undefined;
  const attachments: FileJson[] = [];
  for (const file of extras.files) {
    if (file.record_id !== id) continue;
    if (file.name === 'cover') {
      if (!cover || file.position >= cover.position) cover = file;
    } else attachments.push(fileJson(file));
  }
  return { cover: cover ? fileJson(cover) : null, attachments };
}

/**
 * The demo's field rules, as a developer repeats them by hand: a post's `view_count` is read by
 * admins and the post's author only (the key is left out for anyone else), and an author's name
 * is shown to admins and to the author (a reader's scope on users is themselves alone).
 */
export const seesViewCount = (user: BaselineUser, row: PostRow): boolean => user.admin || row.author_id === user.id;
const seesAuthorName = (user: BaselineUser, authorId: number): boolean => user.admin || authorId === user.id;

function associations(row: PostRow, extras: PostExtras, user: BaselineUser) {
  const { cover, attachments } = filesOf(extras, row.id);
  return {
    author: row.author_id === null ? null : { id: row.author_id, label: seesAuthorName(user, row.author_id) ? (extras.authorNames.get(row.author_id) ?? null) : null },
    comments: { count: extras.commentCounts.get(row.id) ?? 0 },
    tag_list: { count: extras.tagCounts.get(row.id) ?? 0 },
    cover,
    attachments,
  };
}

/** A post on the index: the index view's fields, in the resource's order. */
export function indexJson(row: PostRow, extras: PostExtras, user: BaselineUser): Record<string, unknown> {
  const { author, comments, tag_list, cover, attachments } = associations(row, extras, user);
  return {
    id: row.id,
    title: row.title,
    published: row.published,
    published_on: row.published_on,
    ...(seesViewCount(user, row) ? { view_count: row.view_count } : {}),
    rating: row.rating,
    author,
    comments,
    tag_list,
    cover,
    attachments,
  };
}

/** A post on the show view (every field). */
export function showJson(row: FullPostRow, extras: PostExtras, user: BaselineUser): Record<string, unknown> {
  const { author, comments, tag_list, cover, attachments } = associations(row, extras, user);
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    body: row.body,
    published: row.published,
    published_on: row.published_on,
    ...(seesViewCount(user, row) ? { view_count: row.view_count } : {}),
    rating: row.rating,
    author,
    comments,
    tag_list,
    cover,
    attachments,
    created_at: row.created_at.toISOString(),
  };
}

/** The pagination envelope. */
export function paginationJson(page: number, perPage: number, total: number) {
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  return { page, per_page: perPage, total_pages: totalPages, total_count: total, has_next_page: page < totalPages, has_prev_page: page > 1 };
}
