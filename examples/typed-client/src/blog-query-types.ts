import type { BlogPostQuery } from './blog-client.js';

/**
 * What the compiler refuses in a blog post list's query, checked by `npm run typecheck` (each
 * `@ts-expect-error` fails the check if the line it marks ever compiles): the filters, the
 * search and the fieldset are typed by the OpenAPI document, so a wrong operator, a value of
 * the wrong type or an unknown field is a compile error, not a 400 at run time.
 */
export const acceptedQueries: BlogPostQuery[] = [
  { 'filter[published]': true, 'filter[author_id]': 1, q: 'tea', fields: ['title', 'author'] },
  { 'filter[view_count][gte]': 10, 'filter[published_on][lt]': '2026-02-01', 'filter[author_id][in]': [1, 2], sort_by: 'view_count' },
  { 'filter[title][contains]': 'post', 'filter[rating][null]': false },
];

export const refusedQueries: BlogPostQuery[] = [
  // @ts-expect-error `gte` is not an operator of a boolean field.
  { 'filter[published][gte]': true },
  // @ts-expect-error a view count is a number, not a string.
  { 'filter[view_count][gte]': 'ten' },
  // @ts-expect-error `body` is hidden on the index view: it can be neither filtered nor selected.
  { 'filter[body][contains]': 'tea' },
  // @ts-expect-error `fields` names the index view's fields only.
  { fields: ['body'] },
  // @ts-expect-error `in` takes an array of ids.
  { 'filter[author_id][in]': 1 },
];
