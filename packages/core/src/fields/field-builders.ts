import type {
  BelongsToOptions,
  FieldDefinition,
  FieldOptions,
  FieldType,
  HasAssociationOptions,
  HasAndBelongsToManyOptions,
  JsonFieldOptions,
  SelectFieldOptions,
  TagsFieldOptions,
} from './field-types.js';

/**
 * A field definition of any type, built-in or an app's own (registered with
 * `createPanel({ fieldTypes })`): what the `field` helpers build.
 *
 * @example
 * defineField('rating', 'stars', { required: true })
 */
export function defineField(type: FieldType, name: string, options: object = {}): FieldDefinition {
  if (typeof type !== 'string' || type === '') throw new TypeError(`defineField: the type must be a field type name such as "text", instead got ${JSON.stringify(type)}.`);
  return define(type, name, options);
}

function define(type: FieldType, name: string, options: object = {}): FieldDefinition {
  if (typeof name !== 'string' || !/^[a-z_][a-z0-9_]*$/i.test(name)) {
    throw new TypeError(
      `field.${type}: the field name must be an identifier such as "title", instead got ${JSON.stringify(name)}.`,
    );
  }
  return Object.freeze({ name, type, options: Object.freeze({ ...options }) });
}

/**
 * Builders for the field definitions a resource's `fields()` returns.
 *
 * @example
 * fields() {
 *   return [
 *     field.id(),
 *     field.text('title', { required: true }),
 *     field.text('body', { hideOn: 'index' }),
 *     field.belongsTo('author', { resource: 'User', label: 'name' }),
 *     field.hasMany('comments'),
 *   ];
 * }
 */
export const field = Object.freeze({
  /** The primary key (`id`), shown on index and show, never written. */
  id: (name = 'id', options: FieldOptions = {}) => define('id', name, options),
  /** A string column. */
  text: (name: string, options: FieldOptions = {}) => define('text', name, options),
  /** An integer column. */
  integer: (name: string, options: FieldOptions = {}) => define('number', name, { ...options, numeric: 'integer' }),
  /** A `numeric` column; serialized as a JSON number. */
  decimal: (name: string, options: FieldOptions = {}) => define('number', name, { ...options, numeric: 'decimal' }),
  /** A boolean column. */
  boolean: (name: string, options: FieldOptions = {}) => define('boolean', name, options),
  /** A `date` column, `YYYY-MM-DD` in JSON. */
  date: (name: string, options: FieldOptions = {}) => define('date', name, options),
  /** A `timestamptz` column, ISO 8601 in UTC in JSON. */
  datetime: (name: string, options: FieldOptions = {}) => define('datetime', name, options),
  /** A foreign key, serialized as `{ id, label }` and written as `<name>_id`. */
  belongsTo: (name: string, options: BelongsToOptions = {}) => define('belongs_to', name, options),
  /** The other side of a foreign key, serialized as `{ count }`. */
  hasMany: (name: string, options: HasAssociationOptions = {}) => define('has_many', name, options),
  /** The other side of a unique foreign key, serialized as `{ id }` or `null`. */
  hasOne: (name: string, options: HasAssociationOptions = {}) => define('has_one', name, options),
  /** One attached file, serialized as `{ filename, content_type, byte_size, url }` or `null`. */
  file: (name: string, options: FieldOptions = {}) => define('file', name, options),
  /** Several attached files, serialized as an array of file objects. */
  files: (name: string, options: FieldOptions = {}) => define('files', name, options),
  /** A value from `options` (strings or `{ value, label }`), stored as text. */
  select: (name: string, options: SelectFieldOptions) => define('select', name, options),
  /** Long text; hidden on index by default. */
  textarea: (name: string, options: FieldOptions = {}) => define('textarea', name, options),
  /** Markdown source; hidden on index by default. */
  markdown: (name: string, options: FieldOptions = {}) => define('markdown', name, options),
  /** A write-only password, stored as a scrypt digest in `<name>_digest`; never serialized. */
  password: (name: string, options: FieldOptions = {}) => define('password', name, options),
  /** An array of strings in a `text[]` column. */
  tags: (name: string, options: TagsFieldOptions = {}) => define('tags', name, options),
  /** An object of string values in a `jsonb` column. */
  keyValue: (name: string, options: JsonFieldOptions = {}) => define('key_value', name, options),
  /** Any JSON object in a `jsonb` column. */
  json: (name: string, options: JsonFieldOptions = {}) => define('json', name, options),
  /** Many-to-many through a join table, serialized as `{ count }`. */
  hasAndBelongsToMany: (name: string, options: HasAndBelongsToManyOptions = {}) => define('has_and_belongs_to_many', name, options),
});
