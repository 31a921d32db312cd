import { RecordInvalidError } from '../errors/panel-errors.js';
import type { FieldWriteAction } from '../authorization/field-access.js';
import type { ColumnValues } from '../records/record-row.js';
import { parseWriteValues, unpermittedKeys, UNPERMITTED_KEY_MESSAGE } from '../records/write-values.js';
import type { CompiledField, CompiledResource } from '../resources/compiled-types.js';
import type { OperationContext, OperationInput } from './operation-input.js';
import type { FileChange } from '../uploads/file-changes.js';

/** What `writeAttributes` takes: the operation's input and context, the action, and the stored record on update. */
export interface WriteAttributesInput {
  readonly input: OperationInput & { readonly attributes: Record<string, unknown> };
  readonly context: OperationContext;
  readonly action: FieldWriteAction;
  /** The stored row on update; null on create. */
  readonly record: Readonly<Record<string, unknown>> | null;
}

/** The values of a write, once the fields the actor may write are known, with the messages that refuse it. */
export interface PermittedWrite {
  readonly values: ColumnValues;
  readonly errors: Record<string, string[]>;
  /** The `confirm: true` fields the write sets. */
  readonly confirming: readonly CompiledField[];
  /** What the write does to its file fields. */
  readonly files: readonly FileChange[];
}

/**
 * The values a create or update writes: only the fields this actor may write (`fieldAccess`
 * decides), each parsed by its type; on create, the `default` of every field the write left
 * unset. Every other key is ignored, or (`unpermittedAttributes: 'reject'`) named in a 422 with
 * the same message whether no field has it or the actor may not write it.
 */
export async function writeAttributes({ input, context, action, record }: WriteAttributesInput): Promise<PermittedWrite> {
  const { resource, access, user } = context;
  const fields = await access.writable(action, record);
  const view = action === 'create' ? 'new' : 'edit';
  const { values, errors, files } = parseWriteValues(resource, view, input.attributes, fields);
  const messages: Record<string, string[]> = { ...errors };
  if (action === 'create') applyDefaults(resource, values, messages, user);
  if (input.unpermittedAttributes === 'reject') {
    for (const key of unpermittedKeys(input.attributes, fields)) messages[key] = [UNPERMITTED_KEY_MESSAGE];
  }
  const confirming = fields.filter((field) => field.definition.options.confirm === true && Object.hasOwn(input.attributes, field.writeKey));
  return { values, errors: messages, confirming, files: files ?? [] };
}

/**
 * Sets each `default` of the new view's fields whose column the write left unset, computed
 * from the actor (`({ user }) => user?.id`) and parsed by the field's type; null or undefined
 * sets nothing.
 */
function applyDefaults(resource: CompiledResource, values: ColumnValues, errors: Record<string, string[]>, user: unknown): void {
  for (const field of resource.fieldsOn('new')) {
    const rule = field.definition.options.default;
    if (rule === undefined || field.column === undefined || !field.kind.writable || Object.hasOwn(values, field.column)) continue;
    const value = rule({ user });
    if (value === null || value === undefined) continue;
    const parsed = field.kind.parse ? field.kind.parse(value, field) : { ok: true as const, value };
    if (parsed.ok) values[field.column] = parsed.value;
    else errors[field.name] = [...(errors[field.name] ?? []), parsed.message];
  }
}

/** Refuses a write whose messages are not empty. */
export function throwIfInvalid(errors: Record<string, string[]>): void {
  if (Object.keys(errors).length > 0) throw new RecordInvalidError(errors);
}
