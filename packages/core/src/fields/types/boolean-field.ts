import { defineFieldType } from '../define-field-type.js';
import { BOOLEAN_FILTER } from '../field-filters.js';
import { columnValue, nullable } from './column-value.js';

/** A boolean column, written as `true` or `false`. */
export const booleanField = defineFieldType({
  name: 'boolean',
  builder: 'field.boolean',
  sortable: true,
  filter: BOOLEAN_FILTER,
  serialize: columnValue,
  schema: () => nullable('boolean'),
  parse: (value) => (typeof value === 'boolean' ? { ok: true, value } : { ok: false, message: 'must be true or false' }),
});
