import { defineFieldType } from '../define-field-type.js';
import { jsonObjectType } from './json-object.js';

/** Any JSON object in a `jsonb` column. */
export const jsonField = defineFieldType(jsonObjectType({ name: 'json', builder: 'field.json', values: {} }));
