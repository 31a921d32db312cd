import { humanize, operations, type CompiledField, type CompiledResource, type ErrorMessages, type FormControl, type RecordRow } from '@panel/core';
import { fieldJson } from '@panel/api';
import type { FormBody } from '../forms/form-body.js';
import type { ScreenActor } from './screen-actor.js';
import type { ResourceScreensContext } from './screen-request.js';
import { shownValue, type ShownValue } from './shown-value.js';
import { recordLabel } from './show-screen.js';
import { recordKeyInput } from './record-key-input.js';
import { shownDigests } from './form-changes.js';

/** The most records a `belongs_to` select offers; a larger target is chosen by its id. */
export const RECORD_CHOICES = 100;

/** The name of a field's control: `record[<write key>]`. */
export const controlName = (field: CompiledField): string => `record[${field.writeKey}]`;

/** What the user typed, by control name: a 422 shows it again, so does a form back from a password confirmation; a `new` screen takes it from `?record[…]=`. */
export type TypedValues = ReadonlyMap<string, readonly string[]>;

/** The `record[…]` values of a posted form or a query string. */
export function typedValues(source: FormBody | Readonly<Record<string, unknown>> | undefined): TypedValues {
  const values = new Map<string, string[]>();
  for (const [name, value] of Object.entries(source ?? {})) {
    if (!name.startsWith('record[')) continue;
    const list = (Array.isArray(value) ? value : [value]).filter((one): one is string => typeof one === 'string');
    values.set(name.endsWith('[]') ? name.slice(0, -2) : name, list);
  }
  return values;
}

/**
 * The attributes a posted form writes, as a JSON body would carry them: each posted
 * `record[<write key>]` of a field whose type has a form, made into its write value by the type
 * (`form.fromForm`). Whatever this user may write: the operation then ignores a field the user
 * may not write on this view (a forged control changes nothing), exactly as the API does with
 * the same body.
 */
export function postedAttributes(resource: CompiledResource, typed: TypedValues): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const field of resource.fields) {
    const form = field.kind.form;
    const posted = typed.get(controlName(field));
    if (!form?.fromForm || posted === undefined) continue;
    const value = form.fromForm(posted, field);
    if (value !== undefined) attributes[field.writeKey] = value;
  }
  return attributes;
}

/**
 * A text area's content for `value`: the HTML parser drops one line feed right after the start
 * tag (and reads a CR as one), so a value starting with a line break gets one more in front of
 * it; any other value is written as it is.
 */
const textAreaText = (value: string): string => (/^[\r\n]/.test(value) ? `\n${value}` : value);

/** One control of the form, as the template draws it. */
interface ControlModel {
  readonly id: string;
  readonly name: string;
  readonly label: string;
  readonly required: boolean;
  readonly partial: string;
  readonly value: string;
  readonly checked?: boolean;
  readonly inputmode?: string | undefined;
  /** For `controlInput`: the input's type (`date`, `datetime-local`, `password`), its step and autocomplete. */
  readonly type?: string;
  readonly step?: string;
  readonly autocomplete?: string;
  readonly options?: readonly { value: string; label: string; selected: boolean }[];
  /** For `controlFile`: several files, the files attached now (edit), and those received before a 422, kept. */
  readonly multiple?: boolean;
  readonly current?: ShownValue | undefined;
  readonly pending?: readonly { readonly id: string; readonly filename: string }[];
  readonly hint?: string | undefined;
  readonly hintId?: string | undefined;
  readonly errors?: readonly string[];
  readonly errorId?: string | undefined;
  readonly describedBy?: string | undefined;
}

/** The choices of a `record` control: the target's records the user may list (at most `RECORD_CHOICES`), or undefined to ask for an id. */
async function recordChoices(actor: ScreenActor, target: CompiledResource): Promise<{ value: string; label: string }[] | undefined> {
  if (!(await actor.may(target, 'index'))) return undefined;
  const list = await operations.list({ ...actor.input(target), page: 1, perPage: RECORD_CHOICES });
  if (list.totalCount > RECORD_CHOICES) return undefined;
  return list.rows.map((row) => ({ value: String(row[target.primaryKey]), label: recordLabel(target, row) }));
}

/** The uploads named by a 422's form that are still the user's and live (one statement, whatever their number): kept, so no file is chosen twice. */
async function pendingUploads(actor: ScreenActor, ids: readonly string[]): Promise<{ id: string; filename: string }[]> {
  const named = [...new Set(ids)].filter((id) => id !== '');
  const live = named.length === 0 ? new Map() : await actor.panel.uploads.describeAll({ owner: actor.uploader, ids: named });
  return named.flatMap((id) => (live.has(id) ? [{ id, filename: live.get(id)!.filename }] : []));
}

/** The model of one control: its partial, value(s), hint and messages tied to it. */
async function controlModel(actor: ScreenActor, field: CompiledField, control: FormControl, value: readonly string[], errors: readonly string[] | undefined, current?: ShownValue): Promise<ControlModel> {
  const id = `record-${field.writeKey}`;
  const hintId = control.hint ? `${id}-hint` : undefined;
  const errorId = errors && errors.length > 0 ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  const base = { id, name: controlName(field), label: humanize(field.name), required: field.required, value: value.at(-1) ?? '', hint: control.hint, hintId, errors, errorId, describedBy };
  switch (control.kind) {
    case 'checkbox':
      return { ...base, partial: 'controlCheckbox', checked: value.at(-1) === 'true' };
    case 'select':
      return { ...base, partial: 'controlSelect', options: [{ value: '', label: '—', selected: base.value === '' }, ...(control.options ?? []).map((option) => ({ ...option, selected: option.value === base.value }))] };
    case 'record': {
      const target = actor.panel.resources.get(control.target!)!;
      const choices = await recordChoices(actor, target);
      if (choices === undefined) return { ...base, partial: 'controlText', ...recordKeyInput(target.key), hintId: `${id}-hint`, describedBy: [`${id}-hint`, errorId].filter(Boolean).join(' ') };
      const listed = choices.some((choice) => choice.value === base.value) || base.value === '' ? choices : [...choices, { value: base.value, label: `#${base.value}` }];
      return { ...base, partial: 'controlSelect', options: [{ value: '', label: '—', selected: base.value === '' }, ...listed.map((choice) => ({ ...choice, selected: choice.value === base.value }))] };
    }
    case 'textarea':
      return { ...base, partial: 'controlTextarea', value: textAreaText(base.value) };
    case 'date':
      return { ...base, partial: 'controlInput', type: 'date' };
    case 'datetime':
      return { ...base, partial: 'controlInput', type: 'datetime-local', step: '1' };
    case 'password':
      return { ...base, partial: 'controlInput', value: '', type: 'password', autocomplete: 'new-password' };
    case 'file':
      return { ...base, partial: 'controlFile', multiple: control.multiple === true, current: current?.empty ? undefined : current, pending: await pendingUploads(actor, value) };
    default:
      // A text input cannot hold a line break (a browser strips it from the value): a value with one is edited in a text area.
      if (/[\r\n]/.test(base.value)) return { ...base, partial: 'controlTextarea', value: textAreaText(base.value) };
      return { ...base, partial: 'controlText', inputmode: control.inputmode };
  }
}

/** What a form screen shows: the record (edit) or prefill (new), what was typed after a 422, and its messages. */
export interface FormInput {
  readonly context: ResourceScreensContext;
  readonly actor: ScreenActor;
  readonly resource: CompiledResource;
  readonly view: 'new' | 'edit';
  /** The stored record on edit; null on new. */
  readonly row: RecordRow | null;
  /** What was typed (a 422, or kept across a password confirmation) or prefilled (`?record[…]=` on new); absent values come from the record. */
  readonly typed: TypedValues;
  readonly errors: ErrorMessages;
  /** Whether the user typed their password recently (a `confirm: true` field is offered only then). */
  readonly confirmed: boolean;
}

/**
 * The form's model: a control per field the user may write (`fieldAccess(…).writable`), from
 * its type's `form.control`, with what was typed or the stored value; the fields the user reads
 * but may not write, shown read-only (edit); a `confirm: true` field only after a recent
 * password confirmation (else named in `needsConfirmation`, for the button that keeps what was
 * typed while the user confirms); the error summary with a link to each
 * field's control, and each message tied to its control.
 */
export async function formModel(input: FormInput) {
  const { context, actor, resource, view, row, typed, errors, confirmed } = input;
  const access = actor.access(resource);
  const writable = new Set(await access.writable(view === 'new' ? 'create' : 'update', row));
  const readable = new Set(access.readable(view));
  const controls: ControlModel[] = [];
  const readOnly: { label: string; value: ShownValue }[] = [];
  const needsConfirmation: string[] = [];
  // In declaration order: the fields the user may write, then shown read-only those the user reads on this view.
  for (const field of resource.fields.filter((candidate) => writable.has(candidate) || readable.has(candidate))) {
    const control = field.kind.form?.control?.(field);
    if (writable.has(field) && control) {
      if (field.definition.options.confirm === true && !confirmed) {
        needsConfirmation.push(humanize(field.name));
        continue;
      }
      const value = typed.get(controlName(field)) ?? (row ? field.kind.form!.formValue!(fieldJson({ field, row, view }), field) : []);
      const current = row && access.shows(field, view, row) ? shownValue(context.panel, context.resourcePaths, resource, field, row, view) : undefined;
      controls.push(await controlModel(actor, field, control, value, errors[field.name], current));
    } else if (row && readable.has(field) && access.shows(field, view, row)) {
      readOnly.push({ label: humanize(field.name), value: shownValue(context.panel, context.resourcePaths, resource, field, row, view) });
    }
  }
  const byName = new Map(resource.fields.map((field) => [field.name, field]));
  const summary = Object.entries(errors).flatMap(([name, messages]) => {
    const field = byName.get(name);
    const href = field && controls.some((control) => control.id === `record-${field.writeKey}`) ? `#record-${field.writeKey}` : undefined;
    return messages.map((message) => ({ text: name === 'base' ? message : `${humanize(name)} ${message}`, href }));
  });
  // What the edit form shows of the stored record, so that its update writes only what the user changed.
  const shownFields = resource.fields.filter((field) => writable.has(field) && controls.some((control) => control.name === controlName(field)));
  const shownValues = row ? JSON.stringify(shownDigests(shownFields, row)) : undefined;
  return { controls, readOnly, summary, shownValues, hasErrors: summary.length > 0, multipart: controls.some((control) => control.partial === 'controlFile'), needsConfirmation: needsConfirmation.length > 0 ? needsConfirmation.join(', ') : undefined };
}
