// What an edit form changed: the digests of what it showed, and an update's attributes less what was left as shown.
import { createHash } from 'node:crypto';
import type { CompiledField, ErrorMessages, RecordRow } from '@panel/core';
import { fieldJson } from '@panel/api';

/** The hidden control of an edit form that says what the form showed: a digest per write key (`shownDigests`). */
export const SHOWN_VALUES = 'shown_values';

/**
 * A digest of the write value that `strings`, posted for `field`'s control, make (its type's
 * `fromForm`), line breaks counted alike (a browser posts a text area's as CRLF whatever it was
 * shown); undefined for a field this comparison does not cover: a file field (its part is a new
 * upload or nothing) and one whose posted strings write nothing (an empty password).
 */
export function formDigest(field: CompiledField, strings: readonly string[]): string | undefined {
  const fromForm = field.kind.form?.fromForm;
  if (!fromForm || field.kind.attachments !== undefined) return undefined;
  const value = fromForm(strings.map((one) => one.replace(/\r\n?/g, '\n')), field);
  if (value === undefined) return undefined;
  return createHash('sha256').update(JSON.stringify(value) ?? '').digest('base64url').slice(0, 22);
}

/** The digest of each of `fields`' stored value on `row` as its control shows it (`formValue`), by write key. */
export function shownDigests(fields: Iterable<CompiledField>, row: RecordRow): Record<string, string> {
  const digests: Record<string, string> = {};
  for (const field of fields) {
    const formValue = field.kind.form?.formValue;
    const digest = formValue && formDigest(field, formValue(fieldJson({ field, row, view: 'edit' }), field));
    if (digest !== undefined) digests[field.writeKey] = digest;
  }
  return digests;
}

/** The digests an edit form posted back in its `shown_values` control; undefined when there is none or it is not what a form writes. */
function postedDigests(posted: unknown): Readonly<Record<string, unknown>> | undefined {
  if (typeof posted !== 'string') return undefined;
  try {
    const digests: unknown = JSON.parse(posted);
    return digests !== null && typeof digests === 'object' && !Array.isArray(digests) ? (digests as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An update's attributes less the fields its form left as it showed them, and the fields
 * someone else changed meanwhile that the form changes too. A field is left as shown when what
 * was posted writes the value the form showed (its digest in `shown_values`; without one, the
 * value stored now): it is not written, so saving a form untouched changes nothing (null stays
 * null, not ""; a record the user cannot pick stays chosen; a change made meanwhile by someone
 * else stays). A field the user changed whose stored value changed too since the form was shown
 * is a conflict (409): nothing is written. `fields` are those the user may write on `row`;
 * `posted` answers the strings posted for a field's control.
 */
export function untouchedAndConflicts(input: { readonly fields: readonly CompiledField[]; readonly row: RecordRow; readonly posted: (field: CompiledField) => readonly string[] | undefined; readonly shown: unknown; readonly attributes: Record<string, unknown> }): { attributes: Record<string, unknown>; conflicts: ErrorMessages } {
  const shown = postedDigests(input.shown);
  const stored = shownDigests(input.fields, input.row);
  const attributes = { ...input.attributes };
  const conflicts: Record<string, string[]> = {};
  for (const field of input.fields) {
    const posted = input.posted(field);
    if (posted === undefined || !(field.writeKey in attributes)) continue;
    const digest = formDigest(field, posted);
    const now = stored[field.writeKey];
    const then = typeof shown?.[field.writeKey] === 'string' ? (shown[field.writeKey] as string) : now;
    if (digest === undefined || then === undefined) continue;
    if (digest === then) delete attributes[field.writeKey];
    else if (now !== then && digest !== now) conflicts[field.name] = ['was changed by someone else after this form was opened: check it, then save again'];
  }
  return { attributes, conflicts };
}
