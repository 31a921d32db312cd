import { defineFieldType } from '../define-field-type.js';
import { jsonObjectType } from './json-object.js';

/** Keys to string values (Avo's KeyValue) in a `jsonb` column: `{ "weight": "1.2 kg" }`. */
export const keyValueField = defineFieldType(
  jsonObjectType({
    name: 'key_value',
    builder: 'field.keyValue',
    values: { type: 'string' },
    checkValues: (object) => (Object.values(object).every((value) => typeof value === 'string') ? undefined : 'must map each key to a string'),
  }),
);
