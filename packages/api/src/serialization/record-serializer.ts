import type { CompiledField, CompiledResource, FieldAccess, RecordRow, View } from '@panel/core';
import { POLICY_ACTOR } from '../controller/request-gate.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { fieldJson } from './field-value.js';

/**
 * One record as JSON: a key per field the request's actor reads on `view` (`access`: the
 * controller's `fieldAccess()`) (and on this record),
 * each value from the controller's `serializeFieldValue`. For a controller that keeps the
 * default `serializeFieldValue` and an actor that presents values as they are, each field
 * type's own serializer is called directly.
 */
export function serializeRecordFor(context: RequestContext, access: FieldAccess, row: RecordRow, view: View): Record<string, unknown> {
  return serializeFields(context, access, row, view, context.controller.recordFields(context.resource, view));
}

/**
 * One included record of `resource` (`include`), exactly as its show would answer it for this
 * actor, restricted to the field names `names`: the same field access (`fieldAccess(resource)`),
 * the same per-record rules and the same value serializer as `serializeRecordFor`.
 */
export function serializeIncludedFor(context: RequestContext, resource: CompiledResource, row: RecordRow, names: ReadonlySet<string>): Record<string, unknown> {
  const access = context.controller.fieldAccess(resource);
  return serializeFields(context, access, row, 'show', includedFields(access, names));
}

/** The fields an included record may carry, per field access (one per request and resource) and fieldset (one per path): found once, not once per record. */
const INCLUDED_FIELDS = new WeakMap<FieldAccess, WeakMap<ReadonlySet<string>, readonly CompiledField[]>>();

function includedFields(access: FieldAccess, names: ReadonlySet<string>): readonly CompiledField[] {
  let byNames = INCLUDED_FIELDS.get(access);
  if (!byNames) {
    byNames = new WeakMap();
    INCLUDED_FIELDS.set(access, byNames);
  }
  let fields = byNames.get(names);
  if (!fields) {
    fields = access.readable('show').filter((field) => names.has(field.name));
    byNames.set(names, fields);
  }
  return fields;
}

function serializeFields(context: RequestContext, access: FieldAccess, row: RecordRow, view: View, fields: readonly CompiledField[]): Record<string, unknown> {
  const { controller } = context;
  const direct = context.route.defaultFieldValues && context.actor.presents === POLICY_ACTOR.presents;
  const record: Record<string, unknown> = {};
  for (const field of fields) {
    if (!access.shows(field, view, row)) continue;
    record[field.name] = direct ? fieldJson({ field, row, view }) : controller.serializeFieldValue({ field, row, view });
  }
  return record;
}
