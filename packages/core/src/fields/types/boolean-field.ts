import { defineFieldType } from '../define-field-type.js';
import { BOOLEAN_FILTER } from '../field-filters.js';
import { columnValue, nullable } from './column-value.js';
import { BOOLEAN_FORM } from '../field-forms.js';

/** A boolean column, written as `true` or `false`. */
export const booleanField = defineFieldType({
  name: 'boolean',
  builder: 'field.boolean',
  sortable: true,
  filter: BOOLEAN_FILTER,
  form: BOOLEAN_FORM,
  serialize: columnValue,
  schema: () => nullable('boolean'),
  parse: (value) => (typeof value === 'boolean' ? { ok: true, value } : { ok: false, message: 'must be true or false' }),
});
