import type {
  BelongsToOptions,
  DecimalFieldOptions,
  FieldDefinition,
  FieldOptions,
  FileFieldOptions,
  FieldType,
  HasAssociationOptions,
  HasAndBelongsToManyOptions,
  JsonFieldOptions,
  SelectFieldOptions,
  TagsFieldOptions,
} from './field-types.js';
import { checkFieldOptionKeys } from './field-option-keys.js';
import { PanelConfigError } from '../errors/panel-errors.js';

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

/** A field builder: the field name, then the options of its type. */
export type FieldBuilder<Options extends FieldOptions = FieldOptions> = (name: string, options?: Options) => FieldDefinition;

function builder<Options extends FieldOptions = FieldOptions>(type: FieldType, fixed: object = {}): FieldBuilder<Options> {
  return (name, options) => define(type, name, { ...options, ...fixed });
}

const decimal = builder<DecimalFieldOptions>('number', { numeric: 'decimal' });

/** `field.decimal`: a `scale` that no numeric column has is refused where it is declared. */
function decimalBuilder(name: string, options: DecimalFieldOptions = {}): FieldDefinition {
  const { scale } = options;
  if (scale !== undefined && !(Number.isInteger(scale) && scale >= 0 && scale <= 1000)) {
    throw new PanelConfigError(`field.decimal('${name}'): the scale option must be a whole number from 0 to 1000 (the decimal places its numeric column keeps), instead got ${JSON.stringify(scale)}. Fix: declare the column's scale, 2 for numeric(10, 2).`);
  }
  return decimal(name, options);
}

/** The built-in builders, unchecked; `field` is them with their option keys checked. */
const builders = {
  id: (name = 'id', options: FieldOptions = {}) => define('id', name, options),
  // Values in a column of the row.
  text: builder('text'), boolean: builder('boolean'), date: builder('date'), datetime: builder('datetime'),
  integer: builder('number', { numeric: 'integer' }), decimal: decimalBuilder, bigint: builder('bigint'),
  textarea: builder('textarea'), markdown: builder('markdown'), password: builder('password'),
  select: builder<SelectFieldOptions>('select') as (name: string, options: SelectFieldOptions) => FieldDefinition,
  tags: builder<TagsFieldOptions>('tags'), keyValue: builder<JsonFieldOptions>('key_value'), json: builder<JsonFieldOptions>('json'),
  // Associations.
  belongsTo: builder<BelongsToOptions>('belongs_to'), hasMany: builder<HasAssociationOptions>('has_many'), hasOne: builder<HasAssociationOptions>('has_one'),
  hasAndBelongsToMany: builder<HasAndBelongsToManyOptions>('has_and_belongs_to_many'),
  // Attachments.
  file: builder<FileFieldOptions>('file'), files: builder<FileFieldOptions>('files'),
};

/** Each builder, refusing an option key it does not take (`{ requried: true }`), with a "did you mean". */
function checked<Builders extends object>(all: Builders): Builders {
  const entries = Object.entries(all).map(([builderName, build]) => [
    builderName,
    (name?: string, options?: object) => {
      if (options !== undefined && options !== null && typeof options === 'object') checkFieldOptionKeys(builderName, name ?? 'id', options);
      return (build as (name?: string, options?: object) => FieldDefinition)(name, options);
    },
  ]);
  return Object.freeze(Object.fromEntries(entries)) as Builders;
}

/**
 * Builders for the field definitions a resource's `fields()` returns, one per built-in type
 * (`docs/resources.md` documents each):
 *
 * | builder | type | |
 * |---|---|---|
 * | `id(name = 'id')` | `id` | the primary key, shown on index and show, never written |
 * | `text`, `boolean`, `date`, `datetime` | same | a column; dates `YYYY-MM-DD`, datetimes ISO 8601 in UTC |
 * | `integer`, `decimal` | `number` | an `integer` or `numeric` column, a JSON number |
 * | `bigint` | `bigint` | a `bigint` column, a JSON string of its exact digits (`format: int64`) |
 * | `textarea`, `markdown` | same | long text, hidden on index by default |
 * | `select(name, { options })` | `select` | a value from `options` (strings or `{ value, label }`) |
 * | `password` | `password` | write-only, stored as a scrypt digest in `<name>_digest` |
 * | `tags` | `tags` | an array of strings (`text[]`) |
 * | `keyValue`, `json` | `key_value`, `json` | an object (`jsonb`) of strings, or of anything |
 * | `belongsTo` | `belongs_to` | a foreign key: `{ id, label }`, written as `<name>_id` |
 * | `hasMany`, `hasOne` | `has_many`, `has_one` | the other side of a foreign key: `{ count }`, `{ id }` or null |
 * | `hasAndBelongsToMany` | `has_and_belongs_to_many` | through a join table: `{ count }` |
 * | `file`, `files` | same | attachments: a file object or null, an array of them |
 *
 * @example
 * fields() {
 *   return [
 *     field.id(),
 *     field.text('title', { required: true }),
 *     field.textarea('summary'),
 *     field.select('status', { options: ['draft', 'active', 'archived'] }),
 *     field.belongsTo('author', { resource: 'User', label: 'name' }),
 *     field.hasMany('comments'),
 *   ];
 * }
 *
 * An option key the builder does not take is refused at once, with the closest known one:
 * `field.text('title', { requried: true })` throws `field.text('title'): unknown option "requried".
 * Did you mean "required"? …`.
 */
export const field = checked(builders);
