import { defineFieldType } from '../define-field-type.js';
import { longTextType } from './long-text.js';

/** Long plain text in a text column; hidden on index by default. */
export const textareaField = defineFieldType(longTextType('textarea', 'field.textarea'));
