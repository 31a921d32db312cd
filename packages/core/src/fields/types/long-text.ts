import type { JsonSchema } from '../../resources/compiled-types.js';
import { TEXT_FILTER } from '../field-filters.js';
import type { FieldTypeDefinition } from '../define-field-type.js';
import { columnValue, nullable } from './column-value.js';
import { isBlankString, parseString, stringWriteSchema } from './text-field.js';
import { LONG_TEXT_FORM } from '../field-forms.js';

/**
 * What `textarea` and `markdown` share: long text in a text column, off the index by default
 * (as Avo does), not sortable; a blank write keeps the string as sent. `keywords` are added to
 * both schemas (markdown's `contentMediaType`).
 */
export function longTextType(name: string, builder: string, keywords: JsonSchema = {}): FieldTypeDefinition {
  return {
    name,
    builder,
    defaultViews: ['show', 'new', 'edit'],
    filter: TEXT_FILTER,
    searchable: true,
    form: LONG_TEXT_FORM,
          serialize: columnValue,
    schema: (field, direction) => ({ ...(direction === 'read' ? nullable('string') : stringWriteSchema(field)), ...keywords }),
    parse: parseString,
    isBlank: isBlankString,
    blankValue: (value) => value ?? null,
  };
}
