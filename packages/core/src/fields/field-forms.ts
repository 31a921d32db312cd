import type { CompiledField, FieldDisplay, FieldForm, FormControl } from '../resources/compiled-types.js';
import { fileControlHint } from '../uploads/file-rules.js';
import { keyOfField } from './key-values.js';
import { splitTags, tagsText } from './tags-text.js';

export type { FieldDisplay, FieldForm, FormControl };

/** A form, frozen (typed here so that its members are checked against `FieldForm`). */
const formOf = (form: FieldForm): FieldForm => Object.freeze(form);

/** Nothing to show. */
const EMPTY: FieldDisplay = Object.freeze({ kind: 'empty' });

/** The last of the posted strings (a form posts a control once; a repeated key keeps the last, as Rails does). */
const last = (posted: readonly string[]): string => posted.at(-1) ?? '';

/** The posted string, or null when it is empty: a blank number, date or choice is no value. */
const orNull = (posted: readonly string[]): string | null => {
  const value = last(posted).trim();
  return value === '' ? null : value;
};

const isMissing = (value: unknown): value is null | undefined => value === null || value === undefined;

/** A value shown as one line of text; nothing for null or an empty string. */
export function textDisplay(value: unknown): FieldDisplay {
  return isMissing(value) || value === '' ? EMPTY : { kind: 'text', text: String(value) };
}

/**
 * How a value of a type without `form` is shown: its JSON (an app type the screens know
 * nothing else about). Such a field is left off forms.
 */
export function jsonDisplay(value: unknown): FieldDisplay {
  return isMissing(value) ? EMPTY : { kind: 'json', text: JSON.stringify(value, null, 2) };
}

/** The control's value of a scalar: the value as text, or empty. */
const asText = (value: unknown): readonly string[] => [isMissing(value) ? '' : String(value)];

/**
 * One line of text: posted as typed (an empty input is an empty string, which `required` counts
 * as blank). A text input cannot post a line break, so one comes only from the text area the
 * screens show a value holding line breaks in: its CRLF (and lone CR) is made LF, as a text
 * area field's is.
 */
export const TEXT_FORM = formOf({
  display: textDisplay,
  control: () => ({ kind: 'text' }),
  formValue: asText,
  fromForm: (posted: readonly string[]) => last(posted).replace(/\r\n?/g, '\n'),
});

/**
 * Long text (`textarea`, `markdown`): a text area, shown with its line breaks. A browser posts
 * a text area's line breaks as CRLF; the value is the HTML standard's "API value" of the text
 * area, each CRLF and lone CR made LF, so that saving a form never changes the line breaks an
 * API client wrote nor counts them twice against `maxLength`.
 */
export const LONG_TEXT_FORM = formOf({
  display: (value: unknown) => (isMissing(value) || value === '' ? EMPTY : { kind: 'multiline', text: String(value) }),
  control: () => ({ kind: 'textarea' }),
  formValue: asText,
  fromForm: (posted: readonly string[]) => last(posted).replace(/\r\n?/g, '\n'),
});

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * A number: a text input (`inputmode` decimal or numeric, as GOV.UK advises rather than
 * `type="number"`); empty is null; digits become a number, anything else stays text so that
 * the type answers "is not a number".
 */
export const NUMBER_FORM = formOf({
  display: textDisplay,
  control: (field: CompiledField): FormControl => ({ kind: 'text', inputmode: field.numeric === 'decimal' ? 'decimal' : 'numeric' }),
  formValue: asText,
  fromForm: (posted: readonly string[]) => {
    const value = orNull(posted);
    return value !== null && NUMBER.test(value) ? Number(value) : value;
  },
});

/** A bigint: a numeric text input; the digits are kept as text, so that none is rounded away. */
export const BIGINT_FORM = formOf({
  display: textDisplay,
  control: (): FormControl => ({ kind: 'text', inputmode: 'numeric' }),
  formValue: asText,
  fromForm: orNull,
});

/** A boolean: a checkbox posting `true` after a hidden `false`, so that unticking it writes false. */
export const BOOLEAN_FORM = formOf({
  display: (value: unknown) => (typeof value === 'boolean' ? { kind: 'yes_no', value } : EMPTY),
  control: () => ({ kind: 'checkbox' }),
  formValue: (value: unknown) => (value === true ? ['true'] : []),
  fromForm: (posted: readonly string[]) => last(posted) === 'true',
});

/** A calendar date: a date input (`YYYY-MM-DD` both ways); empty is null. */
export const DATE_FORM = formOf({
  display: textDisplay,
  control: () => ({ kind: 'date' }),
  formValue: asText,
  fromForm: orNull,
});

const LOCAL_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?$/;

/**
 * A moment: a `datetime-local` input read as UTC (a zone is added to what the browser sends);
 * shown as `2026-01-01 09:00 UTC`; empty is null.
 */
export const DATETIME_FORM = formOf({
  display: (value: unknown) => (typeof value === 'string' ? { kind: 'text', text: `${value.slice(0, 16).replace('T', ' ')} UTC` } : EMPTY),
  control: () => ({ kind: 'datetime', hint: 'In UTC.' }),
  formValue: (value: unknown) => [typeof value === 'string' ? value.slice(0, 19) : ''],
  fromForm: (posted: readonly string[]) => {
    const value = orNull(posted);
    return value !== null && LOCAL_DATETIME.test(value) ? `${value}Z` : value;
  },
});

const WHOLE = /^\d{1,16}$/;

/** `{ id, label }` (a `belongs_to`) or `{ id }` (a `has_one`) as a link to the record. */
function recordDisplay(value: unknown): FieldDisplay {
  if (isMissing(value) || typeof value !== 'object') return EMPTY;
  const { id, label } = value as { id?: unknown; label?: unknown };
  if (typeof id !== 'number' && typeof id !== 'string') return EMPTY;
  return { kind: 'record', id, label: isMissing(label) ? null : String(label) };
}

/** A record of another resource (`belongs_to`): a choice among the target's records, or its id; empty is null. */
export const RECORD_FORM = formOf({
  display: recordDisplay,
  control: (field: CompiledField): FormControl => ({ kind: 'record', target: field.target! }),
  formValue: (value: unknown) => {
    const id = (value as { id?: unknown } | null)?.id;
    return [typeof id === 'number' || typeof id === 'string' ? String(id) : ''];
  },
  fromForm: (posted: readonly string[], field: CompiledField) => {
    const value = orNull(posted);
    // Only an integer key is a number: a text key of digits ('00123') and a bigint past 2^53 keep their text.
    const type = keyOfField(field, 'targetKey')?.type ?? 'integer';
    return value !== null && type === 'integer' && WHOLE.test(value) ? Number(value) : value;
  },
});

/** The one record on the other side of a unique foreign key (`has_one`, answered only when readable): a link by its id; never on a form. */
export const HAS_ONE_FORM = formOf({
  display: (value: unknown) => {
    const shown = recordDisplay(value);
    return shown.kind === 'record' ? { ...shown, label: `#${shown.id}` } : shown;
  },
});

/** How many records belong to this one (`has_many`, `has_and_belongs_to_many`): a panel on show; never on a form. */
export const COUNT_FORM = formOf({
  display: (value: unknown) => ({ kind: 'count', count: Number((value as { count?: unknown } | null)?.count ?? 0) }),
});

/**
 * Attached files (`file`, `files`): download links; a file input (several files for `files`).
 * The form posts the upload ids of the files received with it (and of those kept from before a
 * 422): the last one for `file` (it replaces the file), all of them for `files` (added). None
 * leaves the files as they are.
 */
export const FILES_FORM = formOf({
  display: (value: unknown) => {
    const list = (Array.isArray(value) ? value : isMissing(value) ? [] : [value]) as { filename: string; url: string; content_type: string; byte_size: number }[];
    return list.length === 0 ? EMPTY : { kind: 'files', files: list.map((file) => ({ filename: file.filename, url: file.url, contentType: file.content_type, byteSize: file.byte_size })) };
  },
  control: (field: CompiledField): FormControl => ({ kind: 'file', multiple: field.kind.attachments === 'many', hint: fileControlHint(field) }),
  formValue: () => [],
  fromForm: (posted: readonly string[], field: CompiledField) => {
    const ids = posted.filter((id) => id !== '');
    if (ids.length === 0) return undefined;
    return field.kind.attachments === 'many' ? ids : ids.at(-1);
  },
});

/** The label of each option of a `select` (its `{ value, label }`, or the value itself). */
function optionsOf(field: CompiledField): { value: string; label: string }[] {
  const declared = field.definition.options.options;
  return (Array.isArray(declared) ? declared : []).map((option: unknown) => (typeof option === 'string' ? { value: option, label: option } : (option as { value: string; label: string })));
}

/** A value from a fixed list: a select of the options (shown by label); the empty choice is null. */
export const SELECT_FORM = formOf({
  display: (value: unknown, field: CompiledField) => (typeof value === 'string' ? { kind: 'text', text: optionsOf(field).find((option) => option.value === value)?.label ?? value } : EMPTY),
  control: (field: CompiledField): FormControl => ({ kind: 'select', options: optionsOf(field) }),
  formValue: asText,
  fromForm: orNull,
});

/** A secret: a password input, always empty; left empty, the stored secret is kept. */
export const PASSWORD_FORM = formOf({
  display: () => EMPTY,
  control: () => ({ kind: 'password', hint: 'Leave empty to keep the current one.' }),
  formValue: () => [''],
  fromForm: (posted: readonly string[]) => (last(posted) === '' ? undefined : last(posted)),
});

/** A list of strings: one text input, comma-separated; shown as a list. */
export const TAGS_FORM = formOf({
  display: (value: unknown) => (Array.isArray(value) && value.length > 0 ? { kind: 'list', items: value.map(String) } : EMPTY),
  control: () => ({ kind: 'text', hint: 'Separate them with commas; write \\, for a comma inside a tag.' }),
  formValue: (value: unknown) => [Array.isArray(value) ? tagsText(value.map(String)) : ''],
  fromForm: (posted: readonly string[]) =>
    splitTags(last(posted))
      .map((tag) => tag.trim())
      .filter((tag) => tag !== ''),
});

/**
 * A JSON object (`json`, `key_value`): a text area holding its JSON; empty is null; text that
 * is not JSON stays text, so that the type answers "must be an object".
 */
export const JSON_OBJECT_FORM = formOf({
  display: jsonDisplay,
  control: () => ({ kind: 'textarea', hint: 'A JSON object, such as {"key": "value"}.' }),
  formValue: (value: unknown) => [isMissing(value) ? '' : JSON.stringify(value, null, 2)],
  fromForm: (posted: readonly string[]) => {
    const value = orNull(posted);
    if (value === null) return null;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  },
});

/** The identifier: shown, never on a form. */
export const ID_FORM = formOf({ display: textDisplay });
