import type { FieldDefinition } from '../field-types.js';
import { defineFieldType } from '../define-field-type.js';
import { hashPassword } from '../../passwords/password-hash.js';
import { parseString } from './text-field.js';
import { PASSWORD_FORM } from '../field-forms.js';

/** The longest password taken: hashing a megabyte on every sign-in would be a denial of service. */
export const MAX_PASSWORD_LENGTH = 1024;

function checkOptions(definition: FieldDefinition): string | undefined {
  const { onlyOn, showOn } = definition.options;
  const views = [onlyOn, showOn].flat().filter((view) => view !== undefined);
  if (views.some((view) => view === 'index' || view === 'show')) {
    return `a password is write-only: it is never shown on index or show. Fix: remove ${views.join(', ')} from its onlyOn / showOn.`;
  }
  return undefined;
}

/**
 * A write-only secret: written as `<name>` in plain text, stored only as a scrypt digest
 * (`hashPassword`) in the column `<name>_digest`, never serialized on any view and never
 * selected for one. A blank write on an edit keeps the stored digest. `minLength` applies to
 * the password as sent; it is at most 1024 characters.
 */
export const passwordField = defineFieldType({
  name: 'password',
  credential: true,
  builder: 'field.password',
  defaultViews: ['new', 'edit'],
  checkOptions,
  compile: ({ name, options }) => ({ column: options.column ?? `${name}_digest` }),
  form: PASSWORD_FORM,
  serialize: () => undefined,
  schema: (field, direction) => {
    if (direction === 'read') return undefined;
    const { minLength } = field.definition.options;
    return { type: ['string', 'null'], writeOnly: true, maxLength: MAX_PASSWORD_LENGTH, ...(minLength === undefined ? {} : { minLength }) };
  },
  parse: (value) => {
    const parsed = parseString(value);
    if (parsed.ok && (parsed.value as string).length > MAX_PASSWORD_LENGTH) return { ok: false, message: `is too long (maximum is ${MAX_PASSWORD_LENGTH} characters)` };
    return parsed;
  },
  isBlank: (value) => value === null || value === undefined || value === '',
  blankValue: () => undefined,
  prepare: (value) => hashPassword(value as string),
});
