import { defineFieldType } from '../define-field-type.js';
import { orderedFilter } from '../field-filters.js';
import { keyFilterParts, keyJson, keySchema } from '../key-values.js';
import { ID_FORM } from '../field-forms.js';

/** The primary key: shown on index and show, never written, sortable. */
export const idField = defineFieldType({
  name: 'id',
  recordKey: true,
  builder: 'field.id',
  defaultViews: ['index', 'show'],
  sortable: true,
  // No client writes the primary key: a constraint on it is about the record.
  constraintErrorsOn: 'base',
  // Parsed, described and cast as the resource's key (`static primaryKeyType`): an integer by default.
  filter: orderedFilter(keyFilterParts('ownKey')),
  form: ID_FORM,
  serialize: ({ field, row }) => keyJson(field, 'ownKey', row[field.column!] ?? null),
  schema: (field, direction) => (direction === 'read' ? keySchema(field, 'ownKey') : undefined),
});
