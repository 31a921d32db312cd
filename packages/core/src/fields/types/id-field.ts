import { defineFieldType } from '../define-field-type.js';
import { orderedFilter, parseFilterInteger } from '../field-filters.js';
import { ID_FORM } from '../field-forms.js';

/** The primary key: shown on index and show, never written, sortable. */
export const idField = defineFieldType({
  name: 'id',
  builder: 'field.id',
  defaultViews: ['index', 'show'],
  sortable: true,
  // No client writes the primary key: a constraint on it is about the record.
  constraintErrorsOn: 'base',
  filter: orderedFilter({ parse: parseFilterInteger, schema: () => ({ type: 'integer' }), cast: () => 'bigint' }),
  form: ID_FORM,
  serialize: ({ field, row }) => row[field.column!] ?? null,
  schema: (_field, direction) => (direction === 'read' ? { type: 'integer' } : undefined),
});
