import { defineFieldType } from '../define-field-type.js';
import { TAGS_FILTER } from '../field-filters.js';
import { columnValue } from './column-value.js';
import { TAGS_FORM } from '../field-forms.js';

/** The most tags one value holds, and the longest tag, unless the field says otherwise (`maxTags`, `maxLength`). */
export const TAGS_LIMITS = Object.freeze({ maxTags: 100, maxLength: 100 });

/**
 * A list of strings in a `text[]` column, answered as a JSON array; written as an array of
 * strings, each trimmed (duplicates kept once, in order); never sorted. A tag may hold any
 * character but NUL, a comma included: the screens' comma-separated text escapes it (`\\,`,
 * `TAGS_FORM`). An empty array is blank for `required`.
 */
export const tagsField = defineFieldType({
  name: 'tags',
  builder: 'field.tags',
  filter: TAGS_FILTER,
  form: TAGS_FORM,
  serialize: columnValue,
  schema: (field, direction) => {
    const items = { type: 'string', ...(direction === 'write' ? { minLength: 1, maxLength: field.definition.options.maxLength ?? TAGS_LIMITS.maxLength } : {}) };
    return { type: ['array', 'null'], items, ...(direction === 'write' ? { maxItems: (field.definition.options.maxTags as number | undefined) ?? TAGS_LIMITS.maxTags } : {}) };
  },
  parse: (value, field) => {
    if (!Array.isArray(value) || value.some((tag) => typeof tag !== 'string')) return { ok: false, message: 'must be an array of strings' };
    const maxTags = (field.definition.options.maxTags as number | undefined) ?? TAGS_LIMITS.maxTags;
    const maxLength = field.definition.options.maxLength ?? TAGS_LIMITS.maxLength;
    const trimmed = (value as string[]).map((tag) => tag.trim());
    if (trimmed.some((tag) => tag === '' || tag.includes('\u0000'))) return { ok: false, message: 'must not contain a blank tag' };
    const tags = [...new Set(trimmed)];
    if (tags.length > maxTags) return { ok: false, message: `has too many tags (maximum is ${maxTags})` };
    if (tags.some((tag) => [...tag].length > maxLength)) return { ok: false, message: `has a tag that is too long (maximum is ${maxLength} characters)` };
    return { ok: true, value: tags };
  },
  isBlank: (value) => value === null || value === undefined || (Array.isArray(value) && value.length === 0),
  blankValue: (value) => (Array.isArray(value) ? [] : null),
});
