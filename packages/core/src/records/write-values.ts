import type { ErrorMessages } from '../errors/panel-errors.js';
import { writableFields, type CompiledField, type CompiledResource } from '../resources/compiled-resource.js';
import type { ColumnValues } from './record-row.js';
import { RecordErrors } from '../validation/record-errors.js';
import { checkFieldRules } from '../validation/field-rules.js';
import { textProblem } from '../validation/text-problem.js';
import { namesFileField, readFileChange, removeKey, type FileChange } from '../uploads/file-changes.js';

export { MAX_RECORD_ID } from '../fields/max-record-id.js';

/** A parsed write: column values ready for the records layer, and per-field messages. */
export interface ParsedWrite {
  readonly values: ColumnValues;
  readonly errors: ErrorMessages;
  /** What the write does to its file fields (uploads to attach, files to remove), in field order; absent when it names none. */
  readonly files?: readonly FileChange[];
}

const isNull = (value: unknown): boolean => value === null || value === undefined;

/**
 * Turns the attributes of a write body into column values. Only the fields writable on the
 * view are read (others are ignored, as strong parameters do), each under its write key (a
 * `belongs_to` from `<name>_id`); each field's type module parses its value. Type mistakes,
 * text with a NUL character or a lone surrogate, blank required fields and the field rules
 * (length, range, format, inclusion) come back as per-field messages. `fields` narrows the
 * fields read (the actor's, from `fieldAccess`); by default every field writable on the view.
 */
export function parseWriteValues(
  resource: CompiledResource,
  view: 'new' | 'edit',
  attributes: Record<string, unknown>,
  fields: readonly CompiledField[] = writableFields(resource, view),
): ParsedWrite {
  const values: ColumnValues = {};
  const errors = new RecordErrors();
  const files: FileChange[] = [];
  for (const field of fields) {
    const { kind } = field;
    if (kind.attachments) {
      // A file field has no column: its value names uploads (and, for `files`, the files to remove).
      if (namesFileField(field, attributes)) {
        const change = readFileChange(field, attributes, errors);
        if (change) files.push(change);
      } else if (view === 'new' && field.required) errors.add(field.name, "can't be blank");
      continue;
    }
    const present = Object.hasOwn(attributes, field.writeKey);
    if (!present) {
      if (view === 'new' && field.required) errors.add(field.name, "can't be blank");
      continue;
    }
    const raw = attributes[field.writeKey];
    if ((kind.isBlank ?? isNull)(raw)) {
      if (field.required) {
        errors.add(field.name, "can't be blank");
        continue;
      }
      // A type may keep the stored value on a blank write (a password left empty on an edit form).
      const blank = kind.blankValue ? kind.blankValue(raw) : null;
      if (blank !== undefined) values[field.column!] = blank;
      continue;
    }
    // Text no type may store (NUL, a lone surrogate) is the field's 422, never the database's error.
    const problem = textProblem(raw);
    if (problem) {
      errors.add(field.name, problem);
      continue;
    }
    const parsed = kind.parse!(raw, field);
    if (!parsed.ok) {
      errors.add(field.name, parsed.message);
      continue;
    }
    values[field.column!] = parsed.value;
    checkFieldRules(field, parsed.value, errors);
  }
  return { values, errors: errors.toJSON(), ...(files.length > 0 ? { files } : {}) };
}

/**
 * The keys of a write body that are not the write key of one of `fields`: unknown keys and
 * keys the actor may not write, alike (the answer never tells them apart).
 */
export function unpermittedKeys(attributes: Record<string, unknown>, fields: readonly CompiledField[]): string[] {
  const keys = new Set(fields.flatMap((field) => (field.kind.attachments === 'many' ? [field.writeKey, removeKey(field)] : [field.writeKey])));
  return Object.keys(attributes).filter((key) => !keys.has(key));
}

/** The message an unknown or unpermitted key gets when the API rejects them (`unpermittedAttributes: 'reject'`). */
export const UNPERMITTED_KEY_MESSAGE = 'is not a permitted attribute';
