import { defineFieldType } from '../define-field-type.js';
import { longTextType } from './long-text.js';

/** Markdown source in a text column, answered as the source (never rendered to HTML); hidden on index by default. */
export const markdownField = defineFieldType(longTextType('markdown', 'field.markdown', { contentMediaType: 'text/markdown' }));
