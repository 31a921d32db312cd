import type { FullPostRow } from './blog-post-queries.js';

/** Field → messages, as the API answers a 422. */
export type InputErrors = Record<string, string[]>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const WRITABLE = ['title', 'body', 'published', 'published_on', 'view_count', 'rating', 'author_id'] as const;

/**
 * Checks the attributes of a post write field by field, as a developer writes it by hand
 * (types, required title, lengths and ranges); unknown keys are ignored.
 */
export function parsePostInput(attributes: Record<string, unknown>, creating: boolean): { values: Partial<FullPostRow>; errors: InputErrors } {
  const values: Record<string, unknown> = {};
  const errors: InputErrors = {};
  const add = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  for (const key of WRITABLE) {
    if (!(key in attributes)) continue;
    const value = attributes[key];
    if (value === null) {
      values[key] = null;
      continue;
    }
    switch (key) {
      case 'title':
      case 'body':
        if (typeof value !== 'string') add(key, 'must be a string');
        else values[key] = value;
        break;
      case 'published':
        if (typeof value !== 'boolean') add(key, 'must be true or false');
        else values[key] = value;
        break;
      case 'published_on':
        if (typeof value !== 'string' || !DATE.test(value) || Number.isNaN(Date.parse(value))) add(key, 'must be a date in YYYY-MM-DD format');
        else values[key] = value;
        break;
      case 'view_count':
        if (typeof value !== 'number' || !Number.isSafeInteger(value)) add(key, 'must be an integer');
        else if (value < 0) add(key, 'must be greater than or equal to 0');
        else values[key] = value;
        break;
      case 'rating':
        if (typeof value !== 'number' || !Number.isFinite(value)) add(key, 'is not a number');
        else if (value < 0 || value > 5) add(key, value < 0 ? 'must be greater than or equal to 0' : 'must be less than or equal to 5');
        else values[key] = value;
        break;
      case 'author_id':
        if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) add('author', 'must be the id of a record (a positive integer)');
        else values[key] = value;
        break;
    }
  }
  const title = values.title;
  if ((creating || 'title' in values) && (typeof title !== 'string' || title.trim() === '')) add('title', "can't be blank");
  else if (typeof title === 'string' && title.length > 200) add('title', 'is too long (maximum is 200 characters)');
  return { values: values as Partial<FullPostRow>, errors };
}
